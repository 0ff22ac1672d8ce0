/** Gemma 4's tool-call notation read as JSON text, as llama-server's Gemma 4 parser reads a call's arguments. */
import { describe, expect, it } from 'vitest';
import { readGemmaValue, writeGemmaValue } from '../../../../../src/core/util/gemma-value';

describe('readGemmaValue', () => {
  it.each([
    ['<|"|>Paris, "FR"<|"|>', '"Paris, \\"FR\\""'],
    ['{city:<|"|>Paris<|"|>,days:3}', '{"city":"Paris","days":3}'],
    ['{ a: {b:true, c:null}, d:[-1.5e3, <|"|>x<|"|>] }', '{"a":{"b":true,"c":null},"d":[-1.5e3,"x"]}'],
    ['{}', '{}'],
    ['[]', '[]'],
  ])('%s -> %s', (text, json) => {
    expect(readGemmaValue(`${text}<tool_call|>`, 0, false)).toStrictEqual({ json, end: text.length });
  });

  it('waits where the text ends inside a value, and has none for text that is no value', () => {
    for (const text of ['<|"|>Par', '<|"', '{n:3', '{a:tru', '{a:', '12'])
      expect(readGemmaValue(text, 0, false)).toBe('incomplete');
    expect(readGemmaValue('12', 0, true)).toStrictEqual({ json: '12', end: 2 });
    for (const text of ['{a:x}', 'oops', '{a}']) expect(readGemmaValue(text, 0, false)).toBeNull();
  });

  it("writes JSON data as the template writes it (keys bare, in dictsort's order, no spaces), read back to the same", () => {
    const value = { days: [3, -1.5], city: 'Paris', Zone: null, ok: true, at: { b: 'x y', a: [] } };
    const text = writeGemmaValue(value);
    expect(text).toBe('{at:{a:[],b:<|"|>x y<|"|>},city:<|"|>Paris<|"|>,days:[3,-1.5],ok:true,Zone:null}');
    const read = readGemmaValue(text, 0, true);
    expect(read === null || read === 'incomplete' ? read : JSON.parse(read.json)).toStrictEqual(value);
  });
});
