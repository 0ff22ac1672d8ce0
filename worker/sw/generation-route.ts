/**
 * A generating route as a definition: what it parses, the generation job it sends, and how it
 * formats the events, streamed or as one body. The handler is the same for every such route:
 * check the key, validate, route to the model's engine, check capabilities, open the job, and
 * answer through the formatter (errors in the route's dialect).
 */
import { checkCapabilities, type ModelCapabilities } from '#core/domain/capabilities';
import { prefixParent } from '#core/domain/route-prefix';
import type { GenerationRequest } from '#core/domain/generation';
import type { Dialect } from './dialect/dialect';
import { routeToEngine } from './engine-for';
import {
  jsonResponse,
  openGeneration,
  sseResponse,
  type JsonFormatter,
  type OpenGeneration,
  type StreamFormatter,
} from './engine-response';
import { readJson } from './read-json';
import { conversationId, resumable, streamSessions } from './streams/sessions';
import type { Route, RouteEvent } from './route';
import { withRoutes } from './upstream/route-request';

export interface GenerationRouteDefinition<B extends { model: string }> {
  /** The path under the route prefix (`/chat/completions`). */
  path: string;
  dialect: Dialect;
  /** Validates a parsed JSON body (a 400 naming the field, in the dialect's shape). */
  parse(body: unknown): B;
  /** The neutral generation the engine runs for it. */
  generation(body: B): GenerationRequest;
  /** Whether the answer is streamed. */
  streamed(body: B): boolean;
  /** The formatters, made once the engine took the prompt (`generation`: its job, for a route that tracks it). */
  stream(body: B, generation: OpenGeneration): StreamFormatter;
  json(body: B, generation: OpenGeneration): JsonFormatter;
  /** The route sits beside the prefix, under its parent (llama-server's `/infill` next to `/v1`): device only. */
  outsidePrefix?: boolean;
  /** Fills in what the body may leave out, from the engines here (llama-server's routes: the model). */
  complete?(json: unknown, clients: Clients, clientId: string): Promise<unknown>;
  /** Completes the validated body on the engine it goes to (llama-server's `/completion`: mixed prompts tokenized there). */
  resolve?(body: B, clients: Clients, event: RouteEvent): Promise<B>;
  /** The route's own refusals before the capability check (a 400 naming the endpoint). */
  check?(capabilities: ModelCapabilities, request: GenerationRequest): void;
}

/** The route of a definition, for a Service Worker's clients under `prefix`. */
export type RouteFactory = (clients: Clients, prefix: string) => Route;

export function generationRoute<B extends { model: string }>(definition: GenerationRouteDefinition<B>): RouteFactory {
  const { dialect } = definition;
  return (clients, prefix) => {
    const device: Route['handle'] = async (event) => {
      // With llama-server's X-Conversation-Id a request replaces the conversation's stream at once
      // (the running one is cancelled), streamed or not; only a stream keeps its session (streams/).
      const conversation = conversationId(event.request);
      const session = conversation === null ? null : streamSessions.createOrReplace(conversation);
      try {
        const { answer, streamed } = await answerOnDevice(event);
        if (session === null) return answer;
        if (streamed) return resumable(answer, session);
        streamSessions.evict(session);
        return answer;
      } catch (error) {
        if (session !== null) streamSessions.evict(session);
        throw error;
      }
    };
    const answerOnDevice = async (event: RouteEvent): Promise<{ answer: Response; streamed: boolean }> => {
      const routed = await routeToEngine(clients, event, {
        dialect,
        validate: async () => {
          const json = await readJson(event.request);
          const body = definition.parse(
            definition.complete ? await definition.complete(json, clients, event.clientId) : json,
          );
          return definition.resolve ? definition.resolve(body, clients, event) : body;
        },
        toRequest: (body) => ({ ...definition.generation(body), stream: definition.streamed(body) }),
        check: (capabilities, request) => {
          definition.check?.(capabilities, request);
          checkCapabilities(capabilities, request);
        },
      });
      const generation = await openGeneration(routed, event.request.signal);
      const body = routed.body;
      if (!definition.streamed(body))
        return { answer: await jsonResponse(generation, definition.json(body, generation), dialect), streamed: false };
      return { answer: sseResponse(generation, definition.stream(body, generation), dialect), streamed: true };
    };
    return {
      method: 'POST',
      path: `${definition.outsidePrefix ? prefixParent(prefix) : prefix}${definition.path}`,
      dialect,
      // Beside the prefix only the device answers: an upstream's `baseURL` is its `/v1`.
      handle: definition.outsidePrefix ? device : withRoutes(clients, definition.path, dialect, device),
    };
  };
}
