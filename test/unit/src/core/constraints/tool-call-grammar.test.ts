/** Strict tools -> the tool-call grammar (Hermes/Qwen's, Llama 3.x's, Mistral Nemo's, Ministral 3's): what it accepts, laziness, parallel calls, errors. */
import { describe, expect, it } from 'vitest';
import { checkGbnf } from '../../../../../src/core/constraints/gbnf-check';
import {
  toolCallGrammar,
  type ToolCallGrammar,
  type ToolCallOptions,
  type ToolSchema,
} from '../../../../../src/core/constraints/tool-call-grammar';
import type { ToolCallFormat } from '../../../../../src/core/domain/tool-call-format';
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

/** The grammar (never null here: each format below has an opening text, or the grammar is not lazy). */
function grammarOf(options: ToolCallOptions, format?: ToolCallFormat): ToolCallGrammar {
  const grammar = toolCallGrammar(options, format);
  if (grammar === null) throw new Error('no grammar');
  return grammar;
}

const call = (name: string, args: string) => `<tool_call>\n{"name": "${name}", "arguments": ${args}}\n</tool_call>`;

describe('toolCallGrammar', () => {
  it('accepts a call of either tool with schema-valid arguments, and nothing else', () => {
    const { gbnf, trigger } = grammarOf({ tools: [weather, time], parallel: false, lazy: false });
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
    const { gbnf, trigger } = grammarOf({ tools: [time], parallel: true, lazy: true });
    expect(trigger).toBe('<tool_call>');
    expect(gbnfToRegExp(gbnf).test(`${call('get-time', '{}')}\n${call('get-time', '{ }')}`)).toBe(true);
  });

  it('holds a tool that is not strict to its schema (as llama-server), or to any JSON object where it cannot be enforced', () => {
    const loose = { ...weather, strict: false };
    const held = gbnfToRegExp(grammarOf({ tools: [loose], parallel: false, lazy: false }).gbnf);
    expect(held.test(call('get_weather', '{"city": "Paris", "unit": "c"}'))).toBe(true);
    expect(held.test(call('get_weather', '{"city": "Paris", "unit": "k"}'))).toBe(false);
    const unenforceable = { name: 'f', param: 'tools[0].function.parameters', parameters: { type: 'object', not: {} } };
    const { gbnf } = grammarOf({ tools: [unenforceable, weather], parallel: false, lazy: false });
    checkGbnf(gbnf, 'tools');
    expect(gbnf).toMatch(/^f-call ::= .* object "}" space$/m);
  });

  it('names the tool parameters a strict schema cannot be enforced in', () => {
    const bad = { ...weather, param: 'tools[3].parameters', parameters: { type: 'object', not: {} } };
    expect(() => grammarOf({ tools: [bad], parallel: false, lazy: false })).toThrow(InvalidRequestError);
    try {
      grammarOf({ tools: [bad], parallel: false, lazy: false });
    } catch (error) {
      expect((error as InvalidRequestError).param).toBe('tools[3].parameters');
    }
  });

  it("writes Llama 3.x's bare calls (`parameters`), and has no lazy grammar for them, as llama-server", () => {
    const llama: ToolCallFormat = { open: '', close: '', args: 'parameters', array: false };
    const { gbnf, trigger } = grammarOf({ tools: [weather, time], parallel: false, lazy: false }, llama);
    checkGbnf(gbnf, 'tools');
    expect(trigger).toBeNull();
    const accepts = gbnfToRegExp(gbnf);
    expect(accepts.test('{"name": "get_weather", "parameters": {"city": "Paris", "unit": "c"}}')).toBe(true);
    expect(accepts.test('{"name": "get_weather", "arguments": {"city": "Paris", "unit": "c"}}')).toBe(false);
    expect(accepts.test(call('get-time', '{}'))).toBe(false);
    expect(toolCallGrammar({ tools: [time], parallel: false, lazy: true }, llama)).toBeNull();
  });

  it("writes Mistral's calls in one array after [TOOL_CALLS], the lazy grammar triggered there", () => {
    const mistral: ToolCallFormat = { open: '[TOOL_CALLS]', close: '', args: 'arguments', array: true };
    const one = (args: string) => `{"name": "get-time", "arguments": ${args}}`;
    const single = grammarOf({ tools: [time], parallel: false, lazy: true }, mistral);
    checkGbnf(single.gbnf, 'tools');
    expect(single.trigger).toBe('[TOOL_CALLS]');
    expect(gbnfToRegExp(single.gbnf).test(`[TOOL_CALLS][${one('{}')}]`)).toBe(true);
    expect(gbnfToRegExp(single.gbnf).test(`[TOOL_CALLS][${one('{}')}, ${one('{}')}]`)).toBe(false);
    const parallel = grammarOf({ tools: [time], parallel: true, lazy: false }, mistral);
    expect(gbnfToRegExp(parallel.gbnf).test(`[TOOL_CALLS][${one('{}')}, ${one('{}')}]`)).toBe(true);
    expect(gbnfToRegExp(parallel.gbnf).test(one('{}'))).toBe(false);
  });

  it('writes the name before the arguments after each [TOOL_CALLS] (Ministral 3, Devstral), the lazy grammar triggered there', () => {
    const named: ToolCallFormat = { open: '[TOOL_CALLS]', close: '', args: '[ARGS]', array: false, syntax: 'named' };
    const single = grammarOf({ tools: [weather, time], parallel: false, lazy: true }, named);
    checkGbnf(single.gbnf, 'tools');
    expect(single.trigger).toBe('[TOOL_CALLS]');
    const accepts = gbnfToRegExp(single.gbnf);
    expect(accepts.test('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "unit": "c"}')).toBe(true);
    expect(accepts.test('[TOOL_CALLS]get-time[ARGS]{}')).toBe(true);
    expect(accepts.test('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}')).toBe(false);
    expect(accepts.test('[TOOL_CALLS]get-time[ARGS]{}[TOOL_CALLS]get-time[ARGS]{}')).toBe(false);
    const parallel = grammarOf({ tools: [time], parallel: true, lazy: false }, named);
    expect(gbnfToRegExp(parallel.gbnf).test('[TOOL_CALLS]get-time[ARGS]{}[TOOL_CALLS]get-time[ARGS]{}')).toBe(true);
  });
});
