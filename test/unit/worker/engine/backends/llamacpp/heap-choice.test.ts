/** The heap a model loads into (heap-choice.ts): memory64 only where its weights and KV cache need more than wasm32's room. */
import { describe, expect, it } from 'vitest';
import {
  checkpointBytes,
  hostShare,
  kvCacheBytes,
  needsMemory64,
} from '../../../../../../worker/engine/backends/llamacpp/heap-choice';

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

  it("counts a sliding-window layer's window and micro-batch only (Gemma 3 4B's numbers: 29 of 34 layers)", () => {
    const gemma3 = new Map<string, string | number>([
      ['general.architecture', 'gemma3'],
      ['gemma3.block_count', 34],
      ['gemma3.embedding_length', 2560],
      ['gemma3.attention.head_count', 8],
      ['gemma3.attention.head_count_kv', 4],
      ['gemma3.attention.key_length', 256],
      ['gemma3.attention.value_length', 256],
      ['gemma3.attention.sliding_window', 1024],
    ]);
    const row = 4 * 512 * 2;
    // F16 (F32 would pass the budget): 5 layers of 8,192 cells, 29 of 1,024 + 512.
    expect(kvCacheBytes(gemma3, 2.5 * GIB, 8192, 512)).toBe((5 * 8192 + 29 * 1536) * row);
    // Two slots: a stream of 4,096 each, each sliding layer 1,536 cells in each.
    expect(kvCacheBytes(gemma3, 2.5 * GIB, 8192, 512, 2)).toBe((5 * 8192 + 29 * 2 * 1536) * row);
    // F32 where it fits (decided on the full-size cache, as native/attention.cpp does): 64-token micro-batches.
    expect(kvCacheBytes(gemma3, 0.5 * GIB, 1536, 512)).toBe((5 * 1536 + 29 * 1280) * row * 2);
    // A context within the window: every layer full-size.
    expect(kvCacheBytes(gemma3, 2.9 * GIB, 1024, 512)).toBe(34 * 1024 * row);
    // The context checkpoints (native/checkpoints.cpp): a slot's sliding cells each, as many as
    // 256 MiB holds (one of 29 x 1,536 cells: 174 MiB), at most 8 a slot; none larger than that
    // (29 x 1,280 F32 cells: 290 MiB); none without a window.
    expect(checkpointBytes(gemma3, 2.5 * GIB, 8192, 512)).toBe(29 * 1536 * row);
    expect(checkpointBytes(gemma3, 2.5 * GIB, 8192, 512, 2)).toBe(29 * 1536 * row);
    expect(checkpointBytes(gemma3, 0.5 * GIB, 1536, 512)).toBe(0);
    expect(checkpointBytes(gemma3, 2.9 * GIB, 1024, 512)).toBe(2 * 29 * 1024 * row);
    // Small ones (F16: F32 would pass 3 GiB with the weights): 8 a slot.
    const small = new Map([
      ...gemma3,
      ['gemma3.attention.head_count_kv', 1],
      ['gemma3.attention.key_length', 64],
      ['gemma3.attention.value_length', 64],
    ]);
    expect(checkpointBytes(small, 2.9 * GIB, 8192, 512, 2)).toBe(16 * 29 * 1536 * 128 * 2);
    expect(checkpointBytes(llama3b, 3 * GIB, 8192, 512)).toBe(0);
  });
});

describe('hostShare', () => {
  /** A 4-layer model's tensors: the input, each layer's two, the output's norm and matrix. */
  const tensors = [
    { name: 'token_embd.weight', bytes: 1000n },
    ...[0, 1, 2, 3].flatMap((i) => [
      { name: `blk.${i}.attn_q.weight`, bytes: 100n },
      { name: `blk.${i}.ffn_up.weight`, bytes: 200n },
    ]),
    { name: 'output_norm.weight', bytes: 10n },
    { name: 'output.weight', bytes: 1000n },
    { name: 'rope_freqs.weight', bytes: 5n },
  ];
  const four = new Map<string, string | number>([...llama3b, ['llama.block_count', 4]]);

  it('keeps the input layer and the tensors outside the layers on the CPU, the rest on the GPU with every layer', () => {
    // 1005 on the CPU, and the loader's buffer for the largest offloaded tensor (output.weight).
    expect(hostShare(tensors, four, 10_000, 400)).toEqual({ weights: 1005 + 1000, cache: 0, largestOnGpu: 1000 });
    expect(hostShare(tensors, four, 5, 400)).toEqual({ weights: 1005 + 1000, cache: 0, largestOnGpu: 1000 });
  });

  it('offloads the output layer first, then the repeating layers from the last, with their KV cache (llama.cpp -ngl)', () => {
    expect(hostShare(tensors, four, 1, 400)).toEqual({
      weights: 1005 + 4 * 300 + 1000,
      cache: 400,
      largestOnGpu: 1000,
    });
    expect(hostShare(tensors, four, 2, 400)).toEqual({
      weights: 1005 + 3 * 300 + 1000,
      cache: 300,
      largestOnGpu: 1000,
    });
    expect(hostShare(tensors, four, 4, 400)).toEqual({ weights: 1005 + 300 + 1000, cache: 100, largestOnGpu: 1000 });
    // Tied embeddings: token_embd is read again for the output layer on the GPU.
    const tied = tensors.filter((tensor) => tensor.name !== 'output.weight');
    expect(hostShare(tied, four, 2, 400)).toEqual({ weights: 1005 + 3 * 300 + 1000, cache: 300, largestOnGpu: 1000 });
    expect(hostShare(tied, four, 0, 400)).toEqual({ weights: 1005 + 1200 + 10, cache: 400, largestOnGpu: 0 });
  });

  it('keeps everything on the CPU with no GPU layers', () => {
    expect(hostShare(tensors, four, 0, 400)).toEqual({ weights: 1005 + 1200 + 1010, cache: 400, largestOnGpu: 0 });
  });

  it('puts a 7 GiB model with a long context on the GPU in wasm32, where on the CPU it needs memory64', () => {
    const MIB = 2 ** 20;
    const big = [
      { name: 'token_embd.weight', bytes: BigInt(400 * MIB) },
      ...Array.from({ length: 28 }, (_, i) => ({ name: `blk.${i}.ffn_up.weight`, bytes: BigInt(225 * MIB) })),
      { name: 'output.weight', bytes: BigInt(400 * MIB) },
    ];
    const size = (800 + 28 * 225) * MIB;
    const cache = kvCacheBytes(llama3b, size, 32768, 512);
    expect(needsMemory64(size, cache)).toBe(true);
    const host = hostShare(big, llama3b, 10_000, cache);
    expect(host).toEqual({ weights: 800 * MIB, cache: 0, largestOnGpu: 400 * MIB });
    expect(needsMemory64(host.weights, host.cache)).toBe(false);
    const half = hostShare(big, llama3b, 15, cache);
    expect(needsMemory64(half.weights, half.cache)).toBe(true);
  });
});
