/** Strict tools -> the Hermes/Qwen tool-call grammar: what it accepts, laziness, parallel calls, errors. */
import { describe, expect, it } from 'vitest';
import { checkGbnf } from '../../../../../src/core/constraints/gbnf-check';
import { toolCallGrammar, type ToolSchema } from '../../../../../src/core/constraints/tool-call-grammar';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { gbnfToRegExp } from './gbnf-to-regexp';

const weather: ToolSchema = {
  name: 'get_weather',
  strict: true,
  param: 'tools[0].function.parameters',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', maxLength: 5 }, unit: { enum: ['c', 'f'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
};
const time: ToolSchema = { name: 'get-time', strict: true, param: 'tools[1].function.parameters' };

const call = (name: string, args: string) => `<tool_call>\n{"name": "${name}", "arguments": ${args}}\n</tool_call>`;

describe('toolCallGrammar', () => {
  it('accepts a call of either tool with schema-valid arguments, and nothing else', () => {
    const { gbnf, trigger } = toolCallGrammar([weather, time], { parallel: false, lazy: false });
    checkGbnf(gbnf, 'tools');
    expect(trigger).toBeNull();
    const accepts = gbnfToRegExp(gbnf);
    expect(accepts.test(call('get_weather', '{"city": "Paris", "unit": "c"}'))).toBe(true);
    expect(accepts.test(call('get-time', '{}'))).toBe(true);
    expect(accepts.test(call('get_weather', '{"city": "Parisx", "unit": "c"}'))).toBe(false);
    expect(accepts.test(call('get_weather', '{"city": "Paris", "unit": "k"}'))).toBe(false);
    expect(accepts.test(call('get_weather', '{"city": "Paris"}'))).toBe(false);
    expect(accepts.test(call('get-time', '{"a": 1}'))).toBe(false);
    expect(accepts.test(call('other', '{}'))).toBe(false);
    expect(accepts.test(`x${call('get-time', '{}')}`)).toBe(false);
    expect(accepts.test(`${call('get-time', '{}')}\n${call('get-time', '{}')}`)).toBe(false);
  });

  it('repeats calls when they may be parallel; lazy grammars trigger on <tool_call>', () => {
    const { gbnf, trigger } = toolCallGrammar([time], { parallel: true, lazy: true });
    expect(trigger).toBe('<tool_call>');
    expect(gbnfToRegExp(gbnf).test(`${call('get-time', '{}')}\n${call('get-time', '{ }')}`)).toBe(true);
  });

  it('lets a non-strict tool take any JSON object', () => {
    const loose = { name: 'f', param: 'tools[0].function.parameters', parameters: { type: 'object' } };
    const { gbnf } = toolCallGrammar([loose, weather], { parallel: false, lazy: false });
    checkGbnf(gbnf, 'tools');
    expect(gbnf).toMatch(/^f-call ::= .* object "}" space$/m);
  });

  it('names the tool parameters a strict schema cannot be enforced in', () => {
    const bad = { ...weather, param: 'tools[3].parameters', parameters: { type: 'object', not: {} } };
    expect(() => toolCallGrammar([bad], { parallel: false, lazy: false })).toThrow(InvalidRequestError);
    try {
      toolCallGrammar([bad], { parallel: false, lazy: false });
    } catch (error) {
      expect((error as InvalidRequestError).param).toBe('tools[3].parameters');
    }
  });
});
