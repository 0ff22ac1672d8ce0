/**
 * llama.cpp server's own dialect (`/tokenize`, `/detokenize`): the key in `Authorization: Bearer`
 * or `X-Api-Key`, as llama-server reads it; errors as llama-server writes them,
 * `{"error":{"code":<status>,"message","type"}}`.
 */
import type { OpenAIError } from '#core/domain/errors';
import { sseFrame } from '../sse';
import type { Dialect } from './dialect';
import { ANTHROPIC_DIALECT } from './anthropic-dialect';

/** llama-server's error types by status (404 is `not_found_error` there, 503 `unavailable_error`). */
const typeOf = (error: OpenAIError) =>
  error.status === 503 ? 'unavailable_error' : error.status === 404 ? 'not_found_error' : error.type;
const body = (error: OpenAIError) => ({ error: { code: error.status, message: error.message, type: typeOf(error) } });

export const LLAMA_SERVER_DIALECT: Dialect = {
  name: 'llama-server',
  apiKeyOf: ANTHROPIC_DIALECT.apiKeyOf,
  missingKey: 'Invalid API Key: send it as Authorization: Bearer or X-Api-Key.',
  errorBody: body,
  errorFrame: (error: OpenAIError) => sseFrame(body(error)),
};
