import { describe, expect, it } from 'vitest';
import {
  INPAGE_TEST_MODEL_ID,
  buildInpageTestModel,
  inpageTestLogprobs,
  inpageTestSpec,
} from '../../../../src/builtin-model/inpage-test-model';
import { logSoftmax } from '../../../../src/builtin-model/inpage-test-logits';
import { parseGguf } from '../../../fixtures/gguf-reader';
import { ggufTensors, llamaForward, readLlamaHparams } from '../../../fixtures/reference-forward';
import type { TensorLookup } from '../../../fixtures/reference-forward';

const spec = inpageTestSpec;
const bytes = buildInpageTestModel();
const gguf = parseGguf(bytes);
const hp = readLlamaHparams(gguf);
const EOS = spec.eosTokenId;
const code = (ch: string): number => ch.charCodeAt(0);
const tokenize = (text: string): number[] => [...new TextEncoder().encode(text)];
const meta = (key: string): unknown => gguf.metadata.get(key)?.value;
const Z = Math.E ** 2 + Math.E + 1;

/** Token ids sorted by descending logprob. */
const ranking = (logprobs: Float64Array): number[] =>
  [...logprobs.keys()].sort((a, b) => (logprobs[b] ?? 0) - (logprobs[a] ?? 0));
const argmax = (logprobs: Float64Array): number => ranking(logprobs)[0] ?? -1;
const maxAbsDiff = (a: Float64Array, b: Float64Array): number =>
  Math.max(...a.map((v, i) => Math.abs(v - (b[i] ?? Infinity))));

function greedy(tensor: TensorLookup, prompt: number[], steps: number): number[] {
  const tokens = [...prompt];
  for (let s = 0; s < steps && tokens.at(-1) !== EOS; s++)
    tokens.push(argmax(logSoftmax(llamaForward(tensor, hp, tokens))));
  return tokens.slice(prompt.length);
}

describe('inpage-test GGUF file', () => {
  it('has a GGUF v3 header with llama metadata', () => {
    expect(INPAGE_TEST_MODEL_ID).toBe('inpage-test');
    expect(gguf.version).toBe(3);
    expect(gguf.alignment).toBe(32);
    expect(gguf.dataStart % 32).toBe(0);
    expect(meta('general.architecture')).toBe('llama');
    expect(meta('general.name')).toBe('inpage-test');
    expect(meta('llama.context_length')).toBe(4096);
    expect(meta('llama.vocab_size')).toBe(258);
    expect(meta('llama.block_count')).toBe(spec.nLayer);
    expect(meta('llama.rope.dimension_count')).toBe(spec.nEmbd / spec.nHead);
    expect(meta('llama.attention.layer_norm_rms_epsilon')).toBeCloseTo(1e-5, 10);
    expect(hp).toMatchObject({
      nEmbd: spec.nEmbd,
      nHead: spec.nHead,
      nHeadKv: spec.nHeadKv,
      nFf: spec.nFf,
      nVocab: 258,
    });
  });

  it('has a GPT-2 byte-level vocabulary with <s>/</s> control tokens', () => {
    const tokens = meta('tokenizer.ggml.tokens');
    const types = gguf.metadata.get('tokenizer.ggml.token_type');
    expect(meta('tokenizer.ggml.model')).toBe('gpt2');
    expect(meta('tokenizer.ggml.pre')).toBe('default');
    expect(Array.isArray(tokens) && tokens.length).toBe(258);
    expect(
      Array.isArray(tokens) && [tokens[0x61], tokens[0x20], tokens[0x0a], tokens[0x00], tokens[0xad], tokens[0xff]],
    ).toEqual(['a', '\u0120', '\u010a', '\u0100', '\u0143', '\u00ff']);
    expect(Array.isArray(tokens) && new Set(tokens).size).toBe(258);
    expect(Array.isArray(tokens) && tokens.slice(256)).toEqual(['<s>', '</s>']);
    expect(types?.itemType).toBe(5); // int32
    expect(types?.value).toEqual([...Array<number>(256).fill(1), 3, 3]);
    expect(gguf.metadata.get('tokenizer.ggml.merges')).toEqual({ type: 9, itemType: 8, value: [] });
    expect([meta('tokenizer.ggml.bos_token_id'), meta('tokenizer.ggml.eos_token_id')]).toEqual([256, 257]);
    expect([meta('tokenizer.ggml.add_bos_token'), meta('tokenizer.ggml.add_eos_token')]).toEqual([false, false]);
  });

  it('has llama.cpp tensor names and ggml shapes at aligned offsets', () => {
    const { nEmbd: e, nVocab: v, nFf: f } = spec;
    const expected: Record<string, number[]> = {
      'token_embd.weight': [e, v],
      'output_norm.weight': [e],
      'output.weight': [e, v],
    };
    for (let i = 0; i < spec.nLayer; i++) {
      Object.assign(expected, {
        [`blk.${i}.attn_norm.weight`]: [e],
        [`blk.${i}.attn_q.weight`]: [e, e],
        [`blk.${i}.attn_k.weight`]: [e, e],
        [`blk.${i}.attn_v.weight`]: [e, e],
        [`blk.${i}.attn_output.weight`]: [e, e],
        [`blk.${i}.ffn_norm.weight`]: [e],
        [`blk.${i}.ffn_gate.weight`]: [e, f],
        [`blk.${i}.ffn_up.weight`]: [e, f],
        [`blk.${i}.ffn_down.weight`]: [f, e],
      });
    }
    expect(Object.fromEntries([...gguf.tensors].map(([name, t]) => [name, t.dims]))).toEqual(expected);
    for (const t of gguf.tensors.values()) expect([t.type, t.offset % 32]).toEqual([0, 0]);
  });

  it('is deterministic: two builds are byte-identical', () => {
    const again = buildInpageTestModel();
    expect(again.length).toBe(bytes.length);
    expect(again.findIndex((b, i) => b !== bytes[i])).toBe(-1);
  });

  it('zeroes attn_output and ffn_down but keeps every other block weight live', () => {
    const tensor = ggufTensors(gguf);
    for (let i = 0; i < spec.nLayer; i++) {
      for (const zero of ['attn_output', 'ffn_down'])
        expect(tensor(`blk.${i}.${zero}.weight`).every((x) => x === 0)).toBe(true);
      for (const live of ['attn_norm', 'attn_q', 'attn_k', 'attn_v', 'ffn_norm', 'ffn_gate', 'ffn_up']) {
        const data = tensor(`blk.${i}.${live}.weight`);
        expect(data.filter((x) => x !== 0).length, live).toBeGreaterThan(data.length * 0.99);
      }
    }
    expect(tensor('blk.0.attn_q.weight')).not.toEqual(tensor('blk.1.attn_q.weight'));
  });
});

describe('reference forward pass over the parsed tensors', () => {
  const tensor = ggufTensors(gguf);

  it.each(['abc', 'x.', 'hi ', 'zZ9', 'a', '\u00e9'])(
    'matches inpageTestLogprobs at the last position of %j',
    (prompt) => {
      const tokens = tokenize(prompt);
      const last = tokens.at(-1) ?? -1;
      expect(maxAbsDiff(logSoftmax(llamaForward(tensor, hp, tokens)), inpageTestLogprobs(last))).toBeLessThan(1e-4);
    },
  );

  it('greedy decoding follows the successor / EOS / echo rules', () => {
    expect(String.fromCharCode(...greedy(tensor, tokenize('abc'), 5))).toBe('defgh');
    expect(greedy(tensor, tokenize('x.'), 3)).toEqual([EOS]);
    expect(String.fromCharCode(...greedy(tensor, tokenize('hi '), 3))).toBe('   ');
  });

  it('would notice a nonzero attn_output (negative control)', () => {
    const broken = new Float32Array(spec.nEmbd * spec.nEmbd).map((_, i) => 0.01 * Math.sin(i));
    const patched: TensorLookup = (name) => (name === 'blk.0.attn_output.weight' ? broken : tensor(name));
    const tokens = tokenize('abc');
    expect(maxAbsDiff(logSoftmax(llamaForward(patched, hp, tokens)), inpageTestLogprobs(code('c')))).toBeGreaterThan(
      1e-3,
    );
  });
});

describe('inpageTestLogprobs distribution', () => {
  it('after "a" picks b with logprob ln(e^2/Z), then c, d', () => {
    const lp = inpageTestLogprobs(code('a'));
    expect(argmax(lp)).toBe(code('b'));
    expect(lp[code('b')]).toBeCloseTo(-0.4076, 3);
    expect(Math.abs((lp[code('b')] ?? 0) - Math.log(Math.E ** 2 / Z))).toBeLessThan(1e-6);
    expect([lp[code('c')], lp[code('d')]].map((x) => Math.exp(x ?? -Infinity))).toEqual([
      expect.closeTo(Math.E / Z, 6),
      expect.closeTo(1 / Z, 6),
    ]);
    expect(ranking(lp).slice(0, 5)).toEqual([code('b'), code('c'), code('d'), 0, 1]);
  });

  it.each([
    ['a', 'bcd'],
    ['z', 'abc'],
    ['Z', 'ABC'],
    ['M', 'NOP'],
    ['9', '012'],
    ['0', '123'],
  ])('cycles %j -> %j and leaves < 1e-4 to everything else', (prev, next) => {
    const lp = inpageTestLogprobs(code(prev));
    const top = ranking(lp);
    expect(String.fromCharCode(...top.slice(0, 3))).toBe(next);
    expect(top.slice(0, 5).every((t) => t < 0x80)).toBe(true);
    const rest = top.slice(3).reduce((sum, t) => sum + Math.exp(lp[t] ?? 0), 0);
    expect(rest).toBeLessThan(1e-4);
    expect(Math.exp(lp[top[0] ?? -1] ?? -Infinity)).toBeCloseTo(0.665, 3);
  });

  it('ends after "." with P(EOS) > 0.999', () => {
    expect(Math.exp(inpageTestLogprobs(code('.'))[EOS] ?? -Infinity)).toBeGreaterThan(0.999);
  });

  it.each([0x20, 0x0a, 0x21, 0x80, 0xff, 256, 257])('echoes token %i with P > 0.999', (t) => {
    const lp = inpageTestLogprobs(t);
    expect(argmax(lp)).toBe(t);
    expect(Math.exp(lp[t] ?? -Infinity)).toBeGreaterThan(0.999);
  });

  it('gives distinct background logprobs, lowest id first, and sums to 1', () => {
    const lp = inpageTestLogprobs(code('q'));
    expect(new Set(lp).size).toBe(258);
    expect(lp.reduce((s, x) => s + Math.exp(x), 0)).toBeCloseTo(1, 12);
    expect(() => inpageTestLogprobs(258)).toThrow(RangeError);
  });
});
