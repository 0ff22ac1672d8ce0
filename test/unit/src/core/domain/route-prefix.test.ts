import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import {
  DEFAULT_ROUTE_PREFIX,
  normalizeRoutePrefix,
  prefixParent,
  routePrefixOf,
  withRoutePrefix,
} from '../../../../../src/core/domain/route-prefix';

describe('route prefix', () => {
  it('normalises to an absolute path without a trailing slash', () => {
    expect(normalizeRoutePrefix('v1')).toBe('/v1');
    expect(normalizeRoutePrefix('/api/v1/')).toBe('/api/v1');
    expect(normalizeRoutePrefix(' //llm// ')).toBe('/llm');
  });

  it('refuses what is not a plain path', () => {
    for (const bad of ['', '/', '/a b', '/a?b', '/a#b', '/ä'])
      expect(() => normalizeRoutePrefix(bad)).toThrow(InvalidRequestError);
  });

  it('travels in the Service Worker URL, and only when it is not the default', () => {
    const base = 'https://app.example/page/';
    expect(withRoutePrefix('/sw.js', DEFAULT_ROUTE_PREFIX, base)).toBe('https://app.example/sw.js');
    const custom = withRoutePrefix('sw.js?x=1', '/api/v1', base);
    expect(custom).toBe('https://app.example/page/sw.js?x=1&prefix=%2Fapi%2Fv1');
    expect(routePrefixOf(custom)).toBe('/api/v1');
    expect(routePrefixOf('https://app.example/sw.js')).toBe('/v1');
    expect(routePrefixOf(withRoutePrefix(custom, '/v1', base))).toBe('/v1');
  });

  it("names the prefix's parent, where llama-server's routes sit", () => {
    expect(prefixParent('/v1')).toBe('');
    expect(prefixParent('/api/v1')).toBe('/api');
  });
});
