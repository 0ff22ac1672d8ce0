/**
 * Errors and keys per API dialect: a route answers what its handler throws in its own dialect's
 * JSON, an unknown path or wrong method in the dialect of the nearest route (else OpenAI's), and
 * the key is read from the dialect's header.
 */
import { describe, expect, it } from 'vitest';
import { InvalidRequestError, type OpenAIError } from '#core/domain/errors';
import type { Dialect } from '../../../../../worker/sw/dialect/dialect';
import { OPENAI_DIALECT } from '../../../../../worker/sw/dialect/openai-dialect';
import { dispatch } from '../../../../../worker/sw/dispatch';
import { checkApiKey } from '../../../../../worker/sw/check-api-key';
import type { Route } from '../../../../../worker/sw/route';

const ORIGIN = 'https://app.example';

/** A made-up second dialect: its own key header and error shape. */
const OTHER: Dialect = {
  name: 'other',
  apiKeyOf: (request) => request.headers.get('x-api-key') ?? undefined,
  missingKey: 'Send x-api-key.',
  errorBody: (error: OpenAIError) => ({ type: 'error', error: { type: error.type, message: error.message } }),
  errorFrame: () => new Uint8Array(),
};

const failing: Route['handle'] = () => Promise.reject(new InvalidRequestError('bad', 'x'));
const routes: readonly Route[] = [
  { method: 'POST', path: '/v1/completions', handle: failing },
  { method: 'POST', path: '/v1/other', dialect: OTHER, handle: failing },
  { method: 'POST', path: '/beside', dialect: OTHER, handle: () => Promise.resolve(new Response('beside')) },
  { method: 'GET', path: '/asset.js', handle: () => Promise.resolve(new Response('asset')) },
];

async function answer(method: string, path: string): Promise<{ status: number; body: unknown }> {
  const request = new Request(`${ORIGIN}${path}`, { method });
  const handle = dispatch(routes, request, ORIGIN, '/v1');
  if (!handle) throw new Error('not routed');
  const response = await handle({ request, clientId: 'c' });
  return { status: response.status, body: await response.json() };
}

describe('dialects', () => {
  it("answers a handler's error in its route's dialect", async () => {
    expect(await answer('POST', '/v1/completions')).toEqual({
      status: 400,
      body: { error: { message: 'bad', type: 'invalid_request_error', param: 'x', code: 'invalid_value' } },
    });
    expect(await answer('POST', '/v1/other')).toEqual({
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } },
    });
  });

  it('answers an unknown path below a route, or a wrong method, in that route’s dialect', async () => {
    expect(await answer('POST', '/v1/other/more')).toMatchObject({ status: 404, body: { type: 'error' } });
    expect(await answer('GET', '/v1/other')).toMatchObject({ status: 405, body: { type: 'error' } });
    expect(await answer('POST', '/v1/nope')).toMatchObject({ status: 404, body: { error: { code: 'unknown_url' } } });
  });

  it('answers a dialect route beside the prefix as the endpoint: its caller checked, a wrong method its 405', async () => {
    expect(await answer('GET', '/beside')).toMatchObject({ status: 405, body: { type: 'error' } });
    const request = (headers: Record<string, string>) => new Request(`${ORIGIN}/beside`, { method: 'POST', headers });
    const handled = async (headers: Record<string, string>) => {
      const got = request(headers);
      const response = await dispatch(routes, got, ORIGIN, '/v1')?.({ request: got, clientId: 'c' });
      return response?.status;
    };
    expect(await handled({})).toBe(200);
    expect(await handled({ 'sec-fetch-site': 'cross-site' })).toBe(403);
    // A route without a dialect outside the prefix is a static asset: no caller check.
    const asset = new Request(`${ORIGIN}/asset.js`, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect((await dispatch(routes, asset, ORIGIN, '/v1')?.({ request: asset, clientId: 'c' }))?.status).toBe(200);
    expect(dispatch(routes, new Request(`${ORIGIN}/elsewhere`, { method: 'POST' }), ORIGIN, '/v1')).toBeUndefined();
  });

  it("reads the key from the dialect's header", () => {
    const withKey = (headers: Record<string, string>) => new Request(`${ORIGIN}/v1/other`, { headers });
    expect(() => checkApiKey(withKey({ 'x-api-key': 'k' }), 'k', OTHER)).not.toThrow();
    expect(() => checkApiKey(withKey({ authorization: 'Bearer k' }), 'k', OTHER)).toThrow('Send x-api-key.');
    expect(() => checkApiKey(withKey({ authorization: 'Bearer k' }), 'k', OPENAI_DIALECT)).not.toThrow();
    expect(() => checkApiKey(withKey({ 'x-api-key': 'k' }), 'k', OPENAI_DIALECT)).toThrow('Authorization header');
    expect(() => checkApiKey(withKey({ authorization: 'Bearer no' }), 'k', OPENAI_DIALECT)).toThrow('Incorrect');
  });
});

describe("llama-server's dialect", () => {
  it('writes its error types by status: 404 not_found_error, 503 unavailable_error', async () => {
    const { LLAMA_SERVER_DIALECT } = await import('../../../../../worker/sw/dialect/llama-server-dialect');
    const { NotFoundError, ServiceUnavailableError } = await import('#core/domain/errors');
    expect(LLAMA_SERVER_DIALECT.errorBody(new NotFoundError('Stream not found or expired'))).toEqual({
      error: { code: 404, message: 'Stream not found or expired', type: 'not_found_error' },
    });
    expect(LLAMA_SERVER_DIALECT.errorBody(new InvalidRequestError('bad', 'x'))).toEqual({
      error: { code: 400, message: 'bad', type: 'invalid_request_error' },
    });
    expect(
      (LLAMA_SERVER_DIALECT.errorBody(new ServiceUnavailableError('Loading model')) as { error: object }).error,
    ).toMatchObject({
      code: 503,
      type: 'unavailable_error',
    });
  });
});
