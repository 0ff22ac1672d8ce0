/**
 * An API dialect: how its requests carry the API key, and how its errors look, as a JSON answer
 * and as the frame that ends a stream. Every route names its dialect; one error class hierarchy
 * (`OpenAIError`: status, type, code, param) is mapped to each dialect's JSON here, so a second
 * dialect (Anthropic's) is one more object, not a second error path.
 */
import type { OpenAIError } from '#core/domain/errors';

export interface Dialect {
  readonly name: string;
  /** The key the request carries in this dialect's header(s); undefined when it carries none. */
  apiKeyOf(request: Request): string | undefined;
  /** The 401's message when a key is required and the request carries none. */
  readonly missingKey: string;
  /** The JSON body of an error answer. */
  errorBody(error: OpenAIError): unknown;
  /** The bytes that end a stream with `error` (after them the stream closes). */
  errorFrame(error: OpenAIError): Uint8Array;
}

/** The answer to `error` in `dialect`: its status, the dialect's JSON, and the error's own headers (`Allow`). */
export function errorResponse(dialect: Dialect, error: OpenAIError): Response {
  return new Response(JSON.stringify(dialect.errorBody(error)), {
    status: error.status,
    headers: { 'content-type': 'application/json', ...error.headers() },
  });
}
