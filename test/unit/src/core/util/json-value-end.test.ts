import { describe, expect, it } from 'vitest';
import { jsonValueEnd } from '../../../../../src/core/util/json-value-end';

describe('jsonValueEnd', () => {
  it('finds the bracket that closes the value at start, past brackets and escapes in strings', () => {
    expect(jsonValueEnd('x {"a": "}"} y', 2)).toBe(12);
    expect(jsonValueEnd('[{"a": [1, "\\"]"]}], 2', 0)).toBe(19);
  });

  it('is -1 where the text ends first', () => {
    expect(jsonValueEnd('{"a": {"b": 1}', 0)).toBe(-1);
    expect(jsonValueEnd('{"a": "}', 0)).toBe(-1);
  });
});
