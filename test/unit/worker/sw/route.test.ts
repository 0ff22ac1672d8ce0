import { describe, expect, it } from 'vitest';
import { findRoute } from '../../../../worker/sw/route';
import type { Route } from '../../../../worker/sw/route';

const ORIGIN = 'https://app.example';

/** A handler that must never run: findRoute only picks a route. */
const never: Route['handle'] = () => Promise.reject(new Error('handler must not be called'));

const completions: Route = { method: 'POST', path: '/v1/completions', handle: never };
const models: Route = { method: 'GET', path: '/v1/models', handle: never };
const routes: readonly Route[] = [models, completions];

const request = (method: string, url: string): Request => new Request(url, { method });

describe('findRoute', () => {
  it('matches the exact method and path on the same origin', () => {
    expect(findRoute(routes, request('POST', `${ORIGIN}/v1/completions`), ORIGIN)).toBe(completions);
    expect(findRoute(routes, request('GET', `${ORIGIN}/v1/models`), ORIGIN)).toBe(models);
  });

  it('ignores the query string and fragment', () => {
    expect(findRoute(routes, request('POST', `${ORIGIN}/v1/completions?x=1#f`), ORIGIN)).toBe(completions);
  });

  it.each([
    ['GET', '/v1/completions'],
    ['PUT', '/v1/completions'],
    ['OPTIONS', '/v1/completions'],
    ['POST', '/v1/models'],
  ])('rejects another method: %s %s', (method, path) => {
    expect(findRoute(routes, request(method, `${ORIGIN}${path}`), ORIGIN)).toBeUndefined();
  });

  it.each([
    '/v1/completions/x',
    '/v1/completions/',
    '/v1/chat/completions',
    '/v1',
    '/',
    '/V1/completions',
    '/app/v1/completions',
  ])('rejects another path: %s', (path) => {
    expect(findRoute(routes, request('POST', `${ORIGIN}${path}`), ORIGIN)).toBeUndefined();
  });

  it.each(['https://other.example', 'http://app.example', 'https://app.example:8443', 'https://api.app.example'])(
    'rejects another origin: %s',
    (origin) => {
      expect(findRoute(routes, request('POST', `${origin}/v1/completions`), ORIGIN)).toBeUndefined();
    },
  );

  it('returns undefined with no routes', () => {
    expect(findRoute([], request('POST', `${ORIGIN}/v1/completions`), ORIGIN)).toBeUndefined();
  });

  it('returns the first of two routes with the same method and path', () => {
    const shadow: Route = { method: 'POST', path: '/v1/completions', handle: never };
    expect(findRoute([completions, shadow], request('POST', `${ORIGIN}/v1/completions`), ORIGIN)).toBe(completions);
  });
});

describe('findRoute with a one-segment wildcard', () => {
  const model: Route = { method: 'GET', path: '/v1/models/*', handle: never };
  const all = [models, model];

  it('matches exactly one more non-empty segment', () => {
    expect(findRoute(all, request('GET', `${ORIGIN}/v1/models/inpage-test`), ORIGIN)).toBe(model);
    expect(findRoute(all, request('GET', `${ORIGIN}/v1/models/a%2Fb`), ORIGIN)).toBe(model);
    expect(findRoute(all, request('GET', `${ORIGIN}/v1/models`), ORIGIN)).toBe(models);
  });

  it('does not match an empty or a deeper path, nor another prefix', () => {
    for (const path of ['/v1/models/', '/v1/models/a/b', '/v1/modelsx/a', '/v2/models/a']) {
      expect(findRoute([model], request('GET', `${ORIGIN}${path}`), ORIGIN)).toBeUndefined();
    }
  });
});
