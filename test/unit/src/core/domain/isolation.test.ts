import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { isolationHeaders, isolationOf, readIsolation, withIsolation } from '../../../../../src/core/domain/isolation';
import { withRoutePrefix, routePrefixOf } from '../../../../../src/core/domain/route-prefix';

describe('isolation modes', () => {
  it('ride on the SW script URL beside the route prefix, and come off it', () => {
    const base = 'https://app.example/page';
    const url = withIsolation(withRoutePrefix('/sw.js', '/api/v1', base), 'credentialless');
    expect(url).toBe('https://app.example/sw.js?prefix=%2Fapi%2Fv1&isolate=credentialless');
    expect(isolationOf(url)).toBe('credentialless');
    expect(routePrefixOf(url)).toBe('/api/v1');
    expect(isolationOf(withIsolation(url, null))).toBeNull();
    expect(withIsolation('https://app.example/sw.js', null)).toBe('https://app.example/sw.js');
  });

  it('a value that is not a mode is no isolation in the SW, and a 400 naming the field on the page', () => {
    expect(isolationOf('https://app.example/sw.js?isolate=yes')).toBeNull();
    expect(() => readIsolation('yes', 'isolate')).toThrow(InvalidRequestError);
    expect(() => readIsolation(true, 'isolate')).toThrow(/isolate: true is not an isolation mode/);
    expect(readIsolation('require-corp', 'isolate')).toBe('require-corp');
  });

  it('are the two headers of a cross-origin isolated document', () => {
    expect(isolationHeaders('require-corp')).toEqual({
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    });
  });
});
