/**
 * `POST <prefix>/responses`: the stateless subset of OpenAI's Responses API, on the chat path
 * (the input becomes a conversation the engine renders with the model's template). Streams the
 * documented `response.*` events (`event:` + `data:` frames, no `[DONE]`), or answers the
 * final `response` object.
 */
import { InternalServerError } from '#core/domain/errors';
import { OPENAI_DIALECT } from '../../dialect/openai-dialect';
import type { JsonFormatter, StreamFormatter } from '../../engine-response';
import { generationRoute } from '../../generation-route';
import { chatFormatOptions } from '../../conversation/chat-format-options';
import { chatGenerationRequest } from '../../conversation/chat-generation-request';
import { withMediaBytes } from '../../conversation/chat-media';
import { responseMeta, type ResponseMeta } from './response-object';
import { responseSseFrame, ResponseStream, type ResponseEvent } from './response-stream';
import { validateResponses, type ResponsesRequest } from './validate-responses';

const encoder = new TextEncoder();
const frames = (events: ResponseEvent[]) => events.map((event) => encoder.encode(responseSseFrame(event)));

function responseStream(meta: ResponseMeta, request: ResponsesRequest): StreamFormatter {
  const stream = new ResponseStream(meta, chatFormatOptions(request.chat).parser);
  let opening: ResponseEvent[] | null = stream.start();
  const withOpening = (events: ResponseEvent[]) => {
    const all = opening ? [...opening, ...events] : events;
    opening = null;
    return frames(all);
  };
  return {
    frames: (event) => withOpening(stream.accept(event)),
    done: (counts) => withOpening(stream.accept({ type: 'generation.done', counts })),
  };
}

function responseJson(meta: ResponseMeta, request: ResponsesRequest): JsonFormatter {
  const stream = new ResponseStream(meta, chatFormatOptions(request.chat).parser);
  return {
    add: (event) => void stream.accept(event),
    body: (counts) => {
      stream.accept({ type: 'generation.done', counts });
      const response = stream.final();
      if (!response)
        throw new InternalServerError('The response ended without its final object.', 'response_incomplete');
      return response;
    },
  };
}

export const responsesRoute = generationRoute({
  path: '/responses',
  dialect: OPENAI_DIALECT,
  parse: (json) => {
    const body = validateResponses(json);
    return { ...body, model: body.chat.model };
  },
  resolve: async (body, _clients, event) => ({ ...body, chat: await withMediaBytes(body.chat, event.request.signal) }),
  generation: (body) => chatGenerationRequest(body.chat),
  streamed: (body) => body.chat.stream,
  stream: (body) => responseStream(responseMeta(body), body),
  json: (body) => responseJson(responseMeta(body), body),
});
