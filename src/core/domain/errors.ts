/** The body OpenAI sends with every 4xx/5xx: `{"error":{message,type,param,code}}`. */
export interface OpenAIErrorBody {
  error: {
    message: string;
    type: string;
    param: string | null;
    code: string | null;
  };
}

/** An error as it crosses a message boundary (structured-clone safe). */
export interface WireError {
  status: number;
  body: OpenAIErrorBody;
}

/**
 * The most of an error's message and param that goes out: both may echo user input (a model
 * name, an unknown key), and a 5 MB model name must not make a 5 MB 404.
 */
export const MAX_MESSAGE_LENGTH = 1024;
export const MAX_PARAM_LENGTH = 256;

/** `text` cut to `max` characters, saying how long it was (the one place user input is bounded). */
function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `... (${text.length} characters in all)`;
  const head = text.slice(0, Math.max(0, max - note.length));
  // Never end on half a surrogate pair.
  return head.replace(/[\uD800-\uDBFF]$/, '') + note;
}

/**
 * The one error type of the project: it carries its HTTP status and OpenAI error fields,
 * and turns itself into a response (`toResponse()`) or a wire value (`toWire()`).
 *
 * @example
 * throw new InvalidRequestError("'prompt' is required", 'prompt', 'missing_required_parameter');
 */
export class OpenAIError extends Error {
  override name = 'OpenAIError';

  readonly param: string | null;

  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    param: string | null = null,
    readonly code: string | null = null,
    options?: ErrorOptions,
  ) {
    super(bounded(message, MAX_MESSAGE_LENGTH), options);
    this.param = param === null ? null : bounded(param, MAX_PARAM_LENGTH);
  }

  toBody(): OpenAIErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }

  toWire(): WireError {
    return { status: this.status, body: this.toBody() };
  }

  /** Headers its answer carries besides the body's content type (`Allow` on a 405), in any dialect. */
  headers(): Record<string, string> {
    return {};
  }

  /** The OpenAI-shaped answer (the Service Worker answers through its route's dialect instead). */
  toResponse(headers: Record<string, string> = {}): Response {
    return new Response(JSON.stringify(this.toBody()), {
      status: this.status,
      headers: { 'content-type': 'application/json', ...this.headers(), ...headers },
    });
  }

  /** Rebuilds the error on the other side of a message boundary. */
  static fromWire(wire: WireError): OpenAIError {
    const { message, type, param, code } = wire.body.error;
    return new OpenAIError(wire.status, message, type, param, code);
  }
}

/** 400: the request is malformed or a parameter is invalid or unsupported. */
export class InvalidRequestError extends OpenAIError {
  constructor(message: string, param: string | null = null, code: string | null = 'invalid_value') {
    super(400, message, 'invalid_request_error', param, code);
  }
}

/** 401: a key is required and the request's `Authorization: Bearer` key is missing or wrong. */
export class AuthenticationError extends OpenAIError {
  constructor(message: string) {
    super(401, message, 'invalid_request_error', null, 'invalid_api_key');
  }
}

/** 404: the model (or route) does not exist here. */
export class NotFoundError extends OpenAIError {
  constructor(message: string, param: string | null = null, code: string | null = 'model_not_found') {
    super(404, message, 'invalid_request_error', param, code);
  }
}

/** 403: the caller may not use the endpoint (a page of another origin, a cross-site navigation). */
export class PermissionDeniedError extends OpenAIError {
  constructor(message: string, code: string | null = 'cross_origin_request') {
    super(403, message, 'invalid_request_error', null, code);
  }
}

/** 405: a known path asked with a method it does not take (its answer carries the `Allow` header). */
export class MethodNotAllowedError extends OpenAIError {
  constructor(
    message: string,
    readonly allow: readonly string[],
  ) {
    super(405, message, 'invalid_request_error', null, 'method_not_allowed');
  }

  override headers(): Record<string, string> {
    return { allow: this.allow.join(', ') };
  }
}

/** 415: a body that is not `application/json` where only JSON can be trusted (a form post). */
export class UnsupportedMediaTypeError extends OpenAIError {
  constructor(message: string) {
    super(415, message, 'invalid_request_error', null, 'unsupported_media_type');
  }
}

/** 503: no engine can serve the request (not loaded, loading failed, no page owns one). */
export class ServiceUnavailableError extends OpenAIError {
  constructor(message: string, code: string | null = 'engine_unavailable', options?: ErrorOptions) {
    super(503, message, 'server_error', null, code, options);
  }
}

/** 501: a feature this runtime does not offer for the request's target (llama-server's `not_supported_error`). */
export class NotSupportedError extends OpenAIError {
  constructor(message: string, code: string | null = 'not_supported') {
    super(501, message, 'not_supported_error', null, code);
  }
}

/** 500: a bug or an engine failure with no better mapping. */
export class InternalServerError extends OpenAIError {
  constructor(message: string, code: string | null = 'internal_error', options?: ErrorOptions) {
    super(500, message, 'server_error', null, code, options);
  }
}

/**
 * Maps anything thrown to an `OpenAIError`. An unknown error becomes a 500 that keeps it as its
 * `cause`, and is logged once, here (it is a bug or an engine failure nobody mapped).
 */
export function toOpenAIError(error: unknown): OpenAIError {
  if (error instanceof OpenAIError) return error;
  const message = error instanceof Error ? error.message : String(error);
  console.error('[inpage-llm] unexpected error:', error);
  return new InternalServerError(message || 'Internal error', 'internal_error', { cause: error });
}

/** Type guard for a structured-cloned `WireError`. */
export function isWireError(value: unknown): value is WireError {
  if (typeof value !== 'object' || value === null) return false;
  const body: unknown = Reflect.get(value, 'body');
  if (typeof Reflect.get(value, 'status') !== 'number' || typeof body !== 'object' || body === null) return false;
  const error: unknown = Reflect.get(body, 'error');
  return typeof error === 'object' && error !== null && typeof Reflect.get(error, 'message') === 'string';
}
