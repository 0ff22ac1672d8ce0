/**
 * `/v1/messages` in the Service Worker: the body mapped onto a chat request as llama.cpp's server
 * maps it (system blocks joined with nothing, user text blocks with '\n', tool_use and tool_result
 * blocks as tool calls and tool messages), the 400s, and the named stream events and final
 * message built from neutral engine events.
 */
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '#core/domain/errors';
import { messageMeta } from '../../../../../../worker/sw/routes/messages/message-object';
import { MessageStream, messageSseFrame } from '../../../../../../worker/sw/routes/messages/message-stream';
import { validateMessages } from '../../../../../../worker/sw/routes/messages/validate-messages';
import type { GenerationEvent } from '../../../../../../worker/sw/conversation/neutral-types';

const base = { model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'abc' }] };
const WEATHER = { name: 'get_weather', description: 'Weather.', input_schema: { type: 'object' } };

function rejection(body: unknown, count = false): InvalidRequestError {
  try {
    validateMessages(body, count);
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
  }
  throw new Error('expected a 400');
}

describe('validateMessages', () => {
  it('maps system, blocks, samplers and stop sequences onto a chat request', () => {
    const { chat } = validateMessages({
      ...base,
      system: [
        { type: 'text', text: 'be ' },
        { type: 'text', text: 'brief', cache_control: { type: 'ephemeral' } },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
      ],
      temperature: 0.5,
      top_p: 0.9,
      top_k: 7,
      stop_sequences: ['zz'],
      metadata: { user_id: 'u' },
    });
    expect(chat.messages).toStrictEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'a\nb' },
    ]);
    expect(chat).toMatchObject({ max_tokens: 8, temperature: 0.5, top_p: 0.9, top_k: 7, stop: ['zz'], user: 'u' });
    expect(chat.stream).toBe(false);
  });

  it('maps tool_use to tool calls and each tool_result to a tool message after its turn', () => {
    const { chat } = validateMessages({
      ...base,
      tools: [WEATHER],
      messages: [
        { role: 'user', content: 'a' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hm', signature: 's' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'x' } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: [
                { type: 'text', text: 'b' },
                { type: 'text', text: 'c' },
              ],
            },
          ],
        },
      ],
    });
    expect(chat.messages).toStrictEqual([
      { role: 'user', content: 'a' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"x"}' } }],
        reasoning_content: 'hm',
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'bc' },
    ]);
    expect(chat.tools).toStrictEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Weather.', parameters: { type: 'object' } } },
    ]);
    // tool_choice auto: the tools' grammar waits for <tool_call>.
    expect(chat.grammar?.trigger).toBe('<tool_call>');
  });

  it('constrains forced tool choices (any, tool) with a grammar from the first token, auto lazily; none stays free', () => {
    const tools = [WEATHER, { ...WEATHER, name: 'other' }];
    expect(validateMessages({ ...base, tools, tool_choice: { type: 'any' } }).chat).toMatchObject({
      tool_choice: 'required',
      grammar: { param: 'tools' },
    });
    const named = validateMessages({ ...base, tools, tool_choice: { type: 'tool', name: 'other' } }).chat;
    expect(named.tool_choice).toStrictEqual({ type: 'function', function: { name: 'other' } });
    expect(named.grammar?.trigger).toBeUndefined();
    expect(named.grammar?.gbnf).toContain('other');
    expect(named.grammar?.gbnf).not.toContain('get_weather');
    const auto = validateMessages({ ...base, tools, tool_choice: { type: 'auto', disable_parallel_tool_use: true } });
    expect(auto.chat).toMatchObject({
      tool_choice: 'auto',
      grammar: { param: 'tools', trigger: '<tool_call>' },
      parallel_tool_calls: false,
    });
    expect(validateMessages({ ...base, tools, tool_choice: { type: 'none' } }).chat.tool_choice).toBe('none');
  });

  it('reads thinking: disabled turns the template reasoning off; enabled and absent leave it on', () => {
    expect(validateMessages({ ...base, thinking: { type: 'disabled' } }).chat.reasoning_effort).toBe('none');
    const on = validateMessages({ ...base, max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect([on.thinking, on.chat.reasoning_effort]).toStrictEqual([true, null]);
    // enabled's budget is kept where the engine can keep it (llama-server's thinking_budget_tokens), advisory elsewhere.
    expect(on.chat.reasoning_budget).toStrictEqual({ tokens: 1024, control: false, advisory: true });
    expect(validateMessages({ ...base, thinking: { type: 'adaptive' } }).chat.reasoning_budget).toBeUndefined();
    expect(validateMessages(base).chat.reasoning_effort).toBeNull();
  });

  it.each([
    [{ ...base, max_tokens: undefined }, 'max_tokens'],
    [{ ...base, max_tokens: 0 }, 'max_tokens'],
    [{ model: 'm', max_tokens: 5 }, 'messages'],
    [{ ...base, messages: [] }, 'messages'],
    [{ ...base, messages: [{ role: 'system', content: 'x' }] }, 'messages[0].role'],
    [
      { ...base, messages: [{ role: 'user', content: [{ type: 'image', source: {} }] }] },
      'messages[0].content[0].source.type',
    ],
    [
      { ...base, messages: [{ role: 'user', content: [{ type: 'document', source: {} }] }] },
      'messages[0].content[0].type',
    ],
    [{ ...base, messages: [{ role: 'assistant', content: [{ type: 'tool_result' }] }] }, 'messages[0].content[0].type'],
    [{ ...base, temperature: 1.5 }, 'temperature'],
    [{ ...base, stop_sequences: 'x' }, 'stop_sequences'],
    [{ ...base, tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, 'tools[0].type'],
    [{ ...base, tools: [{ name: 'f' }] }, 'tools[0].input_schema'],
    [{ ...base, tool_choice: { type: 'any' } }, 'tool_choice'],
    [{ ...base, tools: [WEATHER], tool_choice: { type: 'tool', name: 'nope' } }, 'tool_choice.name'],
    [{ ...base, thinking: { type: 'enabled', budget_tokens: 100 } }, 'thinking.budget_tokens'],
    [{ ...base, frequency_penalty: 1 }, 'frequency_penalty'],
  ])('400 naming the field: %j -> %s', (body, param) => {
    expect(rejection(body).param).toBe(param);
  });

  it('count_tokens takes no max_tokens and no samplers', () => {
    expect(validateMessages({ model: 'm', messages: base.messages }, true).chat.messages).toHaveLength(1);
    expect(rejection({ ...base }, true).param).toBe('max_tokens');
  });
});

const counts = { prompt: 9, completion: 4, cached: 2 };
const piece = (text: string): GenerationEvent => ({ type: 'generation.piece', index: 0, text, tokens: null });
const end = (finish_reason: 'stop' | 'length', matched_stop: string | number | null = null): GenerationEvent => ({
  type: 'generation.choice-end',
  index: 0,
  finish_reason,
  matched_stop,
});

function run(events: GenerationEvent[], tools = false) {
  const stream = new MessageStream(messageMeta('m'), { reasoning: true, startInReasoning: false, tools });
  const out = [...events.flatMap((e) => stream.accept(e)), ...stream.accept({ type: 'generation.done', counts })];
  return { events: out, message: stream.final() };
}

describe('MessageStream', () => {
  it("message_start's usage has the prompt's tokens when the engine said them on taking the prompt, else 0", () => {
    const prompt: GenerationEvent = {
      type: 'generation.prompt',
      index: 0,
      opens_reasoning: false,
      counts: { prompt: 9, completion: 0, cached: 2 },
    };
    const started = run([prompt, piece('x'), end('stop')]).events[0];
    expect(started).toMatchObject({
      type: 'message_start',
      message: { usage: { input_tokens: 7, cache_read_input_tokens: 2, output_tokens: 0 } },
    });
    expect(run([piece('x'), end('stop')]).events[0]).toMatchObject({ message: { usage: { input_tokens: 0 } } });
  });

  it('streams thinking and text blocks with their deltas, then message_delta with the totals', () => {
    const { events, message } = run([piece('<think>hm'), piece('</think>de'), piece('fgh'), end('stop', 'zz')]);
    expect(events.map((e) => e.type)).toStrictEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[3]).toStrictEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'thinking_delta', thinking: 'hm' },
    });
    expect(events[7]).toStrictEqual({
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'text_delta', text: 'fgh' },
    });
    const usage = { input_tokens: 7, output_tokens: 4, cache_read_input_tokens: 2, cache_creation_input_tokens: 0 };
    expect(events[9]).toStrictEqual({
      type: 'message_delta',
      delta: { stop_reason: 'stop_sequence', stop_sequence: 'zz' },
      usage,
    });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [
        { type: 'thinking', thinking: 'hm', signature: '' },
        { type: 'text', text: 'defgh' },
      ],
      stop_reason: 'stop_sequence',
      usage,
    });
    expect(message?.id).toMatch(/^msg_/);
  });

  it('a tool call is a tool_use block with input_json_delta pieces; stop_reason tool_use', () => {
    const { events, message } = run(
      [piece('<tool_call>{"name": "f", "arguments": {"a"'), piece(': 1}}</tool_call>'), end('stop')],
      true,
    );
    const start = events.find((e) => e.type === 'content_block_start');
    expect(start).toMatchObject({ index: 0, content_block: { type: 'tool_use', name: 'f', input: {} } });
    const json = events
      .filter((e) => e.type === 'content_block_delta')
      .map((e) => (e.delta as { partial_json: string }).partial_json);
    expect(json.join('')).toBe('{"a":1}');
    expect(message?.content).toMatchObject([{ type: 'tool_use', name: 'f', input: { a: 1 } }]);
    expect(message?.content[0]).toHaveProperty('id', expect.stringMatching(/^toolu_/));
    expect(message?.stop_reason).toBe('tool_use');
  });

  it('max_tokens and end_turn', () => {
    expect(run([piece('x'), end('length')]).message?.stop_reason).toBe('max_tokens');
    expect(run([piece('x'), end('stop', 151645)]).message).toMatchObject({
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
  });

  it('frames events as `event: <type>` + `data:`', () => {
    expect(messageSseFrame({ type: 'ping' })).toBe('event: ping\ndata: {"type":"ping"}\n\n');
  });
});

describe('validateMessages: image blocks', () => {
  it("collects a user message's images with the request's marker in its text, naming each block", () => {
    const { chat } = validateMessages({
      ...base,
      system: 'sys',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw==' } },
            { type: 'text', text: 'what?' },
          ],
        },
      ],
    });
    const media = chat.media;
    if (!media) throw new Error('no media');
    expect(chat.messages.map((m) => m.content)).toEqual(['sys', `${media.marker}what?`]);
    expect(media.parts.map((part) => [part.kind, part.param])).toEqual([['image', 'messages[0].content[0]']]);
  });
});
