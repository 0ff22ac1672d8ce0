/**
 * Anthropic's dialect: the key from `x-api-key` or `Authorization: Bearer`, the error type by
 * status as Anthropic documents it, and the `event: error` frame that ends a failed stream.
 */
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  InternalServerError,
  InvalidRequestError,
  MethodNotAllowedError,
  NotFoundError,
  OpenAIError,
  PermissionDeniedError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
} from '#core/domain/errors';
import { ANTHROPIC_DIALECT, anthropicErrorType } from '../../../../../worker/sw/dialect/anthropic-dialect';
import { errorResponse } from '../../../../../worker/sw/dialect/dialect';
import { checkApiKey } from '../../../../../worker/sw/check-api-key';

const withHeaders = (headers: Record<string, string>) => new Request('https://app.example/v1/messages', { headers });

describe('the Anthropic dialect', () => {
  it('reads the key from x-api-key or Authorization: Bearer', () => {
    expect(ANTHROPIC_DIALECT.apiKeyOf(withHeaders({ 'x-api-key': 'k1' }))).toBe('k1');
    expect(ANTHROPIC_DIALECT.apiKeyOf(withHeaders({ authorization: 'Bearer k2' }))).toBe('k2');
    expect(ANTHROPIC_DIALECT.apiKeyOf(withHeaders({ 'x-api-key': 'k1', authorization: 'Bearer k2' }))).toBe('k1');
    expect(ANTHROPIC_DIALECT.apiKeyOf(withHeaders({}))).toBeUndefined();
    expect(() => checkApiKey(withHeaders({ 'x-api-key': 'k' }), 'k', ANTHROPIC_DIALECT)).not.toThrow();
    expect(() => checkApiKey(withHeaders({ authorization: 'Bearer k' }), 'k', ANTHROPIC_DIALECT)).not.toThrow();
    expect(() => checkApiKey(withHeaders({}), 'k', ANTHROPIC_DIALECT)).toThrow('x-api-key');
    expect(() => checkApiKey(withHeaders({ 'x-api-key': 'no' }), 'k', ANTHROPIC_DIALECT)).toThrow('Incorrect');
  });

  it.each([
    [new InvalidRequestError('bad'), 400, 'invalid_request_error'],
    [new AuthenticationError('no key'), 401, 'authentication_error'],
    [new PermissionDeniedError('cross'), 403, 'permission_error'],
    [new NotFoundError('no model'), 404, 'not_found_error'],
    [new MethodNotAllowedError('GET', ['POST']), 405, 'invalid_request_error'],
    [new OpenAIError(413, 'big', 'invalid_request_error'), 413, 'request_too_large'],
    [new UnsupportedMediaTypeError('form'), 415, 'invalid_request_error'],
    [new OpenAIError(429, 'slow', 'rate_limit_error'), 429, 'rate_limit_error'],
    [new InternalServerError('bug'), 500, 'api_error'],
    [new ServiceUnavailableError('no engine'), 503, 'overloaded_error'],
    [new OpenAIError(529, 'busy', 'server_error'), 529, 'overloaded_error'],
  ])('%s -> %i %s', async (error, status, type) => {
    const response = errorResponse(ANTHROPIC_DIALECT, error);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ type: 'error', error: { type, message: error.message } });
    expect(anthropicErrorType(status)).toBe(type);
  });

  it('keeps the Allow header of a 405', () => {
    expect(errorResponse(ANTHROPIC_DIALECT, new MethodNotAllowedError('x', ['POST'])).headers.get('allow')).toBe(
      'POST',
    );
  });

  it('ends a failed stream with an `event: error` frame', () => {
    const frame = new TextDecoder().decode(ANTHROPIC_DIALECT.errorFrame(new ServiceUnavailableError('gone')));
    expect(frame).toBe('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"gone"}}\n\n');
  });
});
