/** Tools -> the tagged (Qwen3-Coder, Qwen3.5) tool-call grammar: what it accepts, argument orders, laziness, errors. */
import { describe, expect, it } from 'vitest';
import { checkGbnf } from '../../../../../src/core/constraints/gbnf-check';
import { taggedCallGrammar } from '../../../../../src/core/constraints/tagged-call-grammar';
import type { ToolSchema } from '../../../../../src/core/constraints/tool-call-grammar';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { gbnfToRegExp } from './gbnf-to-regexp';

const weather: ToolSchema = {
  name: 'get_weather',
  strict: true,
  param: 'tools[0].function.parameters',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      days: { type: 'integer', minimum: 3, maximum: 7 },
      unit: { enum: ['c', 'f'] },
    },
    required: ['city', 'days'],
  },
};
const call = (args: string) => `<tool_call>\n<function=get_weather>\n${args}</function>\n</tool_call>`;
const arg = (key: string, value: string) => `<parameter=${key}>\n${value}\n</parameter>\n`;

describe('taggedCallGrammar', () => {
  const { gbnf, trigger } = taggedCallGrammar({ tools: [weather], parallel: false, lazy: false });
  const accepts = gbnfToRegExp(gbnf);

  it('takes the required arguments in any order, then optional ones; string values as text, others as JSON', () => {
    checkGbnf(gbnf, 'tools');
    expect(trigger).toBeNull();
    expect(accepts.test(call(arg('city', 'New York') + arg('days', '3')))).toBe(true);
    expect(accepts.test(call(arg('days', '7') + arg('city', 'Paris') + arg('unit', 'c')))).toBe(true);
    expect(accepts.test(call(arg('city', 'two\nlines') + arg('days', '3')))).toBe(true);
    expect(accepts.test(call(arg('city', 'Paris')))).toBe(false);
    expect(accepts.test(call(arg('city', 'Paris') + arg('days', '9')))).toBe(false);
    expect(accepts.test(call(arg('city', 'Paris') + arg('days', '3') + arg('other', '1')))).toBe(false);
    expect(accepts.test(`x${call(arg('city', 'Paris') + arg('days', '3'))}`)).toBe(false);
  });

  it("holds a string's text to its enum, pattern, length or format, on one line", () => {
    const parameters = {
      type: 'object',
      properties: {
        unit: { enum: ['c', 'f'] },
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
        note: { type: 'string', maxLength: 3 },
        day: { type: 'string', format: 'date' },
      },
    };
    const { gbnf } = taggedCallGrammar({ tools: [{ ...weather, parameters }], parallel: false, lazy: false });
    checkGbnf(gbnf, 'tools');
    const held = gbnfToRegExp(gbnf);
    const args = arg('code', 'CDG') + arg('day', '2026-12-07') + arg('note', 'a<b') + arg('unit', 'c');
    expect(held.test(call(args))).toBe(true);
    const broken: Array<[string, string]> = [
      ['unit', 'k'],
      ['unit', '"c"'],
      ['code', 'cdg'],
      ['note', 'abcd'],
      ['note', 'a\nb'],
      ['day', '07/12/2026'],
    ];
    for (const [key, value] of broken) expect(held.test(call(arg(key, value))), `${key}=${value}`).toBe(false);
  });

  it('repeats calls when they may be parallel, and waits for <tool_call> when lazy', () => {
    const lazy = taggedCallGrammar({ tools: [weather], parallel: true, lazy: true });
    expect(lazy.trigger).toBe('<tool_call>');
    const one = call(arg('city', 'a') + arg('days', '3'));
    expect(gbnfToRegExp(lazy.gbnf).test(`${one}\n${one}`)).toBe(true);
  });

  it("names a strict tool's property a grammar cannot enforce; a tool that is not strict takes text there", () => {
    const bad = { ...weather, parameters: { type: 'object', properties: { n: { type: 'number', not: {} } } } };
    expect(() => taggedCallGrammar({ tools: [bad], parallel: false, lazy: false })).toThrow(InvalidRequestError);
    const loose = taggedCallGrammar({ tools: [{ ...bad, strict: false }], parallel: false, lazy: false });
    checkGbnf(loose.gbnf, 'tools');
    expect(gbnfToRegExp(loose.gbnf).test(call(arg('n', 'anything')))).toBe(true);
  });

  it("resolves a property's $ref in the tool's parameters", () => {
    const parameters = {
      type: 'object',
      $defs: { count: { type: 'integer', minimum: 1, maximum: 2 } },
      properties: { n: { $ref: '#/$defs/count' } },
      required: ['n'],
    };
    const refs = taggedCallGrammar({ tools: [{ ...weather, parameters }], parallel: false, lazy: false });
    checkGbnf(refs.gbnf, 'tools');
    expect(gbnfToRegExp(refs.gbnf).test(call(arg('n', '2')))).toBe(true);
    expect(gbnfToRegExp(refs.gbnf).test(call(arg('n', '3')))).toBe(false);
  });

  it('writes a $ref to a string as text held to its target (it was its JSON, in quotes), and any value as JSON or text', () => {
    const parameters = {
      type: 'object',
      $defs: { unit: { enum: ['c', 'f'] } },
      properties: { unit: { $ref: '#/$defs/unit' }, any: {} },
      required: ['unit'],
    };
    const { gbnf } = taggedCallGrammar({ tools: [{ ...weather, parameters }], parallel: false, lazy: false });
    checkGbnf(gbnf, 'tools');
    const held = gbnfToRegExp(gbnf);
    expect(held.test(call(arg('unit', 'c')))).toBe(true);
    expect(held.test(call(arg('unit', '"c"')))).toBe(false);
    // Any value allows a string (llama-server's value types): any text.
    expect(held.test(call(arg('unit', 'f') + arg('any', 'some text')))).toBe(true);
  });
});
