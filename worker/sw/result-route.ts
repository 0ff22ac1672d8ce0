/**
 * A route whose job has one result, as a definition: what it parses, the job it sends (a kind
 * of the job protocol and its request), the capability check, and the answer built from the
 * result: embeddings, rerank, tokenize and the others, each a definition, one job kind, and one
 * engine runner.
 */
import type { ModelCapabilities } from '#core/domain/capabilities';
import type { JobRequests } from '#core/protocol/protocol';
import type { Dialect } from './dialect/dialect';
import { routeToEngine } from './engine-for';
import type { RouteFactory } from './generation-route';
import type { JobEvent } from './job-channel';
import { openJob, type OpenJob } from './open-job';
import { readJson } from './read-json';
import type { Route } from './route';
import { withRoutes } from './upstream/route-request';
import { prefixParent } from '#core/domain/route-prefix';

/** The job kinds whose first output is their one result. */
type ResultKind = 'embedding' | 'rerank' | 'tokenize' | 'detokenize' | 'apply-template' | 'props';
type Result<K extends ResultKind> = OpenJob<JobEvent<K>>['first'];

export interface ResultRouteDefinition<B extends { model: string }, K extends ResultKind> {
  path: string;
  dialect: Dialect;
  kind: K;
  /** The route sits beside the prefix, under its parent (llama-server's `/tokenize` next to `/v1`). */
  outsidePrefix?: boolean;
  /** Fills in what the body may leave out, from the engines here (llama-server's routes: the model). */
  complete?(json: unknown, clients: Clients, clientId: string): Promise<unknown>;
  parse(body: unknown): B;
  job(body: B): JobRequests[K];
  check(capabilities: ModelCapabilities, request: JobRequests[K]): void;
  /** The answer's JSON body. */
  answer(body: B, result: Result<K>): unknown;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

export function resultRoute<B extends { model: string }, K extends ResultKind>(
  definition: ResultRouteDefinition<B, K>,
): RouteFactory {
  const { dialect } = definition;
  return (clients, prefix) => {
    const device: Route['handle'] = async (event) => {
      const routed = await routeToEngine(clients, event, {
        dialect,
        validate: async () => {
          const json = await readJson(event.request);
          return definition.parse(
            definition.complete ? await definition.complete(json, clients, event.clientId) : json,
          );
        },
        toRequest: definition.job,
        check: definition.check,
      });
      // A job like every other: re-routed when its engine's page goes before the result, else a 503 `engine_gone`.
      const { channel, first } = await openJob[definition.kind](routed, routed.generation, event.request.signal);
      channel.close();
      return new Response(JSON.stringify(definition.answer(routed.body, first)), { headers: JSON_HEADERS });
    };
    return {
      method: 'POST',
      path: `${definition.outsidePrefix ? prefixParent(prefix) : prefix}${definition.path}`,
      dialect,
      // Beside the prefix (llama-server's own endpoints) only the device answers: an upstream's
      // `baseURL` is its `/v1`, where those endpoints are not.
      handle: definition.outsidePrefix ? device : withRoutes(clients, definition.path, dialect, device),
    };
  };
}
