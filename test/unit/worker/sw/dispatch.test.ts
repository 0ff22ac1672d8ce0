import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../../worker/sw/dispatch';
import type { Route } from '../../../../worker/sw/route';

const ORIGIN = 'https://app.example';
const ok =
  (name: string): Route['handle'] =>
  () =>
    Promise.resolve(new Response(name));
const routes: readonly Route[] = [
  { method: 'POST', path: '/v1/completions', handle: ok('completions') },
  { method: 'GET', path: '/v1/models', handle: ok('models') },
  { method: 'GET', path: '/v1/models/*', handle: ok('model') },
  { method: 'GET', path: (pathname) => pathname === '/chunk.js', handle: ok('chunk') },
];

/** What the handler for `method url` answers, or null when the request goes to the network. */
async function answer(
  method: string,
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: string; allow: string | null } | null> {
  const request = new Request(url, { method, ...init });
  const handle = dispatch(routes, request, ORIGIN, '/v1');
  if (!handle) return null;
  const response = await handle({ request, clientId: 'c' }).catch((error: { toResponse(): Response }) =>
    error.toResponse(),
  );
  return { status: response.status, body: await response.text(), allow: response.headers.get('allow') };
}

describe('dispatch', () => {
  it('answers the routes of the table', async () => {
    expect((await answer('POST', `${ORIGIN}/v1/completions`))?.body).toBe('completions');
    expect((await answer('GET', `${ORIGIN}/v1/models/x`))?.body).toBe('model');
    expect((await answer('GET', `${ORIGIN}/chunk.js`))?.body).toBe('chunk');
  });

  it.each([
    ['GET', '/v1/completions', 'POST'],
    ['PUT', '/v1/completions', 'POST'],
    ['DELETE', '/v1/models', 'GET'],
    ['POST', '/v1/models', 'GET'],
    ['POST', '/v1/models/x', 'GET'],
  ])('%s %s -> 405 OpenAI JSON with Allow: %s', async (method, path, allow) => {
    const got = await answer(method, `${ORIGIN}${path}`);
    expect(got?.status).toBe(405);
    expect(got?.allow).toBe(allow);
    expect(JSON.parse(got?.body ?? '')).toMatchObject({
      error: { type: 'invalid_request_error', code: 'method_not_allowed', param: null },
    });
  });

  it.each(['/v1/nope', '/v1', '/v1/', '/v1/completions/x', '/v1/models/a/b', '/v1/chat/completions'])(
    'POST %s -> 404 OpenAI JSON',
    async (path) => {
      const got = await answer('POST', `${ORIGIN}${path}`);
      expect(got?.status).toBe(404);
      expect(JSON.parse(got?.body ?? '')).toMatchObject({
        error: { type: 'invalid_request_error', code: 'unknown_url' },
      });
    },
  );

  it.each(['/', '/index.html', '/v1x/completions', '/api/v1/completions', '/V1/completions'])(
    'leaves %s to the network',
    async (path) => {
      expect(await answer('GET', `${ORIGIN}${path}`)).toBeNull();
      expect(await answer('POST', `${ORIGIN}${path}`)).toBeNull();
    },
  );

  it('leaves other origins to the network', async () => {
    expect(await answer('POST', 'https://other.example/v1/completions')).toBeNull();
    expect(await answer('GET', 'https://other.example/v1/nope')).toBeNull();
  });
});
