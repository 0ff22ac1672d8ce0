import { prebuiltAppConfig, postInitAndCheckFieldsCompletion } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { validateCompletion } from '../../../../../../src/core/openai/validate-completion';
import type { EngineToSw, MessageOf } from '../../../../../../src/core/protocol/protocol';
import { pickVariant, type AdapterFacts } from '../../../../../../worker/engine/backends/webllm/device';
import { WebLLMModel } from '../../../../../../worker/engine/backends/webllm/model';
import { variantRecords } from '../../../../../../worker/engine/backends/webllm/records';
import { toWebLLMParams } from '../../../../../../worker/engine/backends/webllm/request';
import { choiceRequest } from '../../../../../../worker/engine/run-choice';
import { runGeneration } from '../../../../../../worker/engine/run-generation';
import { ChoiceAccumulator } from '../../../../../../worker/sw/routes/completions/choice-accumulator';
import { FakeEngine, lp, type FakeStep } from './webllm-fake-engine';

/** The fake model: each step continues the alphabet after the prompt's last letter, greedily. */
const alphabet = (prompt: string, _call: number): { steps: FakeStep[]; finish: 'length' } => {
  let code = prompt.charCodeAt(prompt.length - 1);
  const steps = Array.from({ length: 3 }, () => {
    const next = String.fromCharCode(++code);
    return {
      text: next,
      logprobs: [
        lp(next, -0.5, [
          [String.fromCharCode(code + 1), -1.5],
          [String.fromCharCode(code + 2), -2.5],
        ]),
      ],
    };
  });
  return { steps, finish: 'length' };
};

type Event = MessageOf<EngineToSw>;

async function run(body: Record<string, unknown>, engine = new FakeEngine(alphabet)) {
  const model = new WebLLMModel(engine, 'fake', 4096, 258);
  const { port1, port2 } = new MessageChannel();
  const events: Event[] = [];
  port1.onmessage = (event: MessageEvent<Event>) => events.push(event.data);
  const request = validateCompletion({ model: 'm', max_tokens: 3, ...body });
  await runGeneration(model, request, port2, new AbortController().signal);
  await new Promise((resolve) => setTimeout(resolve, 20));
  port1.close();
  const choices = new ChoiceAccumulator(request.logprobs);
  for (const event of events) {
    if (event.type === 'generation.piece') choices.add(event.index, event.text, event.tokens);
    if (event.type === 'generation.choice-end') choices.end(event.index, event.finish_reason, event.matched_stop);
  }
  return { events, engine, choices: choices.list(), last: events.at(-1) };
}

describe('webllm request mapping (through WebLLM 0.2.x validators)', () => {
  const bodies: Array<Record<string, unknown>> = [
    {},
    { logprobs: 0 },
    { logprobs: 5, seed: 7, n: 3 },
    { max_tokens: null, stop: ['x'] },
    { temperature: 0, top_p: 0.5, logit_bias: { '5': -100 } },
    { presence_penalty: 1, frequency_penalty: -1, repetition_penalty: 1.2, ignore_eos: true },
    { best_of: 3, n: 1 },
    { echo: true },
  ];
  it.each(bodies)('%j maps to a request WebLLM accepts, without the keys it rejects', (body) => {
    const request = validateCompletion({ model: 'm', prompt: 'hi', ...body });
    const params = toWebLLMParams(choiceRequest(request, 'hi', 1), 'hi', 'fake');
    expect(() => postInitAndCheckFieldsCompletion(params, 'fake')).not.toThrow();
    for (const key of ['suffix', 'user', 'best_of', 'n', 'echo', 'stop']) expect(key in params).toBe(false);
    expect(params.stream).toBe(true);
    expect(params.stream_options?.include_usage).toBe(true);
    if (request.logprobs !== null || request.stop_token_ids.length > 0)
      expect(params.top_logprobs).toBeGreaterThanOrEqual(1);
    if (request.seed !== null) expect(params.seed).toBe(request.seed + 1);
  });

  it('WebLLM itself still rejects what our layer supplies (so the mapping must keep them out)', () => {
    expect(() => postInitAndCheckFieldsCompletion({ prompt: 'a', stream: true, n: 2 }, 'fake')).toThrow();
    expect(() => postInitAndCheckFieldsCompletion({ prompt: 'a', suffix: undefined }, 'fake')).toThrow(/suffix/);
    expect(() => postInitAndCheckFieldsCompletion({ prompt: 'a', best_of: undefined }, 'fake')).toThrow(/best_of/);
  });
});

describe('webllm backend through the shared completion layer', () => {
  it('array prompt: prompts run one after another, choices prompt-major, usage summed', async () => {
    const { choices, last, engine } = await run({ prompt: ['abc', 'klm'] });
    expect(choices.map((c) => [c.index, c.text, c.finish_reason])).toEqual([
      [0, 'def', 'length'],
      [1, 'nop', 'length'],
    ]);
    expect(engine.requests.map((r) => r.prompt)).toEqual(['abc', 'klm']);
    expect(last).toMatchObject({ type: 'generation.done', counts: { prompt: 6, completion: 6, cached: 0 } });
  });

  it('n: 2 + stream: two WebLLM streams (it refuses n > 1 with stream), deltas carry their index', async () => {
    const { events, engine, choices } = await run({ prompt: 'abc', n: 2, stream: true, seed: 1 });
    expect(engine.requests).toHaveLength(2);
    expect(engine.requests.map((r) => r.seed)).toEqual([1, 2]);
    expect(
      events.filter((e) => e.type === 'generation.piece').map((e) => e.type === 'generation.piece' && e.index),
    ).toEqual([0, 0, 0, 1, 1, 1]);
    expect(events.filter((e) => e.type === 'generation.choice-end')).toHaveLength(2);
    expect(choices.map((c) => c.text)).toEqual(['def', 'def']);
    expect(engine.returned).toBe(2);
  });

  it("echo + stream: the prompt is each choice's first delta", async () => {
    const { events } = await run({ prompt: 'abc', echo: true, stream: true });
    const deltas = events
      .filter((e) => e.type === 'generation.piece')
      .map((e) => e.type === 'generation.piece' && e.text);
    expect(deltas).toEqual(['abc', 'd', 'e', 'f']);
  });

  it("logprobs: 2 -> legacy shape from WebLLM's chat-shaped logprobs", async () => {
    const { choices } = await run({ prompt: 'abc', logprobs: 2 });
    expect(choices[0]?.logprobs).toEqual({
      tokens: ['d', 'e', 'f'],
      token_logprobs: [-0.5, -0.5, -0.5],
      top_logprobs: [
        { d: -0.5, e: -1.5 },
        { e: -0.5, f: -1.5 },
        { f: -0.5, g: -1.5 },
      ],
      text_offset: [0, 1, 2],
    });
  });

  it('stop strings are applied by our layer across WebLLM chunks, and the stream is returned', async () => {
    const { choices, engine } = await run({ prompt: 'abc', stop: ['ef'] });
    expect(choices[0]).toMatchObject({ text: 'd', finish_reason: 'stop', matched_stop: 'ef' });
    expect(engine.returned).toBe(1);
  });

  const unsupported: Array<[string, Record<string, unknown>]> = [
    ['top_k', { top_k: 40 }],
    ['min_p', { min_p: 0.1 }],
    ['typical_p', { typical_p: 0.5 }],
    ['mirostat', { mirostat: 2 }],
    ['min_tokens', { min_tokens: 2 }],
    ['stop_token_ids', { stop_token_ids: [3] }],
    ['prompt', { prompt: [1, 2] }],
    ['echo', { echo: true, logprobs: 1 }],
    ['suffix', { suffix: 'x' }],
  ];
  it.each(unsupported)('%s: 400 naming it, WebLLM never called', async (param, body) => {
    const { last, engine } = await run({ prompt: 'abc', ...body });
    expect(last?.type).toBe('generation.error');
    if (last?.type !== 'generation.error') return;
    expect(last.error.status).toBe(400);
    expect(last.error.body.error.param).toBe(param);
    expect(last.error.body.error.code).toBe('unsupported_parameter');
    expect(engine.requests).toHaveLength(0);
  });
});

describe('webllm variant choice', () => {
  const facts = (features: string[]): AdapterFacts => ({
    features: new Set(features),
    description: 'test',
    limits: {
      maxStorageBufferBindingSize: 1 << 30,
      maxBufferSize: 1 << 30,
      maxComputeWorkgroupStorageSize: 32 << 10,
      maxStorageBuffersPerShaderStage: 10,
    },
  });
  const catalogue = prebuiltAppConfig.model_list;
  const f16 = catalogue.find(
    (record) =>
      /q4f16_1/.test(record.model_id) &&
      catalogue.some((other) => other.model_id === record.model_id.replace('q4f16_1', 'q4f32_1')),
  );

  it('a catalogue q4f16 id runs as its q4f32 twin without shader-f16, as itself with it', () => {
    expect(f16).toBeDefined();
    if (!f16) return;
    const records = variantRecords([{ id: f16.model_id }], catalogue);
    expect(pickVariant(records, facts([]), 'm').model_id).toBe(f16.model_id.replace('q4f16_1', 'q4f32_1'));
    expect(pickVariant(records, facts(['shader-f16']), 'm').model_id).toBe(f16.model_id);
  });

  it('an f16 build without a twin -> 503 shader_f16_unavailable even when it does not declare the feature', () => {
    const record = { model: 'https://x/m/', model_id: 'x-q4f16_1-MLC', model_lib: 'https://x/x.wasm' };
    expect(() => pickVariant([record], facts([]), 'x')).toThrow(
      expect.objectContaining({ status: 503, code: 'shader_f16_unavailable' }),
    );
  });

  it('limits below what WebLLM needs -> 503 webgpu_limits_too_low', () => {
    const low = facts(['shader-f16']);
    low.limits.maxStorageBuffersPerShaderStage = 8;
    expect(() => pickVariant(variantRecords([{ id: catalogue[0]?.model_id ?? '' }], catalogue), low, 'm')).toThrow(
      expect.objectContaining({ code: 'webgpu_limits_too_low' }),
    );
  });
});

describe('webllm logprobs conversion and abort', () => {
  it('a chunk whose bytes do not spell its text (byte-fallback pieces merged by WebLLM) keeps the text exact', async () => {
    const { toTokenInfo } = await import('../../../../../../worker/engine/backends/webllm/chunk');
    const tokens = toTokenInfo('é', [lp('\uFFFD', -0.1)]);
    expect(tokens).toHaveLength(1);
    expect(new TextDecoder().decode(new Uint8Array(tokens[0]?.bytes ?? []))).toBe('é');
    expect(tokens[0]?.logprob).toBe(-0.1);
    expect(toTokenInfo('', [lp('</s>', -0.1)])).toEqual([]);
  });

  it('an aborted request interrupts its engine, returns the stream, and the next request runs', async () => {
    const engine = new FakeEngine(alphabet);
    const model = new WebLLMModel(engine, 'fake', 4096, 258);
    const controller = new AbortController();
    const { port2 } = new MessageChannel();
    const request = validateCompletion({ model: 'm', prompt: 'abc', max_tokens: 3, stream: true });
    const first = model.generate(choiceRequest(request, 'abc', 0), controller.signal)[Symbol.asyncIterator]();
    expect((await first.next()).value).toMatchObject({ type: 'text', text: 'd' });
    controller.abort();
    await first.return?.(undefined);
    expect(engine.interrupts).toBe(1);
    expect(engine.returned).toBe(1);
    await runGeneration(model, request, port2, new AbortController().signal);
    expect(engine.returned).toBe(2);
    port2.close();
  });
});
