/** The heap a model loads into (heap-choice.ts): memory64 only where its weights and KV cache need more than wasm32's room. */
import { describe, expect, it } from 'vitest';
import { kvCacheBytes, needsMemory64 } from '../../../../../../worker/engine/backends/llamacpp/heap-choice';

const GIB = 2 ** 30;

/** A Llama 3.2 3B-like GGUF's numbers: 28 layers, 24 heads of 128, 8 KV heads. */
const llama3b = new Map<string, string | number>([
  ['general.architecture', 'llama'],
  ['llama.block_count', 28],
  ['llama.embedding_length', 3072],
  ['llama.attention.head_count', 24],
  ['llama.attention.head_count_kv', 8],
]);

describe('kvCacheBytes and needsMemory64', () => {
  it('counts a key and a value per KV head, layer and token: F16 where F32 would pass 3 GiB with the weights', () => {
    const f32 = 28 * 2048 * 8 * (128 + 128) * 4;
    expect(kvCacheBytes(llama3b, 3 * GIB, 2048, 512)).toBe(f32 / 2);
    expect(needsMemory64(3 * GIB, kvCacheBytes(llama3b, 3 * GIB, 2048, 512))).toBe(false);
  });

  it('F32 where it fits the budget and 3 GiB with the weights (native/attention.cpp)', () => {
    expect(kvCacheBytes(llama3b, 1 * GIB, 2048, 512)).toBe(28 * 2048 * 8 * 256 * 4);
    expect(kvCacheBytes(llama3b, 1 * GIB, 2048, 0)).toBe(28 * 2048 * 8 * 256 * 2);
  });

  it('a model within 3.5 GiB whose long context does not fit in wasm32 needs memory64', () => {
    const cache = kvCacheBytes(llama3b, 3 * GIB, 32768, 512);
    expect(cache).toBe(28 * 32768 * 8 * 256 * 2);
    expect(needsMemory64(3 * GIB, cache)).toBe(true);
    expect(needsMemory64(3.6 * GIB, 0)).toBe(true);
  });

  it('takes key_length/value_length where given, and 0 for a model without attention heads', () => {
    const widths = new Map([...llama3b, ['llama.attention.key_length', 64], ['llama.attention.value_length', 32]]);
    expect(kvCacheBytes(widths, 3 * GIB, 1024, 0)).toBe(28 * 1024 * 8 * (64 + 32) * 2);
    const recurrent = new Map<string, string | number>([
      ['general.architecture', 'mamba'],
      ['mamba.block_count', 64],
    ]);
    expect(kvCacheBytes(recurrent, GIB, 4096, 512)).toBe(0);
  });
});
