/**
 * `POST <prefix>/embeddings`: the key is checked first (401, as OpenAI), then the body is
 * validated and checked against the model's capabilities (a model that cannot embed is a 400);
 * the engine returns pooled vectors (one `embedding` job), scaled here to unit length, as one
 * JSON body.
 */
import { checkEmbeddingCapabilities } from '#core/domain/embedding';
import { OPENAI_DIALECT } from '../../dialect/openai-dialect';
import { resultRoute } from '../../result-route';
import { embeddingsResponse, l2Normalize } from './embeddings-response';
import { validateEmbeddings } from './validate-embeddings';

export const embeddingsRoute = resultRoute({
  path: '/embeddings',
  dialect: OPENAI_DIALECT,
  kind: 'embedding',
  parse: validateEmbeddings,
  job: (body) => ({ model: body.model, inputs: body.inputs }),
  check: checkEmbeddingCapabilities,
  answer: (body, result) =>
    embeddingsResponse(body.model, result.vectors.map(l2Normalize), result.prompt_tokens, body.encoding_format),
});
