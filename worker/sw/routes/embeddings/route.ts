/**
 * `POST <prefix>/embeddings`: the key is checked first (401, as OpenAI), then the body is
 * validated and checked against the model's capabilities (a model that cannot embed is a 400);
 * the engine returns pooled vectors (one `embedding` job), scaled here to unit length, as one
 * JSON body.
 */
import { checkEmbeddingCapabilities } from '#core/embedding';
import { routeToEngine } from '../../engine-for';
import { readJson } from '../../read-json';
import type { Route } from '../../route';
import { openJob } from '../../open-job';
import { embeddingsResponse, l2Normalize } from './embeddings-response';
import { validateEmbeddings } from './validate-embeddings';

const JSON_HEADERS = { 'content-type': 'application/json' };

export function embeddingsRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'POST',
    path: `${prefix}/embeddings`,
    async handle(event) {
      const routed = await routeToEngine(
        clients,
        event,
        async () => validateEmbeddings(await readJson(event.request)),
        (body) => ({ model: body.model, inputs: body.inputs }),
        checkEmbeddingCapabilities,
      );
      // A job like every other: re-routed when its engine's page goes before the result, else a 503 `engine_gone`.
      const { channel, first: result } = await openJob.embedding(routed, routed.generation, event.request.signal);
      channel.close();
      const body = embeddingsResponse(
        routed.body.model,
        result.vectors.map(l2Normalize),
        result.prompt_tokens,
        routed.body.encoding_format,
      );
      return new Response(JSON.stringify(body), { headers: JSON_HEADERS });
    },
  };
}
