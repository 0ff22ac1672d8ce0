import { describe, expect, it } from 'vitest';
import { OpenAIError } from '../../../../../../src/core/domain/errors';
import { ChatCompletionBuilder } from '../../../../../../worker/sw/routes/chat/chat-completion-builder';
import {
  chatFormatOptions,
  type ChatFormatOptions,
} from '../../../../../../worker/sw/conversation/chat-format-options';
import {
  ChatStream,
  chatSseBytes,
  DONE,
  type ChatStreamItem,
} from '../../../../../../worker/sw/routes/chat/chat-stream';
import { validateChat } from '../../../../../../worker/sw/conversation/validate-chat';
import type { GenerationEvent, TokenLogprob } from '../../../../../../worker/sw/conversation/neutral-types';

const counts = { prompt: 5, completion: 3, cached: 1 };
const options = (extra: Partial<ChatFormatOptions> = {}, tools = false): ChatFormatOptions => {
  let n = 0;
  return {
    id: 'chatcmpl-1',
    created: 100,
    model: 'm',
    logprobs: false,
    include_usage: false,
    continuous_usage: false,
    parser: { reasoning: true, startInReasoning: false, tools, newId: () => `call_${++n}` },
    ...extra,
  };
};
const tok = (text: string): TokenLogprob => ({
  id: 1,
  text,
  bytes: [...new TextEncoder().encode(text)],
  logprob: -0.5,
  top: [{ id: 2, text: 'x', bytes: [120], logprob: -1 }],
  offset: 0,
});
const piece = (text: string, tokens: TokenLogprob[] | null = null, index = 0): GenerationEvent => ({
  type: 'generation.piece',
  index,
  text,
  tokens,
});
const end = (finish_reason: 'stop' | 'length' = 'stop', index = 0): GenerationEvent => ({
  type: 'generation.choice-end',
  index,
  finish_reason,
  matched_stop: null,
});
const done: GenerationEvent = { type: 'generation.done', counts };

function stream(events: GenerationEvent[], o: ChatFormatOptions): ChatStreamItem[] {
  const s = new ChatStream(o);
  return events.flatMap((e) => s.accept(e));
}
const deltas = (items: ChatStreamItem[]) =>
  items.flatMap((i) => (typeof i === 'object' && 'choices' in i ? i.choices.map((c) => c.delta) : []));

describe('ChatCompletionBuilder (non-stream)', () => {
  it('builds a chat.completion with usage', () => {
    const b = new ChatCompletionBuilder(options());
    for (const e of [piece('Hel'), piece('lo'), end()]) expect(b.accept(e)).toBe(false);
    expect(b.accept(done)).toBe(true);
    expect(b.result()).toStrictEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 100,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8, prompt_tokens_details: { cached_tokens: 1 } },
    });
  });

  it("ended inside a character: keeps the tail's text before it, drops the open character (as llama-server's parser)", () => {
    const messageOf = (events: GenerationEvent[], o = options()) => {
      const b = new ChatCompletionBuilder(o);
      for (const e of [...events, done]) b.accept(e);
      return b.result().choices[0]?.message;
    };
    const tailed = (tail: string): GenerationEvent => ({
      type: 'generation.choice-end',
      index: 0,
      finish_reason: 'length',
      matched_stop: null,
      tail,
    });
    expect(messageOf([piece('Hi 😀'), tailed(' \uFFFD')])).toStrictEqual({ role: 'assistant', content: 'Hi 😀 ' });
    // Still in the reasoning: the tail's text is reasoning.
    const thinking = messageOf([piece('<think>Hm'), tailed('m \uFFFD')]);
    expect(thinking).toStrictEqual({ role: 'assistant', content: '', reasoning_content: 'Hmm ' });
    expect(messageOf([piece('x'), tailed('\uFFFD')])).toStrictEqual({ role: 'assistant', content: 'x' });
  });

  it('reports reasoning_content, tool_calls with finish_reason tool_calls, and chat logprobs', () => {
    const b = new ChatCompletionBuilder(options({ logprobs: true }, true));
    [
      piece('<think>hm</think>', [tok('<think>hm</think>')]),
      piece('<tool_call>{"name":"f","arguments":{"a":1}}</tool_call>'),
      end(),
      done,
    ].forEach((e) => b.accept(e));
    const [choice] = b.result().choices;
    expect(choice?.message).toStrictEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'hm',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
    });
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.logprobs?.content[0]).toStrictEqual({
      token: '<think>hm</think>',
      logprob: -0.5,
      bytes: [...new TextEncoder().encode('<think>hm</think>')],
      top_logprobs: [{ token: 'x', logprob: -1, bytes: [120] }],
    });
  });

  it('keeps length over tool_calls, orders n choices, and throws the engine error', () => {
    const b = new ChatCompletionBuilder(options());
    [piece('b', null, 1), piece('a', null, 0), end('length', 1), end('stop', 0), done].forEach((e) => b.accept(e));
    expect(b.result().choices.map((c) => [c.index, c.message.content, c.finish_reason])).toStrictEqual([
      [0, 'a', 'stop'],
      [1, 'b', 'length'],
    ]);
    const err: GenerationEvent = {
      type: 'generation.error',
      error: {
        status: 400,
        body: {
          error: { message: 'too long', type: 'invalid_request_error', param: null, code: 'context_length_exceeded' },
        },
      },
    };
    expect(() => new ChatCompletionBuilder(options()).accept(err)).toThrow(OpenAIError);
  });
});

describe('ChatStream (SSE chunks)', () => {
  it('opens with a role chunk, streams content, finishes, then [DONE]', () => {
    const items = stream([piece('Hel'), piece('lo'), end(), done], options());
    expect(items.at(-1)).toBe(DONE);
    expect(deltas(items)).toStrictEqual([
      { role: 'assistant', content: '' },
      { content: 'Hel' },
      { content: 'lo' },
      {},
    ]);
    const finish = items.at(-2);
    expect(typeof finish === 'object' && 'choices' in finish && finish.choices[0]).toStrictEqual({
      index: 0,
      delta: {},
      logprobs: null,
      finish_reason: 'stop',
    });
    expect(items[0]).toMatchObject({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 100, model: 'm' });
    expect(items[0]).not.toHaveProperty('usage');
  });

  it('adds usage: null to chunks and a final usage chunk with choices [] when include_usage', () => {
    const items = stream([piece('a'), end(), done], options({ include_usage: true }));
    expect(items[0]).toHaveProperty('usage', null);
    expect(items.at(-2)).toStrictEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 100,
      model: 'm',
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8, prompt_tokens_details: { cached_tokens: 1 } },
    });
  });

  it('streams reasoning, then tool calls as id/type/name then argument pieces as they arrive, and finishes with tool_calls', () => {
    const text =
      '<think>\nplan\n</think>\n\n<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>\n<tool_call>{"name":"g","arguments":{}}</tool_call>';
    const items = stream([...[...text].map((c) => piece(c)), end(), done], options({}, true));
    expect(deltas(items)).toStrictEqual([
      { role: 'assistant', content: '' },
      ...[...'plan'].map((c) => ({ reasoning_content: c })),
      // The newline before </think> is held until the tag says it is the reasoning's last.
      { reasoning_content: '\n' },
      { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] },
      ...[...'{"a":1}'].map((c) => ({ tool_calls: [{ index: 0, function: { arguments: c } }] })),
      { tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'g', arguments: '' } }] },
      ...[...'{}'].map((c) => ({ tool_calls: [{ index: 1, function: { arguments: c } }] })),
      {},
    ]);
    const finish = items.at(-2);
    expect(typeof finish === 'object' && 'choices' in finish && finish.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('carries logprobs of held-back tokens to the next chunk that shows text', () => {
    const items = stream(
      [piece('a <', [tok('a <')]), piece('b', [tok('b')]), end(), done],
      options({ logprobs: true }, true),
    );
    const lp = items.flatMap((i) =>
      typeof i === 'object' && 'choices' in i
        ? i.choices.map((c) => c.logprobs?.content.map((t) => t.token) ?? null)
        : [],
    );
    expect(deltas(items)).toStrictEqual([{ role: 'assistant', content: '' }, { content: 'a ' }, { content: '<b' }, {}]);
    expect(lp).toStrictEqual([null, ['a <'], ['b'], null]);
  });

  it("leaves a JSON constraint's surrounding whitespace out of the content; its tokens' logprobs still go", () => {
    const json = options({ logprobs: true });
    json.parser = { ...json.parser, json: true };
    const items = stream(
      [piece(' {', [tok(' {')]), piece('}\n', [tok('}\n')]), piece('\t', [tok('\t')]), end(), done],
      json,
    );
    const lp = items.flatMap((i) =>
      typeof i === 'object' && 'choices' in i
        ? i.choices.map((c) => c.logprobs?.content.map((t) => t.token) ?? null)
        : [],
    );
    expect(
      deltas(items)
        .map((d) => d.content ?? '')
        .join(''),
    ).toBe('{}');
    expect(lp.flat().filter((t) => t !== null)).toStrictEqual([' {', '}\n', '\t']);
  });

  it('interleaves n choices, each opened by its own role chunk', () => {
    const items = stream([piece('x', null, 0), piece('y', null, 1), end('stop', 1), end('length', 0), done], options());
    const indexed = items.flatMap((i) =>
      typeof i === 'object' && 'choices' in i ? i.choices.map((c) => [c.index, c.delta, c.finish_reason]) : [],
    );
    expect(indexed).toStrictEqual([
      [0, { role: 'assistant', content: '' }, null],
      [0, { content: 'x' }, null],
      [1, { role: 'assistant', content: '' }, null],
      [1, { content: 'y' }, null],
      [1, {}, 'stop'],
      [0, {}, 'length'],
    ]);
  });

  it('ends with the error body and no [DONE] on an engine error', () => {
    const body = { error: { message: 'boom', type: 'server_error', param: null, code: 'x' } };
    const items = stream([piece('a'), { type: 'generation.error', error: { status: 500, body } }], options());
    expect(items.at(-1)).toStrictEqual(body);
    expect(items).not.toContain(DONE);
    const text = new TextDecoder().decode(chatSseBytes(items).at(-1));
    expect(text).toBe(`data: ${JSON.stringify(body)}\n\n`);
    expect(new TextDecoder().decode(chatSseBytes([DONE])[0])).toBe('data: [DONE]\n\n');
  });

  it('reports continuous usage on content chunks when asked', () => {
    const items = stream(
      [
        {
          type: 'generation.piece',
          index: 0,
          text: 'a',
          tokens: null,
          counts: { prompt: 2, completion: 1, cached: 0 },
        },
        end(),
        done,
      ],
      options({ continuous_usage: true }),
    );
    expect(items[1]).toHaveProperty('usage.total_tokens', 3);
  });
});

describe('chatFormatOptions', () => {
  it('derives parser options from the request (reasoning starts outside until the engine says otherwise)', () => {
    const req = validateChat({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'f' } }],
      logprobs: true,
    });
    const o = chatFormatOptions(req, 5000);
    expect(o).toMatchObject({
      model: 'm',
      created: 5,
      logprobs: true,
      parser: { reasoning: true, startInReasoning: false, tools: true },
    });
    expect(o.id).toMatch(/^chatcmpl-/);
    expect(chatFormatOptions({ ...req, tool_choice: 'none' }).parser.tools).toBe(false);
  });

  it('a generation.prompt event that opens reasoning makes the output start as reasoning', () => {
    const items = stream(
      [{ type: 'generation.prompt', index: 0, opens_reasoning: true }, piece('why</think>so'), end(), done],
      options(),
    );
    const deltas = items.flatMap((item) =>
      typeof item === 'object' && 'choices' in item ? item.choices.map((c) => c.delta) : [],
    );
    expect(deltas).toContainEqual({ reasoning_content: 'why' });
    expect(deltas).toContainEqual({ content: 'so' });
  });
});
