/**
 * `POST <prefix>/responses`: the stateless subset of OpenAI's Responses API, on the chat path
 * (the input becomes a conversation the engine renders with the model's template). Streams the
 * documented `response.*` events (`event:` + `data:` frames, no `[DONE]`), or answers the
 * final `response` object.
 */
import { InternalServerError } from '#core/errors';
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
import { chatFormatOptions } from '../../conversation/chat-format-options';
import { chatGenerationRequest } from '../../conversation/chat-generation-request';
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

export function responsesRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'POST',
    path: `${prefix}/responses`,
    async handle(event) {
      const request = await engineFor(
        clients,
        event,
        async () => {
          const body = validateResponses(await readJson(event.request));
          return { ...body, model: body.chat.model };
        },
        (body) => chatGenerationRequest(body.chat),
      );
      const generation = await openGeneration(request, event.request.signal);
      const meta = responseMeta(request.body);
      return request.body.chat.stream
        ? sseResponse(generation, responseStream(meta, request.body))
        : jsonResponse(generation, responseJson(meta, request.body));
    },
  };
}
