/**
 * `POST <prefix>/chat/completions`: validated here; the engine renders the conversation with
 * the model's chat template and generates; the answer is `chat.completion` JSON or
 * `chat.completion.chunk` SSE. Its id is tracked while it runs, for `control-route.ts`.
 */
import { OPENAI_DIALECT } from '../../dialect/openai-dialect';
import type { JsonFormatter, OpenGeneration, StreamFormatter } from '../../engine-response';
import type { ChatRequest } from '../../conversation/chat-types';
import { trackChat } from '../../running-chats';
import { generationRoute } from '../../generation-route';
import { ChatCompletionBuilder } from './chat-completion-builder';
import { chatFormatOptions, type ChatFormatOptions } from '../../conversation/chat-format-options';
import { chatGenerationRequest } from '../../conversation/chat-generation-request';
import { ChatStream, chatSseBytes } from './chat-stream';
import { validateChat } from '../../conversation/validate-chat';
import { withMediaBytes } from '../../conversation/chat-media';

function chatStream(options: ChatFormatOptions): StreamFormatter {
  const stream = new ChatStream(options);
  return {
    frames: (event) => chatSseBytes(stream.accept(event)),
    done: (counts) => chatSseBytes(stream.accept({ type: 'generation.done', counts })),
  };
}

function chatJson(options: ChatFormatOptions): JsonFormatter {
  const builder = new ChatCompletionBuilder(options);
  return {
    add: (event) => void builder.accept(event),
    body: (counts) => {
      builder.accept({ type: 'generation.done', counts });
      return builder.result();
    },
  };
}

/** The request's formatting options, its id tracked while its job runs (llama-server's control route). */
function tracked(body: ChatRequest, { channel }: OpenGeneration): ChatFormatOptions {
  const options = chatFormatOptions(body);
  trackChat(options.id, channel, body.reasoning_budget?.control ?? false);
  return options;
}

export const chatRoute = generationRoute({
  path: '/chat/completions',
  dialect: OPENAI_DIALECT,
  parse: validateChat,
  // Media parts given by URL are downloaded here, before the engine is asked (issue 32).
  resolve: (body, _clients, event) => withMediaBytes(body, event.request.signal),
  generation: chatGenerationRequest,
  streamed: (body) => body.stream,
  stream: (body, generation) => chatStream(tracked(body, generation)),
  json: (body, generation) => chatJson(tracked(body, generation)),
});
