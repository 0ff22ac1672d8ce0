/** Tools -> Gemma 4's tool-call grammar: any dict in Gemma's notation (llama-server's), a strict tool's schema in that notation. */
import { describe, expect, it } from 'vitest';
import { checkGbnf } from '../../../../../src/core/constraints/gbnf-check';
import { gemmaCallGrammar } from '../../../../../src/core/constraints/gemma-call-grammar';
import { readGemmaValue } from '../../../../../src/core/util/gemma-value';
import { gbnfToRegExp } from './gbnf-to-regexp';

const tool = { name: 'get_weather', param: 'tools[0].function.parameters' };

/** A strict tool with no free string (the until-mark rule of one is recursive, so not a RegExp). */
const strict = {
  name: 'book',
  strict: true,
  param: 'tools[0].function.parameters',
  parameters: {
    type: 'object',
    properties: {
      unit: { enum: ['c', 'f'] },
      days: { type: 'integer', minimum: 1, maximum: 7 },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      note: { type: 'string', maxLength: 3 },
      day: { type: 'string', format: 'date' },
      when: { type: 'object', properties: { Hour: { type: 'integer' }, am: { type: 'boolean' } }, required: ['Hour'] },
      tags: { type: 'array', items: { const: 'x' }, maxItems: 2 },
    },
    required: ['unit', 'days'],
  },
};

const call = (args: string) => `<|tool_call>call:book${args}<tool_call|>`;

describe('gemmaCallGrammar', () => {
  it("writes <|tool_call>call:NAME{…}<tool_call|>, any dict in Gemma's notation, lazily from <|tool_call>", () => {
    const { gbnf, trigger } = gemmaCallGrammar({ tools: [tool], parallel: true, lazy: true });
    checkGbnf(gbnf, 'tools');
    expect(trigger).toBe('<|tool_call>');
    expect(gbnf).toContain('root ::= tool-call+\n');
    expect(gbnf).toContain('tool-call ::= "<|tool_call>call:" ( get-weather-call ) "<tool_call|>"\n');
    expect(gbnf).toContain('gemma4-value ::= gemma4-string | gemma4-dict | gemma4-array | number | boolean | null\n');
    expect(gemmaCallGrammar({ tools: [tool], parallel: false, lazy: false }).trigger).toBeNull();
  });

  it("holds a strict tool's arguments to its schema in Gemma's notation: keys bare and in dictsort's order, strings between <|\"|> marks", () => {
    const { gbnf } = gemmaCallGrammar({ tools: [strict], parallel: false, lazy: false });
    checkGbnf(gbnf, 'tools');
    const accepts = gbnfToRegExp(gbnf);
    const good = [
      '{days:3,unit:<|"|>c<|"|>}',
      '{code:<|"|>CDG<|"|>,day:<|"|>2026-12-07<|"|>,days:7,note:<|"|>ab<|"|>,tags:[<|"|>x<|"|>,<|"|>x<|"|>],unit:<|"|>f<|"|>,when:{am:true,Hour:9}}',
      '{days:1,unit:<|"|>c<|"|>,when:{Hour:12}}',
      '{days:2,note:<|"|><|"|>,unit:<|"|>c<|"|>}',
    ];
    for (const args of good) {
      expect(accepts.test(call(args)), args).toBe(true);
      // What the grammar writes, the SW reads: the arguments' JSON.
      const read = readGemmaValue(args, 0, true);
      expect(read === null || read === 'incomplete' ? read : JSON.parse(read.json)).toMatchObject({
        days: expect.any(Number),
      });
    }
    const bad = [
      '{unit:<|"|>c<|"|>,days:3}', // not in key order
      '{days:3}', // unit is required
      '{days:8,unit:<|"|>c<|"|>}', // above the maximum
      '{days:3,unit:<|"|>k<|"|>}', // not in the enum
      '{"days":3,"unit":"c"}', // JSON, not Gemma's notation
      '{days:3,unit:<|"|>c<|"|>,code:<|"|>cdg<|"|>}', // order, and the pattern
      '{code:<|"|>cdg<|"|>,days:3,unit:<|"|>c<|"|>}', // the pattern
      '{days:3,note:<|"|>abcd<|"|>,unit:<|"|>c<|"|>}', // longer than maxLength
      '{days:3,note:<|"|>a<b<|"|>,unit:<|"|>c<|"|>}', // '<' could begin the closing mark
      '{days:3,unit:<|"|>c<|"|>,when:{am:true}}', // Hour is required
      '{days:3,unit:<|"|>c<|"|>,when:{Hour:9,am:true}}', // dictsort's order is case-insensitive
      '{days:3,extra:1,unit:<|"|>c<|"|>}', // no additional properties
    ];
    for (const args of bad) expect(accepts.test(call(args)), args).toBe(false);
  });

  it("an unanchored pattern's open ends leave out '<', which could begin the string's closing mark", () => {
    const parameters = { type: 'object', properties: { a: { type: 'string', pattern: 'x' } }, required: ['a'] };
    const { gbnf } = gemmaCallGrammar({ tools: [{ ...strict, parameters }], parallel: false, lazy: false });
    const accepts = gbnfToRegExp(gbnf);
    expect(accepts.test(call('{a:<|"|>ax"b<|"|>}'))).toBe(true);
    expect(accepts.test(call('{a:<|"|>a<x<|"|>}'))).toBe(false);
    expect(accepts.test(call('{a:<|"|>x<|"|>,b:<|"|>x<|"|>}'))).toBe(false);
  });

  it('a strict tool without parameters takes no arguments; one that is not strict beside it takes any dict', () => {
    const { gbnf } = gemmaCallGrammar({
      tools: [
        { ...tool, strict: true },
        { ...tool, name: 'other' },
      ],
      parallel: false,
      lazy: true,
    });
    checkGbnf(gbnf, 'tools');
    expect(gbnf).toContain('get-weather-call ::= "get_weather" get-weather-args\n');
    expect(gbnf).toContain('get-weather-args ::= "{" space "}" space\n');
    expect(gbnf).toContain('other-call ::= "other" gemma4-dict\n');
  });

  it('a schema that no grammar can hold is a 400 naming where, as in JSON formats', () => {
    const bad = { ...strict, parameters: { type: 'object', properties: { a: { type: 'string', format: 'email' } } } };
    expect(() => gemmaCallGrammar({ tools: [bad], parallel: false, lazy: false })).toThrow(
      expect.objectContaining({ status: 400, param: 'tools[0].function.parameters' }),
    );
  });
});
