/**
 * Anthropic's dialect (the Messages API): the key comes in `x-api-key` (what `@ai-sdk/anthropic`
 * sends) or `Authorization: Bearer` (what the Anthropic SDK sends with `apiKey` or `authToken`);
 * errors are `{"type":"error","error":{type,message}}` with Anthropic's error type for the
 * status; a failed stream ends with `event: error` and that object as its `data:`.
 */
import type { OpenAIError } from '#core/domain/errors';
import { sseFrame } from '../sse';
import type { Dialect } from './dialect';

/** Anthropic's error types by HTTP status (docs.claude.com/en/api/errors); other 4xx are `invalid_request_error`. */
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
  529: 'overloaded_error',
};

/** The Anthropic error type of an HTTP status. */
export function anthropicErrorType(status: number): string {
  return ERROR_TYPES[status] ?? (status < 500 ? 'invalid_request_error' : 'api_error');
}

/** The body Anthropic sends with every error. */
export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
}

export function anthropicErrorBody(error: OpenAIError): AnthropicErrorBody {
  return { type: 'error', error: { type: anthropicErrorType(error.status), message: error.message } };
}

function apiKeyOf(request: Request): string | undefined {
  const key = request.headers.get('x-api-key');
  if (key !== null && key !== '') return key;
  return /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
}

export const ANTHROPIC_DIALECT: Dialect = {
  name: 'anthropic',
  apiKeyOf,
  missingKey: 'x-api-key header is required (or an Authorization: Bearer header).',
  errorBody: anthropicErrorBody,
  errorFrame: (error: OpenAIError) => sseFrame(anthropicErrorBody(error), 'error'),
};
