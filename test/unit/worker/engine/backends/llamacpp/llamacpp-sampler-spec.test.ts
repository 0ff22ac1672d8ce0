/** One choice's sampler for the engine glue: every sampler explicit, a lazy grammar as a full-match trigger. */
import { describe, expect, it } from 'vitest';
import { GREEDY } from '../../../../../../src/core/domain/parameters';
import type { ChoiceRequest } from '../../../../../../worker/engine/backend';
import { samplerSpec } from '../../../../../../worker/engine/backends/llamacpp/sampler-spec';
import { tokenSpelling } from '../../../../../../worker/engine/backends/llamacpp/token-spelling';

const request: ChoiceRequest = {
  ...GREEDY,
  prompt: 'abc',
  max_tokens: 5,
  min_tokens: 0,
  suffix: null,
  ignore_eos: false,
  token_info: null,
  cache_prompt: true,
  speculative: null,
  lora: [],
  grammar: { gbnf: 'root ::= "<tool_call>" "x"', param: 'tools' },
  logit_bias: [
    [42, -100],
    [7, 2.5],
    ['ab', -Infinity],
  ],
  seed: -1,
};

/** A stand-in tokenizer: one id per character (its code). */
const tokenize = (text: string) => [...text].map((char) => char.codePointAt(0) ?? 0);

describe('samplerSpec', () => {
  it("sets every sampler, llama-server's names, biases per token (a text's each, a ban as the lowest float), the seed as uint32", () => {
    const spec = samplerSpec(request, tokenize);
    expect(spec).toMatchObject({ temperature: 0, top_k: 0, top_p: 1, min_p: 0, repeat_penalty: 1, seed: 0xffffffff });
    expect(spec.logit_bias).toEqual([
      [42, -100],
      [7, 2.5],
      [97, -3.4028234663852886e38],
      [98, -3.4028234663852886e38],
    ]);
    // JSON carries it (the glue reads JSON; -Infinity would be null).
    expect(JSON.parse(JSON.stringify(spec.logit_bias))).toEqual(spec.logit_bias);
    expect(spec.grammar).toBe(request.grammar?.gbnf);
    expect(spec.grammar_lazy).toBeUndefined();
  });

  it('leaves the seed out when the request has none (a random one)', () => {
    expect('seed' in samplerSpec({ ...request, seed: null }, tokenize)).toBe(false);
  });

  it('makes a triggered grammar lazy, with a full-match pattern whose group starts the constrained text', () => {
    const lazy = {
      ...request,
      grammar: { gbnf: 'root ::= "<tool_call>" "x"', param: 'tools', trigger: '<tool_call>' },
    };
    const [pattern] = samplerSpec(lazy, tokenize).trigger_patterns ?? [];
    const match = new RegExp(`^(?:${pattern})$`).exec('Sure.\n<tool_call>\n{');
    expect(match?.[1]).toBe('<tool_call>');
    expect(new RegExp(`^(?:${pattern})$`).test('Sure. <tool_')).toBe(false);
  });
});

describe('tokenSpelling', () => {
  it("hands a reasoning budget over in llama-server's sampler fields, and nothing without one", () => {
    const reasoning = {
      budget: 3,
      message: ' Enough.',
      control: true,
      start_tag: '<think>',
      end_tags: ['</think>'],
      generation_prompt: '<|im_start|>assistant\n<think>\n',
      ended: () => false,
    };
    expect(samplerSpec({ ...request, reasoning }, tokenize)).toMatchObject({
      reasoning_budget_tokens: 3,
      reasoning_budget_start_tag: '<think>',
      reasoning_budget_end_tags: ['</think>'],
      reasoning_budget_message: ' Enough.',
      reasoning_control: true,
      generation_prompt: '<|im_start|>assistant\n<think>\n',
    });
    expect(
      Object.keys(samplerSpec(request, tokenize)).filter(
        (key) => key.includes('reasoning') || key === 'generation_prompt',
      ),
    ).toEqual([]);
  });

  it("spells whole UTF-8 as text and the pieces of a split character in vLLM's bytes: form", () => {
    expect(tokenSpelling(Array.from(new TextEncoder().encode(' café')))).toBe(' café');
    expect(tokenSpelling([0x20, 0xf0, 0x9d])).toBe('bytes:\\x20\\xf0\\x9d');
    expect(tokenSpelling([0xb8])).toBe('bytes:\\xb8');
    expect(tokenSpelling([])).toBe('');
  });
});
