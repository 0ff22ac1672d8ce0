/**
 * `POST <prefix>/chat/completions`: validated here; the engine renders the conversation with
 * the model's chat template and generates; the answer is `chat.completion` JSON or
 * `chat.completion.chunk` SSE.
 */
import { engineFor } from '../../engine-for';
import {
  jsonResponse,
  openGeneration,
  sseResponse,
  type JsonFormatter,
  type StreamFormatter,
} from '../../engine-response';
import { readJson } from '../../read-json';
import type { Route } from '../../route';
import { ChatCompletionBuilder } from './chat-completion-builder';
import { chatFormatOptions, type ChatFormatOptions } from '../../conversation/chat-format-options';
import { chatGenerationRequest } from '../../conversation/chat-generation-request';
import { ChatStream, chatSseBytes } from './chat-stream';
import { validateChat } from '../../conversation/validate-chat';

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

export function chatRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'POST',
    path: `${prefix}/chat/completions`,
    async handle(event) {
      const request = await engineFor(
        clients,
        event,
        async () => validateChat(await readJson(event.request)),
        chatGenerationRequest,
      );
      const generation = await openGeneration(request, event.request.signal);
      const options = chatFormatOptions(request.body);
      return request.body.stream
        ? sseResponse(generation, chatStream(options))
        : jsonResponse(generation, chatJson(options));
    },
  };
}
