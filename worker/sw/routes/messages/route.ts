/**
 * `POST <prefix>/messages`: Anthropic's Messages API on the chat path (the system text and the
 * turns become a conversation the engine renders with the model's template). Streams Anthropic's
 * named events, or answers the `message` object; errors in Anthropic's shape. With the Anthropic
 * SDK's `baseURL` at the origin, `${baseURL}/v1/messages` lands here on the default prefix.
 */
import { InternalServerError } from '#core/domain/errors';
import { ANTHROPIC_DIALECT } from '../../dialect/anthropic-dialect';
import type { JsonFormatter, StreamFormatter } from '../../engine-response';
import { generationRoute } from '../../generation-route';
import { chatFormatOptions } from '../../conversation/chat-format-options';
import { chatGenerationRequest } from '../../conversation/chat-generation-request';
import { withMediaBytes } from '../../conversation/chat-media';
import { messageMeta } from './message-object';
import { messageSseFrame, MessageStream, type MessageEvent } from './message-stream';
import { validateMessages, type MessagesRequest } from './validate-messages';

const encoder = new TextEncoder();
const frames = (events: MessageEvent[]) => events.map((event) => encoder.encode(messageSseFrame(event)));

/** A validated body, with the model the router reads. */
type MessagesBody = MessagesRequest & { model: string };

function messageStream(body: MessagesRequest): MessageStream {
  return new MessageStream(messageMeta(body.chat.model), chatFormatOptions(body.chat).parser);
}

function streamFormatter(body: MessagesRequest): StreamFormatter {
  const stream = messageStream(body);
  return {
    frames: (event) => frames(stream.accept(event)),
    done: (counts) => frames(stream.accept({ type: 'generation.done', counts })),
  };
}

function jsonFormatter(body: MessagesRequest): JsonFormatter {
  const stream = messageStream(body);
  return {
    add: (event) => void stream.accept(event),
    body: (counts) => {
      stream.accept({ type: 'generation.done', counts });
      const message = stream.final();
      if (!message) throw new InternalServerError('The message ended without its final object.', 'message_incomplete');
      return message;
    },
  };
}

export const messagesRoute = generationRoute<MessagesBody>({
  path: '/messages',
  dialect: ANTHROPIC_DIALECT,
  parse: (json) => {
    const body = validateMessages(json);
    return { ...body, model: body.chat.model };
  },
  resolve: async (body, _clients, event) => ({ ...body, chat: await withMediaBytes(body.chat, event.request.signal) }),
  generation: (body) => chatGenerationRequest(body.chat),
  streamed: (body) => body.chat.stream,
  stream: streamFormatter,
  json: jsonFormatter,
});
