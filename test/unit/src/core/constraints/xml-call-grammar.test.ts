/** Tools -> MiniCPM5's XML tool-call grammar: what it accepts, argument orders, CDATA, laziness, errors. */
import { describe, expect, it } from 'vitest';
import { checkGbnf } from '../../../../../src/core/constraints/gbnf-check';
import type { ToolSchema } from '../../../../../src/core/constraints/tool-call-grammar';
import { xmlCallGrammar } from '../../../../../src/core/constraints/xml-call-grammar';
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
      opts: { type: 'object', properties: { metric: { type: 'boolean' } } },
    },
    required: ['city', 'days'],
  },
};
const call = (args: string) => `<function name="get_weather">${args}</function>`;
const arg = (key: string, value: string) => `<param name="${key}">${value}</param>`;

describe('xmlCallGrammar', () => {
  const { gbnf, trigger } = xmlCallGrammar({ tools: [weather], parallel: false, lazy: false });
  const accepts = gbnfToRegExp(gbnf);

  it('takes the required arguments in any order, then optional ones; string values as text or CDATA, others as JSON', () => {
    checkGbnf(gbnf, 'tools');
    expect(trigger).toBeNull();
    expect(accepts.test(call(arg('city', 'New York') + arg('days', '3')))).toBe(true);
    expect(accepts.test(call(arg('days', '7') + arg('city', 'Paris') + arg('opts', '{"metric": true}')))).toBe(true);
    expect(accepts.test(call(arg('city', '<![CDATA[a<b & c\n]]]>') + arg('days', '3')))).toBe(true);
    expect(accepts.test(call(arg('city', '<![CDATA[x]]></param>y]]>') + arg('days', '3')))).toBe(false);
    expect(accepts.test(call(arg('city', 'a<b') + arg('days', '3')))).toBe(false);
    expect(accepts.test(call(arg('city', 'Paris')))).toBe(false);
    expect(accepts.test(call(arg('city', 'Paris') + arg('days', '9')))).toBe(false);
    expect(accepts.test(call(arg('city', 'Paris') + arg('days', '3') + arg('opts', '{"metric": 1}')))).toBe(false);
    expect(accepts.test(call(arg('city', 'Paris') + arg('days', '3') + arg('other', '1')))).toBe(false);
  });

  it("holds a string's text to its enum, pattern, length or format, without '<', '&' or a newline", () => {
    const parameters = {
      type: 'object',
      properties: {
        unit: { enum: ['c', 'f'] },
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
        note: { type: 'string', maxLength: 3 },
        day: { type: 'string', format: 'date' },
      },
    };
    const { gbnf } = xmlCallGrammar({ tools: [{ ...weather, parameters }], parallel: false, lazy: false });
    checkGbnf(gbnf, 'tools');
    const held = gbnfToRegExp(gbnf);
    expect(held.test(call(arg('code', 'CDG') + arg('day', '2026-12-07') + arg('note', 'a b') + arg('unit', 'c')))).toBe(
      true,
    );
    const broken: Array<[string, string]> = [
      ['unit', 'k'],
      ['code', 'cdg'],
      ['note', 'abcd'],
      ['note', 'a<b'],
      ['day', '07/12/2026'],
    ];
    for (const [key, value] of broken) expect(held.test(call(arg(key, value))), `${key}=${value}`).toBe(false);
  });

  it('repeats calls when they may be parallel, and waits for <function when lazy', () => {
    const lazy = xmlCallGrammar({ tools: [weather], parallel: true, lazy: true });
    expect(lazy.trigger).toBe('<function');
    const one = call(arg('city', 'a') + arg('days', '3'));
    expect(gbnfToRegExp(lazy.gbnf).test(`${one}\n${one}`)).toBe(true);
    expect(accepts.test(`${one}${one}`)).toBe(false);
  });

  it("names a strict tool's property a grammar cannot enforce; a tool that is not strict takes text there", () => {
    const bad = { ...weather, parameters: { type: 'object', properties: { n: { type: 'number', not: {} } } } };
    expect(() => xmlCallGrammar({ tools: [bad], parallel: false, lazy: false })).toThrow(InvalidRequestError);
    const loose = xmlCallGrammar({ tools: [{ ...bad, strict: false }], parallel: false, lazy: false });
    checkGbnf(loose.gbnf, 'tools');
    expect(gbnfToRegExp(loose.gbnf).test(call(arg('n', 'anything')))).toBe(true);
  });
});
