import { describe, expect, it } from 'vitest';
import type { ParserOptions } from '../../../../../worker/sw/conversation/chat-output-parser';
import { HarmonyOutputParser } from '../../../../../worker/sw/conversation/harmony-output-parser';
import { HARMONY_TOOL_FORMAT } from '../../../../../src/core/domain/tool-call-format';
import { splitInvariant } from './parser-runs';

const TOOLS = new Map([['get_weather', { properties: {}, root: {} }]]);

const opts = (extra: Partial<ParserOptions> = {}): ParserOptions => {
  let n = 0;
  return {
    reasoning: true,
    startInReasoning: false,
    tools: true,
    toolFormat: HARMONY_TOOL_FORMAT,
    toolProperties: TOOLS,
    newId: () => `call_${++n}`,
    ...extra,
  };
};

/** The reading of `text`, whichever way it is cut. */
const read = (text: string, extra: Partial<ParserOptions> = {}) =>
  splitInvariant(() => new HarmonyOutputParser(opts(extra)), text);

const ANALYSIS = '<|channel|>analysis<|message|>think<|end|><|start|>assistant';

// Each expectation below is llama-server 0.7.0's parse of the same output (measured on its gpt-oss template).
describe('HarmonyOutputParser', () => {
  it('reads the analysis channel as reasoning and the final channel as content', () => {
    expect(read(`${ANALYSIS}<|channel|>final<|message|>hi`)).toStrictEqual({
      reasoning: 'think',
      content: 'hi',
      toolCalls: [],
    });
  });

  it('keeps the analysis message in the content with the reasoning off', () => {
    expect(read(`${ANALYSIS}<|channel|>final<|message|>hi`, { reasoning: false }).content).toBe(
      '<|channel|>analysis<|message|>think<|end|>hi',
    );
  });

  it('joins reasoning messages, keeps whitespace, and reads a preamble as content', () => {
    const text =
      '<|channel|>analysis<|message|>  t1 <|end|><|start|>assistant<|channel|>commentary<|message|> pre <|end|>' +
      '<|start|>assistant<|channel|>analysis<|message|>t2<|end|><|start|>assistant<|channel|>final<|message|> hi ';
    expect(read(text)).toStrictEqual({ reasoning: '  t1 t2', content: ' pre  hi ', toolCalls: [] });
  });

  it('drops a message to another recipient and all after it', () => {
    const text = `${ANALYSIS} to=browser.search<|channel|>commentary<|message|>{}<|end|><|start|>assistant<|channel|>final<|message|>hi`;
    expect(read(text)).toStrictEqual({ reasoning: 'think', content: '', toolCalls: [] });
  });

  it('reads nothing after the answer', () => {
    expect(read('<|channel|>final<|message|>hi<|end|>more').content).toBe('hi');
  });

  it('reads a reasoning cut short', () => {
    expect(read('<|channel|>analysis<|message|>t1')).toStrictEqual({ reasoning: 't1', content: '', toolCalls: [] });
  });

  it('reads a call in the role header or in the channel header, its arguments as written', () => {
    const call = { id: 'call_1', name: 'get_weather', arguments: '{"city": "Paris"}' };
    for (const header of [
      ' to=functions.get_weather<|channel|>commentary json',
      ' to=functions.get_weather<|channel|>commentary <|constrain|>json',
      '<|channel|>commentary to=functions.get_weather json',
      '<|channel|>analysis to=functions.get_weather',
    ])
      expect(read(`${ANALYSIS}${header}<|message|>{"city": "Paris"} \n`)).toStrictEqual({
        reasoning: 'think',
        content: '',
        toolCalls: [call],
      });
    expect(
      read(' to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Paris"}<|call|>x').toolCalls,
    ).toStrictEqual([call]);
  });

  it('drops a call to a function it was not given, and every call with tools off', () => {
    const text = ' to=functions.get_time<|channel|>commentary json<|message|>{}';
    expect(read(text)).toStrictEqual({ reasoning: '', content: '', toolCalls: [] });
    const given = ' to=functions.get_weather<|channel|>commentary json<|message|>{}';
    expect(read(given, { tools: false })).toStrictEqual({ reasoning: '', content: '', toolCalls: [] });
  });

  it("reads gpt-oss-20b's stray commentary channel before another", () => {
    expect(read('<|channel|>commentary to=assistant<|channel|>final<|message|>hi').content).toBe('hi');
  });

  it('takes text that opens no message as content (llama-server: an HTTP 500)', () => {
    expect(read('defg', { unstreamed: true }).content).toBe('defg');
    expect(read('defg').content).toBe('defg');
    expect(read(`${ANALYSIS}<|channel|>other<|message|>x`).content).toBe('<|channel|>other<|message|>x');
  });

  it('streams a reasoning and a call as they come', () => {
    const parser = new HarmonyOutputParser(opts());
    expect(parser.push('<|channel|>analysis<|message|>ab<|e')).toStrictEqual({
      reasoning: 'ab',
      content: '',
      toolCalls: [],
    });
    expect(
      parser.push('nd|><|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"a"').toolCalls,
    ).toStrictEqual([
      { index: 0, id: 'call_1', name: 'get_weather', arguments: '' },
      { index: 0, arguments: '{"a"' },
    ]);
    expect(parser.push(': 1} ').toolCalls).toStrictEqual([{ index: 0, arguments: ': 1}' }]);
    expect(parser.finish().toolCalls).toStrictEqual([]);
  });
});
