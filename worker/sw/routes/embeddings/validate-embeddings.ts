/**
 * Validates a `/v1/embeddings` body: `model`, `input` (string | string[] | number[] |
 * number[][], none empty), `encoding_format` ('float' | 'base64'), `dimensions` (400: models
 * here return their native size only), `user`.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { describeValue } from '#core/openai/describe-value';
import { isRecord } from '#core/util/is-record';
import { rejectUnknownKeys, requireKey } from '#core/openai/parse-body';

export interface EmbeddingsRequest {
  model: string;
  /** One entry per embedding: text, or token ids. */
  inputs: Array<string | number[]>;
  encoding_format: 'float' | 'base64';
  user: string | null;
}

const KEYS = new Set(['model', 'input', 'encoding_format', 'dimensions', 'user']);
const isTokenIds = (x: unknown): x is number[] => Array.isArray(x) && x.every((t) => Number.isInteger(t) && t >= 0);

export function validateEmbeddings(body: unknown): EmbeddingsRequest {
  if (!isRecord(body)) throw new InvalidRequestError('The request body must be a JSON object.', null, 'invalid_json');
  rejectUnknownKeys(body, KEYS);
  const model = requireKey(body, 'model');
  if (typeof model !== 'string' || model === '')
    throw new InvalidRequestError("Invalid value for 'model': must be a non-empty string.", 'model');
  const inputs = normalizeInput(requireKey(body, 'input'));
  const format = body.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') {
    throw new InvalidRequestError(
      `Invalid value for 'encoding_format': expected 'float' or 'base64', but got ${JSON.stringify(format)}.`,
      'encoding_format',
    );
  }
  if (body.dimensions != null) {
    throw new InvalidRequestError(
      "'dimensions' is not supported: this model returns embeddings of its native size only.",
      'dimensions',
      'unsupported_parameter',
    );
  }
  const user = body.user ?? null;
  if (user !== null && typeof user !== 'string')
    throw new InvalidRequestError(
      `Invalid type for 'user': expected a string, but got ${describeValue(user)} instead.`,
      'user',
    );
  return { model, inputs, encoding_format: format, user };
}

function normalizeInput(input: unknown): Array<string | number[]> {
  const bad = () =>
    new InvalidRequestError(
      `Invalid type for 'input': expected a string, an array of strings, an array of token ids or an array of token-id arrays, but got ${describeValue(input)} instead.`,
      'input',
    );
  const empty = () =>
    new InvalidRequestError("Invalid value for 'input': an input must not be empty.", 'input', 'empty_input');
  if (typeof input === 'string') {
    if (input === '') throw empty();
    return [input];
  }
  if (!Array.isArray(input) || input.length === 0) throw input === undefined || !Array.isArray(input) ? bad() : empty();
  if (input.every((x) => typeof x === 'string')) {
    if (input.some((x) => x === '')) throw empty();
    return input;
  }
  if (isTokenIds(input)) return [input];
  if (input.every(isTokenIds)) {
    if (input.some((ids) => ids.length === 0)) throw empty();
    return input;
  }
  throw bad();
}
