/**
 * `POST /embedding` beside the route prefix, llama-server's own (non-OpenAI) embedding route:
 * `content` (or `input`): a string, token ids, or an array of those, one vector each;
 * `embd_normalize` (2, the default: Euclidean; -1 none; 0 max-abs scaled to int16's range; 1
 * taxicab; p > 2 the p-norm). The answer is llama-server's with `--pooling mean`:
 * `[{index, embedding: [vector]}]` (each vector in a list of one: with `--pooling none` that
 * list holds a vector per token, which the engine here does not give). A mix of strings and ids
 * in one input is a 400 naming `content`; `model` is optional (the model loaded here).
 */
import { checkEmbeddingCapabilities } from '#core/domain/embedding';
import { InvalidRequestError } from '#core/domain/errors';
import { isRecord } from '#core/util/is-record';
import { typeError } from '../../conversation/validate-chat-tools';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import { resultRoute } from '../../result-route';
import { withDefaultModel } from './default-model';
import { readNativePrompts } from './native-prompt';
import { normalizeEmbedding } from './normalize-embedding';

function parseEmbedding(json: unknown) {
  if (!isRecord(json)) throw new InvalidRequestError('The request body must be a JSON object.', null, 'invalid_json');
  const { model } = json;
  if (typeof model !== 'string' || model === '')
    throw new InvalidRequestError("No model is loaded here: load one, or name it in 'model'.", 'model');
  const content = json.content ?? json.input;
  if (content == null) throw new InvalidRequestError('"input" or "content" must be provided', 'content');
  const inputs = readNativePrompts(content).map((input) => {
    if (input === '' || (Array.isArray(input) && input.length === 0))
      throw new InvalidRequestError('Input content cannot be empty', 'content', 'empty_input');
    if (typeof input === 'string') return input;
    if (!Array.isArray(input))
      throw new InvalidRequestError(
        "'multimodal_data' is not supported by /embedding here: embed text or ids.",
        'content',
        'unsupported_parameter',
      );
    const ids = input.filter((part) => typeof part === 'number');
    if (ids.length !== input.length)
      throw new InvalidRequestError(
        'An input that mixes strings and token ids is not supported by /embedding here: send text or ids.',
        'content',
        'unsupported_parameter',
      );
    return ids;
  });
  const norm = json.embd_normalize ?? 2;
  if (typeof norm !== 'number' || !Number.isInteger(norm) || norm < -1)
    throw typeError('embd_normalize', 'an integer >= -1', norm);
  return { model, inputs, embd_normalize: norm };
}

export const embeddingRoute = resultRoute({
  path: '/embedding',
  dialect: LLAMA_SERVER_DIALECT,
  outsidePrefix: true,
  kind: 'embedding',
  complete: withDefaultModel,
  parse: parseEmbedding,
  job: ({ model, inputs }) => ({ model, inputs }),
  check: checkEmbeddingCapabilities,
  answer: (body, result) =>
    result.vectors.map((vector, index) => ({ index, embedding: [normalizeEmbedding(vector, body.embd_normalize)] })),
});
