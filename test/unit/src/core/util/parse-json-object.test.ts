import { describe, expect, it } from 'vitest';
import { parseJsonObject } from '../../../../../src/core/util/parse-json-object';

describe('parseJsonObject', () => {
  it('reads a JSON object, and nothing else', () => {
    expect(parseJsonObject('{"a": [1]}')).toStrictEqual({ a: [1] });
    expect(parseJsonObject('[1]')).toBeNull();
    expect(parseJsonObject('null')).toBeNull();
    expect(parseJsonObject('{"a": ')).toBeNull();
  });
});
