/** Python literals (and JSON) read as JSON text, as LFM2's tool calls write their values. */
import { describe, expect, it } from 'vitest';
import { readPythonValue } from '../../../../../src/core/util/python-literal';

describe('readPythonValue', () => {
  it.each([
    ["'Paris'", '"Paris"'],
    ['"Paris"', '"Paris"'],
    ["'it\\'s \"q\"\\n\\t\\u00e9\\x41'", '"it\'s \\"q\\"\\n\\téA"'],
    ["'a\\dz'", '"a\\\\dz"'],
    ['3', '3'],
    ['-2.50', '-2.50'],
    ['1_000', '1000'],
    ['1.', '1'],
    ['.5', '0.5'],
    ['True', 'true'],
    ['None', 'null'],
    ['false', 'false'],
    ['{\'a\': [1, (2, 3)], "b": {}}', '{"a":[1,[2,3]],"b":{}}'],
    ['[1, 2, ]', '[1,2]'],
  ])('%s -> %s', (text, json) => {
    expect(readPythonValue(`${text})`, 0, false)).toStrictEqual({ json, end: text.length });
  });

  it('waits where the text ends inside a value, and has none for text that is no value', () => {
    for (const text of ["'Par", '3', '1e', '[1, ', "{'a'", 'Tr', '-'])
      expect(readPythonValue(text, 0, false)).toBe('incomplete');
    expect(readPythonValue('3', 0, true)).toStrictEqual({ json: '3', end: 1 });
    for (const text of ['Trux)', '<x>', '{1: 2}', '[1 2]']) expect(readPythonValue(text, 0, false)).toBeNull();
  });
});
