import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { validateCompletion } from '../../../../../src/core/openai/validate-completion';
import { checkCapabilities, type ModelCapabilities } from '../../../../../src/core/domain/capabilities';
import type { CapabilityName } from '../../../../../src/core/domain/capability-name';
import { choiceRequest, needsTokens } from '../../../../../worker/engine/run-choice';
import type { CompletionRequest } from '../../../../../src/core/openai/types';

/** A model card's capabilities (byte vocabulary: one byte per token, special tokens up to 4 bytes). */
function model(
  unsupported: CapabilityName[] = [],
  suffix = false,
  vocabSize = 258,
  contextLength = 4096,
): ModelCapabilities {
  return {
    unsupported: [...unsupported, ...(suffix ? [] : ['suffix' as const])],
    context_length: contextLength,
    vocab_size: vocabSize,
    max_token_bytes: 1,
  };
}

const request = (body: Record<string, unknown> = {}): CompletionRequest =>
  validateCompletion({ model: 'm', prompt: 'Hi', ...body });

function rejection(m: ModelCapabilities, r: CompletionRequest): InvalidRequestError {
  try {
    checkCapabilities(m, r);
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
    throw error;
  }
  throw new Error('expected a 400');
}

const active: Array<[CapabilityName, Record<string, unknown>, Record<string, unknown>]> = [
  ['top_k', { top_k: 40 }, { top_k: -1 }],
  ['min_p', { min_p: 0.1 }, { min_p: 0 }],
  ['typical_p', { typical_p: 0.9 }, { typical_p: 1 }],
  ['mirostat', { mirostat_mode: 2 }, { mirostat: 0 }],
  ['presence_penalty', { presence_penalty: 0.5 }, { presence_penalty: 0 }],
  ['frequency_penalty', { frequency_penalty: -1 }, { frequency_penalty: 0 }],
  ['repetition_penalty', { repeat_penalty: 1.1 }, { repetition_penalty: 1 }],
  ['logit_bias', { logit_bias: { '1': 1 } }, { logit_bias: {} }],
  ['seed', { seed: 0 }, { seed: null }],
  ['min_tokens', { min_tokens: 1 }, { min_tokens: 0 }],
  ['ignore_eos', { ignore_eos: true }, { ignore_eos: false }],
  ['stop_token_ids', { stop_token_ids: [1] }, { stop_token_ids: [] }],
  ['include_stop_str_in_output', { no_stop_trim: true }, { include_stop_str_in_output: false }],
];

describe('checkCapabilities', () => {
  it.each(active)('%s: 400 naming it when set and unsupported, fine at its "off" value', (param, on, off) => {
    const m = model([param]);
    const error = rejection(m, request(on));
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.code).toBe('unsupported_parameter');
    expect(error.message).toContain(param);
    expect(() => checkCapabilities(m, request(off))).not.toThrow();
    expect(() => checkCapabilities(model(), request(on))).not.toThrow();
  });

  it('accepts everything at once when nothing is unsupported', () => {
    expect(() =>
      checkCapabilities(model(), request(Object.fromEntries(active.flatMap(([, on]) => Object.entries(on))))),
    ).not.toThrow();
  });

  it("a text in logit_bias (llama-server's form) -> 400 naming logit_bias where the backend cannot tokenize it (WebLLM)", () => {
    const m = model(['logit_bias_text']);
    const error = rejection(m, request({ logit_bias: { hello: 1 } }));
    expect([error.param, error.code]).toEqual(['logit_bias', 'unsupported_parameter']);
    expect(rejection(m, request({ logit_bias: [['12', false]] })).param).toBe('logit_bias');
    expect(() => checkCapabilities(m, request({ logit_bias: [[12, false]] }))).not.toThrow();
    expect(() => checkCapabilities(model(), request({ logit_bias: { hello: 1 } }))).not.toThrow();
  });

  it("a draft model's type or p_min -> 400 naming the field where the model has no draft model", () => {
    const m = model(['draft_model']);
    expect(rejection(m, request({ 'speculative.type': 'draft-simple' })).param).toBe('speculative.type');
    expect(rejection(m, request({ 'speculative.p_min': 0.5 })).param).toBe('speculative.p_min');
    expect(rejection(m, request({ 'speculative.type': 'draft-simple' })).code).toBe('unsupported_parameter');
    expect(() => checkCapabilities(m, request({ 'speculative.type': 'ngram-simple' }))).not.toThrow();
    expect(() => checkCapabilities(m, request({ 'speculative.p_min': 0 }))).not.toThrow();
    const drafted = model([]);
    expect(() => checkCapabilities(drafted, request({ 'speculative.type': 'draft-simple' }))).not.toThrow();
    expect(() => checkCapabilities(drafted, request({ 'speculative.p_min': 0.5 }))).not.toThrow();
  });

  it("speculative decoding -> 400 naming 'speculative.type' where the backend has none (WebLLM)", () => {
    const m = model(['speculative']);
    const error = rejection(m, request({ 'speculative.type': 'ngram-simple' }));
    expect(error.param).toBe('speculative.type');
    expect(error.code).toBe('unsupported_parameter');
    expect(() => checkCapabilities(m, request({ 'speculative.type': 'none' }))).not.toThrow();
    // Fields without a type ask for the model's default, which is none without a draft model.
    expect(() => checkCapabilities(m, request({ 'speculative.n_max': 4 }))).not.toThrow();
  });

  it("a reasoning budget or its control -> 400 naming reasoning_budget_tokens where it is unsupported (WebLLM); Anthropic's is advisory", () => {
    const withBudget = (budget: { tokens: number; control: boolean; advisory?: boolean }) => ({
      ...request(),
      reasoning_budget: { message: '', ...budget },
    });
    const webllm = model(['reasoning_budget']);
    expect(rejection(webllm, withBudget({ tokens: 3, control: false })).param).toBe('reasoning_budget_tokens');
    expect(rejection(webllm, withBudget({ tokens: -1, control: true })).param).toBe('reasoning_budget_tokens');
    expect(() => checkCapabilities(webllm, withBudget({ tokens: -1, control: false }))).not.toThrow();
    expect(() => checkCapabilities(webllm, withBudget({ tokens: 1024, control: false, advisory: true }))).not.toThrow();
    expect(() => checkCapabilities(model(), withBudget({ tokens: 3, control: true }))).not.toThrow();
  });

  it('token-id prompts -> 400 param prompt where token ids are unsupported', () => {
    const m = model(['token_ids']);
    for (const prompt of [
      [1, 2],
      ['a', [3]],
    ]) {
      const error = rejection(m, request({ prompt }));
      expect(error.param).toBe('prompt');
      expect(error.code).toBe('unsupported_parameter');
    }
    expect(() => checkCapabilities(m, request({ prompt: ['a', 'b'] }))).not.toThrow();
  });

  it('echo with logprobs where prompts cannot be scored -> 400 naming echo; echo or logprobs alone are fine', () => {
    const m = model(['prompt_logprobs']);
    const error = rejection(m, request({ echo: true, logprobs: 1 }));
    expect([error.param, error.code]).toStrictEqual(['echo', 'unsupported_parameter']);
    expect(() => checkCapabilities(m, request({ echo: true }))).not.toThrow();
    expect(() => checkCapabilities(m, request({ logprobs: 1 }))).not.toThrow();
  });

  it('a prompt that cannot fit the context -> 400 context_length_exceeded, by a lower bound on its tokens', () => {
    const error = rejection(model([], false, 258, 8), request({ prompt: 'abcdefgh' }));
    expect([error.param, error.code]).toStrictEqual(['prompt', 'context_length_exceeded']);
    expect(() => checkCapabilities(model([], false, 258, 8), request({ prompt: 'abcdefg' }))).not.toThrow();
    expect(rejection(model([], false, 258, 8), request({ prompt: ['a', [1, 2, 3, 4, 5, 6, 7, 8]] })).code).toBe(
      'context_length_exceeded',
    );
    const wide = { ...model([], false, 258, 8), max_token_bytes: 4 };
    expect(() => checkCapabilities(wide, request({ prompt: 'x'.repeat(28) }))).not.toThrow();
    expect(rejection(wide, request({ prompt: 'x'.repeat(29) })).code).toBe('context_length_exceeded');
  });

  it('suffix without fill-in-the-middle -> 400 suffix', () => {
    expect(rejection(model(), request({ suffix: 'end' })).param).toBe('suffix');
    expect(() => checkCapabilities(model(), request({ suffix: '' }))).not.toThrow();
    expect(() => checkCapabilities(model([], true), request({ suffix: 'end' }))).not.toThrow();
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['prompt', { prompt: ['a', [1, 258]] }, { prompt: [[0, 257]] }],
    ['stop_token_ids', { stop_token_ids: [3, 258] }, { stop_token_ids: [257] }],
    ['logit_bias', { logit_bias: { '5': 1, '1000': -1 } }, { logit_bias: { '257': 1 } }],
  ])('token ids >= vocabSize in %s -> 400 naming it', (param, outside, inside) => {
    const error = rejection(model(), request(outside));
    expect(error.param).toBe(param);
    expect(error.code).toBe('invalid_token_id');
    expect(error.message).toMatch(/258|1000/);
    expect(() => checkCapabilities(model(), request(inside))).not.toThrow();
    expect(rejection(model([], false, 100), request(inside)).param).toBe(param);
  });
});

describe('needsTokens', () => {
  it.each<[Record<string, unknown>, boolean]>([
    [{}, false],
    [{ stop: '' }, false],
    [{ n: 2 }, false],
    [{ n: 2, best_of: 2 }, false],
    [{ echo: true }, false],
    [{ logprobs: 0 }, true],
    [{ stop: '\n' }, false],
    [{ stop_token_ids: [1] }, true],
    [{ best_of: 2 }, true],
  ])('%j -> %s', (body, expected) => {
    expect(needsTokens(request(body))).toBe(expected);
  });
});

describe('choiceRequest', () => {
  it('copies the sampling parameters and the prompt', () => {
    const r = request({
      max_tokens: 9,
      min_tokens: 2,
      ignore_eos: true,
      cache_prompt: false,
      temperature: 0.5,
      top_p: 0.9,
      top_k: 7,
      min_p: 0.1,
      typical_p: 0.8,
      mirostat: 2,
      mirostat_tau: 3,
      mirostat_eta: 0.2,
      presence_penalty: 1,
      frequency_penalty: -1,
      repetition_penalty: 1.2,
      logit_bias: { '3': 4 },
      seed: 10,
      logprobs: 2,
    });
    expect(choiceRequest(r, [1, 2], 0)).toStrictEqual({
      prompt: [1, 2],
      max_tokens: 9,
      min_tokens: 2,
      suffix: null,
      ignore_eos: true,
      token_info: 2,
      cache_prompt: false,
      speculative: null,
      lora: [],
      grammar: null,
      temperature: 0.5,
      top_p: 0.9,
      top_k: 7,
      min_p: 0.1,
      top_n_sigma: -1,
      typical_p: 0.8,
      mirostat: 2,
      mirostat_tau: 3,
      mirostat_eta: 0.2,
      presence_penalty: 1,
      frequency_penalty: -1,
      repetition_penalty: 1.2,
      logit_bias: [[3, 4]],
      seed: 10,
      repeat_last_n: 64,
      dynatemp_range: 0,
      dynatemp_exponent: 1,
      xtc_probability: 0,
      xtc_threshold: 0.1,
      dry_multiplier: 0,
      dry_base: 1.75,
      dry_allowed_length: 2,
      dry_penalty_last_n: 64,
      dry_sequence_breakers: ['\n', ':', '"', '*'],
      adaptive_target: -1,
      adaptive_decay: 0.9,
      min_keep: 0,
      samplers: ['penalties', 'dry', 'top_n_sigma', 'top_k', 'typ_p', 'top_p', 'min_p', 'xtc', 'temperature'],
    });
  });

  it('gives choice j of a seeded request seed + j; unseeded stays null', () => {
    expect([0, 1, 5].map((j) => choiceRequest(request({ seed: 10 }), 'p', j).seed)).toStrictEqual([10, 11, 15]);
    expect(choiceRequest(request({ seed: -3 }), 'p', 2).seed).toBe(-1);
    expect(choiceRequest(request(), 'p', 4).seed).toBeNull();
  });

  it('asks for token info only when needed, with the logprobs count (0 without logprobs)', () => {
    expect(choiceRequest(request(), 'p', 0).token_info).toBeNull();
    expect(choiceRequest(request({ logprobs: 3 }), 'p', 0).token_info).toBe(3);
    expect(choiceRequest(request({ logprobs: 0 }), 'p', 0).token_info).toBe(0);
    expect(choiceRequest(request({ stop: 'x' }), 'p', 0).token_info).toBeNull();
    expect(choiceRequest(request({ stop_token_ids: [1] }), 'p', 0).token_info).toBe(0);
    expect(choiceRequest(request({ best_of: 3 }), 'p', 0).token_info).toBe(0);
    expect(choiceRequest(request({ max_tokens: null }), 'p', 0).max_tokens).toBeNull();
  });
});

describe('checkCapabilities: media', () => {
  const item = (kind: 'image' | 'audio', param: string) => ({ bytes: Uint8Array.of(1), kind, param });
  const withMedia = (marker: string | null, ...items: ReturnType<typeof item>[]) => ({
    ...request(),
    prompts: [{ text: 'x', media: { marker, items } }],
  });

  it("refuses what the model's projector does not read, naming the part, as llama-server words it", () => {
    const vision = { ...model(), modalities: { vision: true, audio: false } };
    expect(() => checkCapabilities(vision, withMedia('<m>', item('image', 'messages[0].content[0]')))).not.toThrow();
    const audio = rejection(vision, withMedia('<m>', item('image', 'a'), item('audio', 'messages[1].content[2]')));
    expect([audio.param, audio.message]).toEqual([
      'messages[1].content[2]',
      "audio input is not supported - hint: if this is unexpected, you may need to load the model with its mmproj ('messages[1].content[2]').",
    ]);
    expect(rejection(model(), withMedia('<m>', item('image', 'p'))).message).toMatch(/^image input is not supported/);
  });

  it("refuses /completion's multimodal_data on a model without a projector", () => {
    const refused = rejection(model(), withMedia(null, item('image', 'prompt.multimodal_data[0]')));
    expect([refused.param, refused.message]).toEqual([
      'prompt.multimodal_data[0]',
      'Multimodal data provided, but model does not support multimodal requests.',
    ]);
  });
});
