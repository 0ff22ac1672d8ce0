/** Tools -> the Python-style (LFM2, LFM2.5) tool-call grammar: what it accepts, argument orders, laziness, errors. */
import { describe, expect, it } from 'vitest';
import { checkGbnf } from '../../../../../src/core/constraints/gbnf-check';
import { pythonCallGrammar } from '../../../../../src/core/constraints/python-call-grammar';
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
      city: { type: 'string', description: 'The city.' },
      days: { type: 'integer', minimum: 3, maximum: 7 },
      unit: { enum: ['c', 'f'] },
    },
    required: ['city', 'days'],
  },
};
const noop: ToolSchema = { name: 'noop', strict: true, param: 'tools[1].function.parameters' };
const list = (calls: string) => `<|tool_call_start|>[${calls}]<|tool_call_end|>`;

describe('pythonCallGrammar', () => {
  const { gbnf, trigger } = pythonCallGrammar({ tools: [weather, noop], parallel: false, lazy: false });
  const accepts = gbnfToRegExp(gbnf);

  it('takes the required arguments in any order, then optional ones; a plain string in either quotes, others as JSON', () => {
    checkGbnf(gbnf, 'tools');
    expect(trigger).toBeNull();
    expect(accepts.test(list("get_weather(city='New York', days=3)"))).toBe(true);
    expect(accepts.test(list('get_weather(days=7, city="Paris", unit="c")'))).toBe(true);
    expect(accepts.test(list("get_weather(city='it\\'s', days=3)"))).toBe(true);
    expect(accepts.test(list('noop()'))).toBe(true);
    expect(accepts.test(list("get_weather(city='Paris')"))).toBe(false);
    expect(accepts.test(list("get_weather(city='Paris', days=9)"))).toBe(false);
    expect(accepts.test(list("get_weather(city='Paris', days=3, unit='k')"))).toBe(false);
    expect(accepts.test(list("get_weather(city='Paris', days=3, other=1)"))).toBe(false);
    expect(accepts.test(list("noop(), get_weather(city='a', days=3)"))).toBe(false);
    expect(accepts.test(`x${list('noop()')}`)).toBe(false);
  });

  it('lists several calls when they may be parallel, and waits for <|tool_call_start|> when lazy', () => {
    const lazy = pythonCallGrammar({ tools: [weather, noop], parallel: true, lazy: true });
    expect(lazy.trigger).toBe('<|tool_call_start|>');
    expect(gbnfToRegExp(lazy.gbnf).test(list("noop(), get_weather(city='a', days=3), noop()"))).toBe(true);
  });

  it("names a strict tool's property a grammar cannot enforce; a tool that is not strict takes any value there", () => {
    const bad = { ...weather, parameters: { type: 'object', properties: { n: { type: 'number', not: {} } } } };
    expect(() => pythonCallGrammar({ tools: [bad], parallel: false, lazy: false })).toThrow(InvalidRequestError);
    const loose = pythonCallGrammar({ tools: [{ ...bad, strict: false }], parallel: false, lazy: false });
    checkGbnf(loose.gbnf, 'tools');
    // Any value: a string in either quotes, or any JSON (recursive, so read here rather than run).
    expect(loose.gbnf).toContain('get-weather-arg-n ::= "n=" python-value\n');
    expect(loose.gbnf).toContain('python-value ::= python-string | value\n');
  });
});
