/** Tools -> gpt-oss's harmony call grammar: the call's two headers, its constraint, laziness, the messages before it. */
import { describe, expect, it } from 'vitest';
import { checkGbnf } from '../../../../../src/core/constraints/gbnf-check';
import { harmonyCallGrammar } from '../../../../../src/core/constraints/harmony-call-grammar';
import type { ToolSchema } from '../../../../../src/core/constraints/tool-call-grammar';
import { gbnfToRegExp } from './gbnf-to-regexp';

const weather: ToolSchema = {
  name: 'get_weather',
  strict: true,
  param: 'tools[0].function.parameters',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', maxLength: 3 } },
    required: ['city'],
    additionalProperties: false,
  },
};
/** Not strict: held to its schema all the same, as llama-server holds every tool. */
const loose: ToolSchema = {
  name: 'get_time',
  param: 'tools[1].function.parameters',
  parameters: { type: 'object', properties: { n: { type: 'integer' } } },
};

describe('harmonyCallGrammar', () => {
  it('lazy: from ` to=functions.`, the name with its channel after it or before it, a json constraint, the arguments', () => {
    const { gbnf, trigger } = harmonyCallGrammar({ tools: [weather, loose], parallel: true, lazy: true });
    expect(trigger).toBe(' to=functions.');
    expect(() => checkGbnf(gbnf, 'tools')).not.toThrow();
    const accepts = gbnfToRegExp(gbnf);
    for (const text of [
      ' to=functions.get_weather<|channel|>commentary json<|message|>{"city": "abc"}',
      ' to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{"city":"ab"}',
      ' to=functions.get_weather<|channel|>analysis<|message|>{"city":"ab"}',
      ' to=functions.get_weather json<|message|>{"city":"ab"}',
      ' to=functions.get_time<|channel|>commentary json<|message|>{"n": 1}',
    ])
      expect(accepts.test(text), text).toBe(true);
    for (const text of [
      ' to=functions.get_weather<|channel|>commentary json<|message|>{"city": "abcd"}',
      ' to=functions.get_weather<|channel|>commentary json<|message|>{}',
      ' to=functions.get_time<|channel|>commentary json<|message|>{"n": "1"}',
      ' to=functions.get_weather<|channel|>final<|message|>{"city":"ab"}',
      // One word only after the channel: the template's `json` (llama-server takes any, unbounded).
      ' to=functions.get_weather<|channel|>commentary code<|message|>{"city":"ab"}',
      ' to=functions.get_weatherx<|channel|>commentary json<|message|>{"city":"ab"}',
      ' to=functions.get_weather<|channel|>commentary json<|message|>{"city":"ab"} to=functions.get_time',
    ])
      expect(accepts.test(text), text).toBe(false);
  });

  it('else: any analysis and commentary messages first, then one call, its recipient in the role or the channel', () => {
    const { gbnf, trigger } = harmonyCallGrammar({ tools: [weather], parallel: false, lazy: false });
    expect(trigger).toBeNull();
    expect(() => checkGbnf(gbnf, 'tools')).not.toThrow();
    expect(gbnf.split('\n')[0]).toBe('root ::= harmony-message');
    expect(gbnf).toContain(
      'harmony-message ::= ( "<|channel|>commentary" ( " to=assistant" )? )? "<|channel|>analysis<|message|>" harmony-body | "<|channel|>commentary<|message|>" harmony-body | ( get-weather-call )',
    );
    expect(gbnf).toContain(
      'get-weather-call ::= " to=functions." "get_weather" "<|channel|>" ( "commentary" | "analysis" ) harmony-constraint "<|message|>" get-weather-args | "<|channel|>" ( "commentary" | "analysis" ) " to=functions." "get_weather" harmony-constraint "<|message|>" get-weather-args',
    );
    // A message's body runs to `<|end|>`, then the next message.
    expect(gbnf).toContain(
      'harmony-body-6 ::= [^><] harmony-body | "<" harmony-body-1 | ">" "<|start|>assistant" harmony-message',
    );
  });
});
