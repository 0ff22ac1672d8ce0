import { describe, expect, it } from 'vitest';
import { ChatOutputParser, type ParserOptions } from '../../../../../worker/sw/conversation/chat-output-parser';
import { partialTagLength } from '../../../../../worker/sw/format/partial-tag';
import { runParser, splitInvariant } from './parser-runs';
import {
  GEMMA_TOOL_FORMAT,
  PYTHON_TOOL_FORMAT,
  TAGGED_TOOL_FORMAT,
  XML_TOOL_FORMAT,
} from '../../../../../src/core/domain/tool-call-format';
import { GEMMA_THINK_TAGS, MINISTRAL_THINK_TAGS } from '../../../../../src/core/domain/thinking-tags';

const opts = (extra: Partial<ParserOptions> = {}): ParserOptions => {
  let n = 0;
  return { reasoning: true, startInReasoning: false, tools: true, newId: () => `call_${++n}`, ...extra };
};

/** Each tool's properties as its parameters (no `$ref`s to resolve). */
const parametersOf = (properties: ReadonlyMap<string, Record<string, unknown>>) =>
  new Map([...properties].map(([name, props]) => [name, { properties: props, root: { properties: props } }]));

/** Feeds `pieces` and concatenates every delta. */
const run = (pieces: string[], options: ParserOptions) => runParser(() => new ChatOutputParser(options), pieces);

/** Every way of cutting `text` in two, and one character at a time, must agree with one piece. */
const expectSplitInvariant = (text: string, extra: Partial<ParserOptions> = {}) =>
  splitInvariant(() => new ChatOutputParser(opts(extra)), text);

describe('ChatOutputParser: reasoning', () => {
  it("splits <think> at the start into reasoning, whitespace as llama-server's parser leaves it", () => {
    // One newline after <think> and up to two after </think> go; the reasoning keeps its own.
    expect(expectSplitInvariant('<think>\nLet me think.\n</think>\n\nThe answer is 4.')).toStrictEqual({
      reasoning: 'Let me think.\n',
      content: 'The answer is 4.',
      toolCalls: [],
    });
    expect(expectSplitInvariant('<think>\n\n x \n</think>\n\n\n y ')).toMatchObject({
      reasoning: '\n x \n',
      content: '\n y ',
    });
  });

  it('starts in reasoning when the prompt opened <think>, keeping the reasoning whitespace', () => {
    expect(expectSplitInvariant('\nhmm\n</think>\n\nok', { startInReasoning: true })).toMatchObject({
      reasoning: '\nhmm\n',
      content: 'ok',
    });
    expect(expectSplitInvariant(' some', { startInReasoning: true })).toMatchObject({ reasoning: ' some' });
  });

  it('with reasoning off, leaves a prompt-opened reasoning in the content from its opener', () => {
    expect(
      expectSplitInvariant('hmm</think>ok', { reasoning: false, startInReasoning: true, opener: '<think>\n' }),
    ).toStrictEqual({ reasoning: '', content: '<think>\nhmm</think>ok', toolCalls: [] });
    expect(expectSplitInvariant('<think>a</think>b', { reasoning: false })).toMatchObject({
      content: '<think>a</think>b',
    });
  });

  it("leaves a JSON constraint's surrounding whitespace out of the content, after the reasoning", () => {
    expect(expectSplitInvariant('\n {"a": 1} \n\t', { json: true, tools: false })).toStrictEqual({
      reasoning: '',
      content: '{"a": 1}',
      toolCalls: [],
    });
    expect(
      expectSplitInvariant('r\n</think>\n\n {"a": [1, 2]}\n', { json: true, tools: false, startInReasoning: true }),
    ).toMatchObject({ reasoning: 'r\n', content: '{"a": [1, 2]}' });
  });

  it("leaves the ```json fence llama-server's chat grammar allows around the JSON out of the content", () => {
    const json = { json: true, tools: false };
    expect(expectSplitInvariant(' ```json\n{"a": "`x`"}\n ```', json)).toMatchObject({ content: '{"a": "`x`"}' });
    expect(expectSplitInvariant('```json{"a":-0}```', json)).toMatchObject({ content: '{"a":-0}' });
    // Cut short (length): in the opening fence, no content; in the closing one, the JSON.
    expect(expectSplitInvariant('\n```js', json)).toMatchObject({ content: '' });
    expect(expectSplitInvariant('```json {"a":1} ``', json)).toMatchObject({ content: '{"a":1}' });
    expect(expectSplitInvariant('r</think>\n\n```json\n[1]\n```', { ...json, startInReasoning: true })).toMatchObject({
      reasoning: 'r',
      content: '[1]',
    });
    // Unfenced JSON keeps backticks where they are its own (the grammar allows none after it).
    expect(expectSplitInvariant('"a``` "', json)).toMatchObject({ content: '"a``` "' });
    // With reasoning off, the opener goes first, as it is; the JSON is read after it.
    const off = { ...json, reasoning: false, startInReasoning: true, opener: '<think>\n' };
    expect(expectSplitInvariant(' ```json\n{}\n```', off)).toMatchObject({ content: '<think>\n{}' });
    expect(expectSplitInvariant('', off)).toMatchObject({ content: '<think>\n' });
    // Only a JSON constraint's content is read so.
    expect(expectSplitInvariant('```json\n1\n```', { tools: false })).toMatchObject({ content: '```json\n1\n```' });
  });

  it('drops a reasoning of only whitespace', () => {
    expect(expectSplitInvariant('\n \n</think>\n\n\nok', { startInReasoning: true })).toStrictEqual({
      reasoning: '',
      content: '\nok',
      toolCalls: [],
    });
    expect(expectSplitInvariant('\n\n', { startInReasoning: true })).toMatchObject({ reasoning: '', content: '' });
  });

  it("an unterminated reasoning of only whitespace is an unstreamed answer's content (llama-server's), nowhere in a stream", () => {
    const cut = { startInReasoning: true, unstreamed: true };
    expect(expectSplitInvariant(' \n  ', cut)).toMatchObject({ reasoning: '', content: ' \n  ' });
    expect(expectSplitInvariant(' \n  ', { startInReasoning: true })).toMatchObject({ reasoning: '', content: '' });
    // Terminated, it is none either way; with text, it is reasoning.
    expect(expectSplitInvariant('  </think>ok', cut)).toMatchObject({ reasoning: '', content: 'ok' });
    expect(expectSplitInvariant(' a ', cut)).toMatchObject({ reasoning: ' a ', content: '' });
  });

  it("where the parse gives nothing at all, the text as it came is an unstreamed answer's content (llama-server's)", () => {
    const json = { json: true, tools: false };
    // A JSON fence cut short, or whitespace alone: the text, unstreamed; nothing in a stream.
    for (const text of ['```js', '```json', '\n\n ']) {
      expect(expectSplitInvariant(text, { ...json, unstreamed: true })).toMatchObject({ content: text });
      expect(expectSplitInvariant(text, json)).toMatchObject({ content: '' });
    }
    // After a reasoning the parse gave something: the cut fence stays out.
    expect(
      expectSplitInvariant('Hello,</think>`', { ...json, startInReasoning: true, unstreamed: true }),
    ).toStrictEqual({ reasoning: 'Hello,', content: '', toolCalls: [] });
    // A reasoning of only whitespace, closed, and nothing after it.
    expect(expectSplitInvariant(' </think>\n', { startInReasoning: true, unstreamed: true })).toMatchObject({
      content: ' </think>\n',
    });
  });

  it('holds whitespace that a </think> may follow, and sends it with the text after or the tag', () => {
    const parser = new ChatOutputParser(opts({ startInReasoning: true }));
    expect(parser.push('\n').reasoning).toBe('');
    expect(parser.push('a \n').reasoning).toBe('\na');
    expect(parser.push('</th').reasoning).toBe('');
    expect(parser.push('ink>\n\nb')).toStrictEqual({ reasoning: ' \n', content: 'b', toolCalls: [] });
  });

  it('leaves <think> alone when it is not at the start, or when reasoning is off', () => {
    expect(expectSplitInvariant('a <think>b</think>')).toMatchObject({ reasoning: '', content: 'a <think>b</think>' });
    expect(expectSplitInvariant('<think>b</think>c', { reasoning: false })).toMatchObject({
      reasoning: '',
      content: '<think>b</think>c',
    });
  });

  it('keeps an unterminated reasoning (length cut) as reasoning', () => {
    expect(expectSplitInvariant('<think>\nstill going </th')).toMatchObject({
      reasoning: 'still going </th',
      content: '',
    });
  });

  it('passes through text that only looks like a tag start', () => {
    expect(expectSplitInvariant('<thin air>')).toMatchObject({ content: '<thin air>' });
    expect(expectSplitInvariant('  hello')).toMatchObject({ content: '  hello' });
  });

  it('holds back only a possible tag start', () => {
    const parser = new ChatOutputParser(opts());
    expect(parser.push('<th').content).toBe('');
    expect(parser.push('ink>abc').reasoning).toBe('abc');
    expect(parser.push(' </thi').reasoning).toBe('');
    expect(parser.push('nk>x <tool').content).toBe('x ');
    expect(parser.push('s').content).toBe('<tools');
  });
});

describe('ChatOutputParser: tool calls', () => {
  const call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';

  it('parses Hermes/Qwen blocks with any chunk boundary', () => {
    expect(expectSplitInvariant(call)).toStrictEqual({
      reasoning: '',
      content: '',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    });
  });

  it('parses several calls after reasoning and text, dropping whitespace between calls', () => {
    const text = `<think>\nuse tools\n</think>\n\nChecking.\n${call}\n${call.replace('Paris', 'Rome')}\n`;
    const out = expectSplitInvariant(text);
    expect(out.reasoning).toBe('use tools\n');
    expect(out.content).toBe('Checking.\n');
    expect(out.toolCalls.map((c) => c.arguments)).toStrictEqual(['{"city":"Paris"}', '{"city":"Rome"}']);
    expect(out.toolCalls.map((c) => c.id)).toStrictEqual(['call_1', 'call_2']);
  });

  it('keeps string arguments as they are', () => {
    expect(run(['<tool_call>{"name":"f","arguments":"{\\"a\\":1}"}</tool_call>'], opts()).toolCalls[0]?.arguments).toBe(
      '{"a":1}',
    );
  });

  it('streams the arguments of a canonical call as they arrive, without JSON whitespace outside strings', () => {
    const parser = new ChatOutputParser(opts());
    expect(parser.push('Sure.\n<tool_call>\n{"name": "f", "argu')).toStrictEqual({
      reasoning: '',
      content: 'Sure.\n',
      toolCalls: [],
    });
    expect(parser.push('ments": {\n  "a": "x y",').toolCalls).toStrictEqual([
      { index: 0, id: 'call_1', name: 'f', arguments: '' },
      { index: 0, arguments: '{"a":"x y",' },
    ]);
    expect(parser.push(' "b": [1, {"c": "}</tool_call>"}]').toolCalls).toStrictEqual([
      { index: 0, arguments: '"b":[1,{"c":"}</tool_call>"}]' },
    ]);
    expect(parser.push('}}\n</tool_call>\n<tool_call>{"name": "g", "arguments": {}}').toolCalls).toStrictEqual([
      { index: 0, arguments: '}' },
      { index: 1, id: 'call_2', name: 'g', arguments: '' },
      { index: 1, arguments: '{}' },
    ]);
    expect(parser.push('</tool_call>')).toStrictEqual({ reasoning: '', content: '', toolCalls: [] });
  });

  it('keeps a call cut short (length) with the arguments streamed so far; other shapes wait for the block end', () => {
    expect(expectSplitInvariant('<tool_call>{"name": "f", "arguments": {"a": "x')).toStrictEqual({
      reasoning: '',
      content: '',
      toolCalls: [{ id: 'call_1', name: 'f', arguments: '{"a":"x' }],
    });
    const parser = new ChatOutputParser(opts());
    expect(parser.push('<tool_call>{"arguments": {"a": 1}, ').toolCalls).toStrictEqual([]);
    expect(parser.push('"name": "f"}</tool_call>').toolCalls).toStrictEqual([
      { index: 0, id: 'call_1', name: 'f', arguments: '' },
      { index: 0, arguments: '{"a":1}' },
    ]);
  });

  it('returns an invalid or unterminated block as content', () => {
    expect(expectSplitInvariant('<tool_call>{not json}</tool_call>')).toMatchObject({
      content: '<tool_call>{not json}</tool_call>',
      toolCalls: [],
    });
    expect(expectSplitInvariant('<tool_call>{"name":"f","argu')).toMatchObject({
      content: '<tool_call>{"name":"f","argu',
      toolCalls: [],
    });
  });

  it('ignores tool tags when tools are off', () => {
    expect(expectSplitInvariant(call, { tools: false })).toMatchObject({ content: call, toolCalls: [] });
  });

  it('uses call_ ids by default', () => {
    const parser = new ChatOutputParser({ reasoning: false, startInReasoning: false, tools: true });
    expect(parser.push(call).toolCalls[0]?.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
  });
});

describe("ChatOutputParser: a template's own tool-call format", () => {
  const llama = { toolFormat: { open: '', close: '', args: 'parameters', array: false } };
  const mistral = { toolFormat: { open: '[TOOL_CALLS]', close: '', args: 'arguments', array: true } };

  it("reads Llama 3.x's bare calls (`parameters`), the text before the first { as content", () => {
    expect(expectSplitInvariant('{"name": "get_weather", "parameters": {"city": "Paris"}}', llama)).toStrictEqual({
      reasoning: '',
      content: '',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    });
    const out = expectSplitInvariant(
      'Checking.\n{"name": "f", "parameters": {}}\n{"name": "g", "parameters": {"a": [1]}}',
      llama,
    );
    expect(out.content).toBe('Checking.\n');
    expect(out.toolCalls).toStrictEqual([
      { id: 'call_1', name: 'f', arguments: '{}' },
      { id: 'call_2', name: 'g', arguments: '{"a":[1]}' },
    ]);
  });

  it('keeps JSON that is no call, and an unclosed {, as content', () => {
    expect(expectSplitInvariant('Use {"a": 1} here.', llama)).toMatchObject({
      content: 'Use {"a": 1} here.',
      toolCalls: [],
    });
    expect(expectSplitInvariant('A { never closed', llama)).toMatchObject({
      content: 'A { never closed',
      toolCalls: [],
    });
  });

  it("reads Mistral's array of calls after [TOOL_CALLS], dropping each call's id", () => {
    const text =
      '[TOOL_CALLS][{"name": "f", "arguments": {"a": "x"}, "id": "abcdefghi"}, {"name": "g", "arguments": {}}]';
    expect(expectSplitInvariant(text, mistral)).toStrictEqual({
      reasoning: '',
      content: '',
      toolCalls: [
        { id: 'call_1', name: 'f', arguments: '{"a":"x"}' },
        { id: 'call_2', name: 'g', arguments: '{}' },
      ],
    });
    expect(expectSplitInvariant('[TOOL_CALLS] no array', mistral)).toMatchObject({ content: '[TOOL_CALLS] no array' });
    // Ids as the template takes them back (Mistral's: 9 letters or digits).
    const parser = new ChatOutputParser({
      reasoning: false,
      startInReasoning: false,
      tools: true,
      toolFormat: { ...mistral.toolFormat, ids: 9 },
    });
    expect(parser.push(text).toolCalls[0]?.id).toMatch(/^[A-Za-z0-9]{9}$/);
  });
});

describe('ChatOutputParser: tagged calls (Qwen3-Coder, Qwen3.5)', () => {
  const properties = new Map([
    [
      'get_weather',
      {
        city: { type: 'string' },
        days: { type: 'integer' },
        units: { enum: ['c', 'f'] },
        tags: { type: 'array' },
        note: { type: ['string', 'null'] },
      },
    ],
  ]);
  const tagged = { toolFormat: TAGGED_TOOL_FORMAT, toolProperties: parametersOf(properties) };
  const call = (params: string) => `<tool_call>\n<function=get_weather>\n${params}</function>\n</tool_call>`;
  const param = (key: string, value: string) => `<parameter=${key}>\n${value}\n</parameter>\n`;

  it("reads the name and each value typed by the tool's schema, with any chunk boundary", () => {
    const text = `Checking.\n${call(param('city', '5') + param('days', '3') + param('units', 'c') + param('tags', '["a", 1]') + param('note', 'null'))}`;
    expect(expectSplitInvariant(text, tagged)).toStrictEqual({
      reasoning: '',
      content: 'Checking.\n',
      toolCalls: [
        {
          id: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"5","days":3,"units":"c","tags":["a",1],"note":null}',
        },
      ],
    });
  });

  it('keeps multi-line string values, reads calls without arguments, and several calls', () => {
    const text = `${call(param('city', 'New\nYork'))}\n${call('')}`;
    expect(expectSplitInvariant(text, tagged).toolCalls).toStrictEqual([
      { id: 'call_1', name: 'get_weather', arguments: '{"city":"New\\nYork"}' },
      { id: 'call_2', name: 'get_weather', arguments: '{}' },
    ]);
  });

  it("reads a JSON body as Hermes's (a strict tool's grammar), and a block that is neither as content", () => {
    const json = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "x"}}\n</tool_call>';
    expect(expectSplitInvariant(json, tagged).toolCalls).toStrictEqual([
      { id: 'call_1', name: 'get_weather', arguments: '{"city":"x"}' },
    ]);
    expect(expectSplitInvariant('<tool_call>oops</tool_call> after', tagged)).toMatchObject({
      content: '<tool_call>oops</tool_call> after',
      toolCalls: [],
    });
  });
});

describe("ChatOutputParser: Ministral's [THINK] reasoning", () => {
  const ministral = { thinking: MINISTRAL_THINK_TAGS };

  // Each as llama-server 0.7.0's Ministral 3 parser reads it (measured on inpage-test with Ministral 3's template).
  it.each([
    ['[THINK]\nLet me think.\n[/THINK]\n\nThe answer.', '\nLet me think.\n', 'The answer.'],
    ['[THINK]\n\nA\n\n[/THINK]\n\n\n  The answer.', '\n\nA\n\n', 'The answer.'],
    ['  [THINK]x[/THINK]y', '', '[THINK]x[/THINK]y'],
    ['Hi [THINK]x[/THINK]y', '', 'Hi [THINK]x[/THINK]y'],
    ['[THINK] [/THINK]y', '', 'y'],
    ['[THINK]abc', 'abc', ''],
    ['[THINK]x[/THINK]  y  ', 'x', 'y  '],
    ['\n\nHello', '', 'Hello'],
  ])('%j: reasoning %j, content %j', (text, reasoning, content) => {
    expect(expectSplitInvariant(text, ministral)).toStrictEqual({ reasoning, content, toolCalls: [] });
  });

  it('with reasoning off, leaves [THINK] in the content (its leading whitespace dropped)', () => {
    expect(expectSplitInvariant(' [THINK]x[/THINK]y', { ...ministral, reasoning: false })).toMatchObject({
      reasoning: '',
      content: '[THINK]x[/THINK]y',
    });
  });
});

describe("ChatOutputParser: Gemma 4's <|channel>thought reasoning", () => {
  const gemma = { thinking: GEMMA_THINK_TAGS };

  // Each as llama-server 0.7.0's Gemma 4 parser reads it (measured on inpage-test with Gemma 4's template).
  it.each([
    ['<|channel>thought\nLet me think.\n<channel|>The answer.', 'Let me think.\n', 'The answer.'],
    ['<|channel>thought  A  <channel|>\n\nB', 'A  ', '\n\nB'],
    ['Hi <|channel>thought x<channel|> there', 'x', 'Hi  there'],
    ['<|channel>thought<channel|>y', '', 'y'],
    ['  <|channel>thought x<channel|>y', 'x', '  y'],
    ['<|channel>thought abc', 'abc', ''],
    ['a<|channel>thought x<channel|>b<|channel>thought y<channel|>c', 'xy', 'abc'],
    ['<|channel>thought \n x \n<channel|>', 'x \n', ''],
  ])('%j: reasoning %j, content %j', (text, reasoning, content) => {
    expect(expectSplitInvariant(text, gemma)).toStrictEqual({ reasoning, content, toolCalls: [] });
  });

  it('with reasoning off, leaves the channel in the content', () => {
    const text = '<|channel>thought x<channel|>y';
    expect(expectSplitInvariant(text, { ...gemma, reasoning: false })).toMatchObject({ reasoning: '', content: text });
  });
});

describe('ChatOutputParser: named calls (Ministral 3, Devstral, Mistral Small 3.2)', () => {
  const named = {
    toolFormat: { open: '[TOOL_CALLS]', close: '', args: '[ARGS]', array: false, syntax: 'named' as const },
  };

  it('reads each call, its name before its arguments, with any chunk boundary', () => {
    const text = 'Checking.[TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "days": [1, 2]}[TOOL_CALLS]noop[ARGS]{}';
    expect(expectSplitInvariant(text, named)).toStrictEqual({
      reasoning: '',
      content: 'Checking.',
      toolCalls: [
        { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","days":[1,2]}' },
        { id: 'call_2', name: 'noop', arguments: '{}' },
      ],
    });
  });

  it("takes the model's id after [CALL_ID] (Mistral Small 3.2), and gives [TOOL_CALLS] without a call back as content", () => {
    const withIds = { toolFormat: { ...named.toolFormat, idTag: '[CALL_ID]' } };
    expect(expectSplitInvariant('[TOOL_CALLS]f[CALL_ID]abc123XYZ[ARGS]{"a": 1}', withIds).toolCalls).toStrictEqual([
      { id: 'abc123XYZ', name: 'f', arguments: '{"a":1}' },
    ]);
    expect(expectSplitInvariant('[TOOL_CALLS]not a call {x}', named)).toMatchObject({
      content: '[TOOL_CALLS]not a call {x}',
      toolCalls: [],
    });
  });
});

describe("ChatOutputParser: Gemma 4's calls", () => {
  const gemma = { toolFormat: GEMMA_TOOL_FORMAT };
  const call = (body: string) => `<|tool_call>call:${body}<tool_call|>`;

  it('reads each call, its arguments in Gemma notation as JSON, with any chunk boundary', () => {
    const text = `Checking.${call('get_weather{city:<|"|>Paris, "FR"<|"|>,days:3,opts:{metric:true,tags:[<|"|>a<|"|>,null]}}')}${call('noop{}')}`;
    expect(expectSplitInvariant(text, gemma)).toStrictEqual({
      reasoning: '',
      content: 'Checking.',
      toolCalls: [
        {
          id: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"Paris, \\"FR\\"","days":3,"opts":{"metric":true,"tags":["a",null]}}',
        },
        { id: 'call_2', name: 'noop', arguments: '{}' },
      ],
    });
  });

  it('reads a JSON call in the block, and a block that is neither as content', () => {
    expect(expectSplitInvariant(call('{"name": "f", "arguments": {"a": 1}}'), gemma).toolCalls).toStrictEqual([
      { id: 'call_1', name: 'f', arguments: '{"a":1}' },
    ]);
    expect(expectSplitInvariant(`${call('oops')} after`, gemma)).toMatchObject({ toolCalls: [] });
  });
});

describe("ChatOutputParser: MiniCPM5's XML calls", () => {
  const properties = {
    city: { type: 'string' },
    days: { type: 'integer' },
    opts: { type: 'object' },
    mix: { type: ['string', 'integer'] },
    any: {},
  };
  const xml = { toolFormat: XML_TOOL_FORMAT, toolProperties: parametersOf(new Map([['get_weather', properties]])) };
  const call = (params: string) => `<function name="get_weather">${params}</function>`;

  // Each as llama-server 0.7.0's MiniCPM5 parser reads it (measured on inpage-test with MiniCPM5's
  // template, the text an assistant message it continued), but for the JSON values' whitespace,
  // which it keeps and this parser compacts.
  it.each([
    [
      `Checking.${call('<param name="city">Paris</param><param name="days">3</param>')}`,
      'Checking.',
      [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","days":3}' }],
    ],
    [
      call('<param name="city"><![CDATA[a<b\n&c]]></param><param name="opts">{"a": [1, 2]}</param>'),
      '',
      [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"a<b\\n&c","opts":{"a":[1,2]}}' }],
    ],
    [
      `${call('\n<param name="city"> Paris </param>\n<param name="mix">3</param>\n')}\n<function name="get_weather"></function>`,
      '',
      [
        { id: 'call_1', name: 'get_weather', arguments: '{"city":" Paris ","mix":"3"}' },
        { id: 'call_2', name: 'get_weather', arguments: '{}' },
      ],
    ],
    [
      `Checking. ${call('<param name="city">\nParis\n</param>')}`,
      'Checking. ',
      [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"\\nParis\\n"}' }],
    ],
    [
      call('<param name="any">3</param><param name="days">3</param><param name="days">4</param>'),
      '',
      [{ id: 'call_1', name: 'get_weather', arguments: '{"any":3,"days":3,"days":4}' }],
    ],
    ['plain answer', 'plain answer', []],
  ])('%j', (text, content, toolCalls) => {
    expect(expectSplitInvariant(text, xml)).toStrictEqual({ reasoning: '', content, toolCalls });
  });

  it("takes a CDATA's text as written, '</param>' in it too; a value cut short ends the call", () => {
    const text = call('<param name="city"><![CDATA[x</param>y]]></param>');
    expect(expectSplitInvariant(text, xml).toolCalls).toStrictEqual([
      { id: 'call_1', name: 'get_weather', arguments: '{"city":"x</param>y"}' },
    ]);
    expect(
      expectSplitInvariant('<function name="get_weather"><param name="days">3</param><param name="ci', xml).toolCalls,
    ).toStrictEqual([{ id: 'call_1', name: 'get_weather', arguments: '{"days":3}' }]);
  });
});

describe('ChatOutputParser: Python-style calls (LFM2, LFM2.5)', () => {
  const python = { toolFormat: PYTHON_TOOL_FORMAT };
  const list = (calls: string) => `<|tool_call_start|>[${calls}]<|tool_call_end|>`;

  it('reads each call of the list, its values (Python literals or JSON) as JSON, with any chunk boundary', () => {
    const text = `Checking.${list("get_weather(city='Paris', days=3, opts={'a': True, \"b\": null}, tags=['x', 1.5e3]), noop()")} Done.`;
    expect(expectSplitInvariant(text, python)).toStrictEqual({
      reasoning: '',
      content: 'Checking.Done.',
      toolCalls: [
        {
          id: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"Paris","days":3,"opts":{"a":true,"b":null},"tags":["x",1.5e3]}',
        },
        { id: 'call_2', name: 'noop', arguments: '{}' },
      ],
    });
  });

  it("reads Python's escapes and quotes, and JSON literals", () => {
    const text = list(`f(s='it\\'s "q"\\n', t="d\\u00e9", u=None, v=False, w=-2)`);
    expect(expectSplitInvariant(text, python).toolCalls).toStrictEqual([
      { id: 'call_1', name: 'f', arguments: '{"s":"it\'s \\"q\\"\\n","t":"dé","u":null,"v":false,"w":-2}' },
    ]);
  });

  it('reads a JSON call in the list, ends a call at text that is no argument, and ends one cut short', () => {
    expect(expectSplitInvariant(list('{"name": "f", "arguments": {"a": 1}}'), python).toolCalls).toStrictEqual([
      { id: 'call_1', name: 'f', arguments: '{"a":1}' },
    ]);
    expect(expectSplitInvariant(list("f(a=1, <x>), g(b='y')"), python).toolCalls).toStrictEqual([
      { id: 'call_1', name: 'f', arguments: '{"a":1}' },
      { id: 'call_2', name: 'g', arguments: '{"b":"y"}' },
    ]);
    expect(expectSplitInvariant('<|tool_call_start|>[f(a=3', python).toolCalls).toStrictEqual([
      { id: 'call_1', name: 'f', arguments: '{"a":3}' },
    ]);
  });

  it('gives the opening text back as content where no list follows it', () => {
    expect(expectSplitInvariant('<|tool_call_start|> no list', python)).toMatchObject({
      content: '<|tool_call_start|> no list',
      toolCalls: [],
    });
  });
});

describe('partialTagLength', () => {
  it('measures the longest suffix that starts the tag', () => {
    expect(partialTagLength('abc<', '<think>')).toBe(1);
    expect(partialTagLength('abc<thi', '<think>')).toBe(4);
    expect(partialTagLength('abc', '<think>')).toBe(0);
    expect(partialTagLength('<think>', '<think>')).toBe(0);
  });
});
