import { ModelType, postInitAndCheckFieldsChatCompletion } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { checkCapabilities } from '../../../../../../src/core/domain/capabilities';
import type { ChatPrompt } from '../../../../../../src/core/domain/chat-prompt';
import { isChatPrompt, type GenerationRequest } from '../../../../../../src/core/domain/generation';
import { validateCompletion } from '../../../../../../src/core/openai/validate-completion';
import type { EngineToSw, MessageOf } from '../../../../../../src/core/protocol/protocol';
import { toWebLLMChatParams } from '../../../../../../worker/engine/backends/webllm/chat-request';
import { WebLLMModel } from '../../../../../../worker/engine/backends/webllm/model';
import { choiceRequest } from '../../../../../../worker/engine/run-choice';
import { runGeneration } from '../../../../../../worker/engine/run-generation';
import { chatGenerationRequest } from '../../../../../../worker/sw/conversation/chat-generation-request';
import { validateChat } from '../../../../../../worker/sw/conversation/validate-chat';
import { validateResponses } from '../../../../../../worker/sw/routes/responses/validate-responses';
import { FakeEngine, lp, type FakeScript } from './webllm-fake-engine';

/** The fake model answers every conversation with "Hi", "!" (then stops), with logprobs. */
const hello: FakeScript = () => ({
  steps: [
    { text: 'Hi', logprobs: [lp('Hi', -0.25, [['Hello', -1.5]])] },
    { text: '!', logprobs: [lp('!', -0.5, [['.', -1]])] },
  ],
  finish: 'stop',
});

const user = (content: string) => ({ role: 'user', content });
const chatRequest = (body: Record<string, unknown>) =>
  chatGenerationRequest(validateChat({ model: 'm', messages: [user('hello')], ...body }));
const chatOf = (request: GenerationRequest): ChatPrompt => {
  const prompt = request.prompts[0];
  if (!prompt || !isChatPrompt(prompt)) throw new Error('not a conversation');
  return prompt.chat;
};
const model = (engine = new FakeEngine(hello)) => new WebLLMModel(engine, 'fake', 4096, 258);

type Event = MessageOf<EngineToSw>;

async function run(request: GenerationRequest, engine = new FakeEngine(hello)) {
  const { port1, port2 } = new MessageChannel();
  const events: Event[] = [];
  port1.onmessage = (event: MessageEvent<Event>) => events.push(event.data);
  await runGeneration(model(engine), request, port2, new AbortController().signal);
  await new Promise((resolve) => setTimeout(resolve, 20));
  port1.close();
  return { events, engine, last: events.at(-1) };
}

const schema = { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] };

describe('webllm chat request mapping (through WebLLM 0.2.x validators)', () => {
  const bodies: Array<[string, Record<string, unknown>]> = [
    ['plain', {}],
    [
      'system + history',
      {
        messages: [
          { role: 'system', content: 'Be brief.' },
          user('hi'),
          { role: 'assistant', content: 'Hello.' },
          user('again'),
        ],
      },
    ],
    [
      'developer after system, merged',
      { messages: [{ role: 'system', content: 'a' }, { role: 'developer', content: 'b' }, user('x')] },
    ],
    [
      'tool result last',
      {
        messages: [user('x'), { role: 'assistant', content: 'y' }, { role: 'tool', content: '3', tool_call_id: 'c1' }],
      },
    ],
    ['logprobs', { logprobs: true, top_logprobs: 3 }],
    ['logprobs without alternatives', { logprobs: true }],
    ['seed, n, limits', { seed: 7, n: 3, max_tokens: 20, stop: ['x'], temperature: 0.2, top_p: 0.9 }],
    ['penalties, bias', { presence_penalty: 1, frequency_penalty: -1, logit_bias: { '5': -100 } }],
    ['json_object', { response_format: { type: 'json_object' } }],
    ['json_schema', { response_format: { type: 'json_schema', json_schema: { name: 'a', schema } } }],
    ['stream with usage', { stream: true, stream_options: { include_usage: true } }],
  ];
  it.each(bodies)('%s maps to a chat request WebLLM accepts', (_name, body) => {
    const request = chatRequest(body);
    const params = toWebLLMChatParams(choiceRequest(request, chatOf(request), 1), 'fake');
    expect(() => postInitAndCheckFieldsChatCompletion(params, 'fake', ModelType.LLM)).not.toThrow();
    expect(params.stream).toBe(true);
    expect(params.stream_options?.include_usage).toBe(true);
    for (const key of ['n', 'stop', 'tools', 'user']) expect(key in params).toBe(false);
    expect(params.messages.filter((m) => m.role === 'system').length).toBeLessThanOrEqual(1);
    if (request.seed !== null) expect(params.seed).toBe(request.seed + 1);
    if (request.logprobs !== null) expect(params.top_logprobs).toBeGreaterThanOrEqual(1);
  });

  it('system + developer lead becomes one system message; names are dropped', () => {
    const request = chatRequest({
      messages: [
        { role: 'system', content: 'a' },
        { role: 'developer', content: 'b' },
        { role: 'user', content: 'x', name: 'ann' },
      ],
    });
    expect(toWebLLMChatParams(choiceRequest(request, chatOf(request), 0), 'fake').messages).toEqual([
      { role: 'system', content: 'a\n\nb' },
      { role: 'user', content: 'x' },
    ]);
  });

  it('constraints: json_object as the schema {type:object}; json_schema as its JSON text', () => {
    const object = chatRequest({ response_format: { type: 'json_object' } });
    expect(toWebLLMChatParams(choiceRequest(object, chatOf(object), 0), 'fake').response_format).toEqual({
      type: 'json_object',
      schema: '{"type":"object"}',
    });
    const typed = chatRequest({ response_format: { type: 'json_schema', json_schema: { name: 'a', schema } } });
    expect(toWebLLMChatParams(choiceRequest(typed, chatOf(typed), 0), 'fake').response_format).toEqual({
      type: 'json_object',
      schema: JSON.stringify(schema),
    });
  });

  it('the Responses text.format json_schema maps the same way', () => {
    const body = { model: 'm', input: 'hi', text: { format: { type: 'json_schema', name: 'a', schema } } };
    const request = chatGenerationRequest(validateResponses(body).chat);
    const params = toWebLLMChatParams(choiceRequest(request, chatOf(request), 0), 'fake');
    expect(params.response_format).toEqual({ type: 'json_object', schema: JSON.stringify(schema) });
    expect(() => postInitAndCheckFieldsChatCompletion(params, 'fake', ModelType.LLM)).not.toThrow();
  });

  it('WebLLM itself rejects what the mapping keeps out', () => {
    const base = { stream: true as const, messages: [user('x') as { role: 'user'; content: string }] };
    const check = (extra: Record<string, unknown>) => () =>
      postInitAndCheckFieldsChatCompletion({ ...base, ...extra }, 'fake', ModelType.LLM);
    expect(check({ n: 2 })).toThrow();
    expect(check({ messages: [user('x'), { role: 'system', content: 's' }, user('y')] })).toThrow();
    expect(check({ messages: [user('x'), { role: 'assistant', content: 'y' }] })).toThrow();
    expect(check({ response_format: { type: 'text', schema: '{}' } })).toThrow();
    expect(check({ tools: [{ type: 'function', function: { name: 'f' } }] })).toThrow();
  });
});

describe('webllm chat through the shared layer (fake engine)', () => {
  it('a conversation runs through WebLLM chat: pieces, finish reason, usage, reasoning not opened', async () => {
    const { events, engine, last } = await run(chatRequest({ max_tokens: 5 }));
    expect(engine.requests).toHaveLength(0);
    expect(engine.chatRequests).toHaveLength(1);
    expect(events[0]).toEqual({ type: 'generation.prompt', index: 0, opens_reasoning: false });
    const pieces = events.filter((e) => e.type === 'generation.piece');
    expect(pieces.map((e) => e.type === 'generation.piece' && e.text)).toEqual(['Hi', '!']);
    expect(pieces.every((e) => e.type === 'generation.piece' && e.tokens === null)).toBe(true);
    expect(events.find((e) => e.type === 'generation.choice-end')).toMatchObject({ index: 0, finish_reason: 'stop' });
    expect(last).toMatchObject({ type: 'generation.done', counts: { prompt: 5, completion: 2, cached: 0 } });
    expect(engine.returned).toBe(1);
  });

  it('logprobs: pieces carry WebLLM chat logprobs as neutral tokens with offsets', async () => {
    const { events } = await run(chatRequest({ logprobs: true, top_logprobs: 1 }));
    const tokens = events.flatMap((e) => (e.type === 'generation.piece' ? (e.tokens ?? []) : []));
    expect(tokens.map((t) => [t.text, t.logprob, t.offset, t.top?.map((c) => c.text)])).toEqual([
      ['Hi', -0.25, 0, ['Hi']],
      ['!', -0.5, 2, ['!']],
    ]);
    expect(tokens[0]?.bytes).toEqual([72, 105]);
  });

  it('n: 2 with stream: two WebLLM chat streams with seeds seed, seed + 1', async () => {
    const { events, engine } = await run(chatRequest({ n: 2, stream: true, seed: 4 }));
    expect(engine.chatRequests.map((r) => [r.seed, r.n])).toEqual([
      [4, undefined],
      [5, undefined],
    ]);
    const ends = events.filter((e) => e.type === 'generation.choice-end');
    expect(ends.map((e) => e.type === 'generation.choice-end' && e.index)).toEqual([0, 1]);
  });

  it('stop strings are applied by the shared layer; length when max_tokens ends it', async () => {
    const stopped = await run(chatRequest({ stop: ['!'] }));
    expect(stopped.events.find((e) => e.type === 'generation.choice-end')).toMatchObject({
      finish_reason: 'stop',
      matched_stop: '!',
    });
    const long: FakeScript = () => ({ steps: hello('', 0).steps, finish: 'length' });
    const cut = await run(chatRequest({ max_tokens: 2 }), new FakeEngine(long));
    expect(cut.events.find((e) => e.type === 'generation.choice-end')).toMatchObject({ finish_reason: 'length' });
  });

  it('max_tokens: 0 counts the conversation with one probe token', async () => {
    const { last, engine } = await run(chatRequest({ max_tokens: 0 }));
    expect(last).toMatchObject({ type: 'generation.done', counts: { prompt: 5, completion: 0 } });
    expect(engine.chatRequests.map((r) => r.max_tokens)).toEqual([1]);
  });

  it('json_schema reaches WebLLM as its response_format', async () => {
    const { engine, last } = await run(
      chatRequest({ response_format: { type: 'json_schema', json_schema: { name: 'a', schema } } }),
    );
    expect(last?.type).toBe('generation.done');
    expect(engine.chatRequests[0]?.response_format).toEqual({ type: 'json_object', schema: JSON.stringify(schema) });
  });

  const refused: Array<[string, Record<string, unknown>]> = [
    ['grammar', { grammar: 'root ::= "a"' }],
    ['regex', { regex: 'a+' }],
    ['guided_choice', { guided_choice: ['a', 'b'] }],
    ['tools', { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] }],
    ['chat_template_kwargs', { chat_template_kwargs: { enable_thinking: false } }],
    ['reasoning_effort', { reasoning_effort: 'low' }],
    ['top_k', { top_k: 5 }],
    ['min_tokens', { min_tokens: 2 }],
    ['top_logprobs', { logprobs: true, top_logprobs: 6 }],
    ['messages', { messages: [user('x'), { role: 'assistant', content: 'Sure' }] }],
    [
      'messages[2].role',
      { messages: [user('x'), { role: 'assistant', content: 'y' }, { role: 'system', content: 's' }, user('z')] },
    ],
    [
      'messages[1].tool_calls',
      {
        messages: [
          user('x'),
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', content: '1', tool_call_id: 'c' },
        ],
      },
    ],
  ];
  it.each(refused)('%s: 400 naming it as the first event (an HTTP 400), WebLLM never called', async (param, body) => {
    const { events, last, engine } = await run(chatRequest(body));
    expect(events).toHaveLength(1);
    expect(last?.type).toBe('generation.error');
    if (last?.type !== 'generation.error') return;
    expect(last.error.status).toBe(400);
    expect(last.error.body.error.param).toBe(param);
    expect(last.error.body.error.code).toBe('unsupported_parameter');
    expect(engine.chatRequests).toHaveLength(0);
  });

  const failing = (name: string) => {
    const engine = new FakeEngine(hello);
    engine.chat = {
      completions: {
        create: async () => {
          throw Object.assign(new Error('WebLLM says no'), { name });
        },
      },
    };
    return engine;
  };
  it.each([
    ['ContextWindowSizeExceededError', {}, 'messages', 'context_length_exceeded'],
    ['GrammarMatcherInitError', { response_format: { type: 'json_object' } }, 'response_format', 'invalid_value'],
  ])('WebLLM %s -> 400 naming %s', async (name, body, param, code) => {
    const { last } = await run(chatRequest(body), failing(name));
    expect(last?.type).toBe('generation.error');
    if (last?.type !== 'generation.error') return;
    expect(last.error.status).toBe(400);
    expect(last.error.body.error).toMatchObject({ param, code });
  });

  it("the SW's check (the model card's capabilities) refuses the capability rows before the engine", () => {
    const { capabilities } = model();
    for (const body of [{ grammar: 'root ::= "a"' }, { tools: [{ type: 'function', function: { name: 'f' } }] }])
      expect(() => checkCapabilities(capabilities, chatRequest(body))).toThrow(
        expect.objectContaining({ status: 400 }),
      );
    expect(() =>
      checkCapabilities(capabilities, chatRequest({ response_format: { type: 'json_object' } })),
    ).not.toThrow();
  });

  it('completions keep constraints a 400 on webllm (WebLLM ignores response_format there)', async () => {
    const { capabilities } = model();
    const request = validateCompletion({ model: 'm', prompt: 'a', response_format: { type: 'json_object' } });
    expect(() => checkCapabilities(capabilities, request)).toThrow(
      expect.objectContaining({ status: 400, param: 'response_format' }),
    );
  });
});
