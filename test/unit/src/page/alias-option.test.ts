import { describe, expect, it } from 'vitest';
import { paramOf } from './refused-param';
import type { ModelSpec } from '../../../../src/core/domain/model-spec';
import { withAliases } from '../../../../src/page/alias-option';

const MODEL: ModelSpec = { id: 'm', backend: 'llamacpp', source: { kind: 'builtin' } };

describe('withAliases', () => {
  it("puts the names on the model's spec, once each, without its id", () => {
    expect(withAliases(MODEL, 'a').aliases).toEqual(['a']);
    expect(withAliases(MODEL, ['a', 'm', 'b', 'a']).aliases).toEqual(['a', 'b']);
    expect(withAliases(MODEL, ['m'])).toBe(MODEL);
    expect(withAliases(MODEL, [])).toBe(MODEL);
  });

  it("refuses anything but non-empty strings with a 400 naming 'alias'", () => {
    for (const bad of ['', [''], [1], {}, null, ['a', undefined]])
      expect(paramOf(() => withAliases(MODEL, bad))).toBe('alias');
  });
});
