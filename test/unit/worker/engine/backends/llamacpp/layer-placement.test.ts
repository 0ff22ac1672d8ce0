/** Where llama.cpp puts each tensor for n_gpu_layers (layer-placement.ts), read from the tensor table before the load. */
import { describe, expect, it } from 'vitest';
import { placeLayers } from '../../../../../../worker/engine/backends/llamacpp/layer-placement';

/** Three layers whose FFN matrices (300) outweigh the output matrix (250); the input's (2000) the largest of all. */
const tensors = [
  { name: 'token_embd.weight', bytes: 2000n },
  ...[0, 1, 2].flatMap((i) => [
    { name: `blk.${i}.attn_norm.weight`, bytes: 4n },
    { name: `blk.${i}.ffn_down.weight`, bytes: 300n },
  ]),
  { name: 'output_norm.weight', bytes: 4n },
  { name: 'output.weight', bytes: 250n },
];

describe('placeLayers', () => {
  it('leaves the input layer on the CPU, so its tensor is not the largest on the GPU', () => {
    expect(placeLayers(tensors, 3, 10_000)).toEqual({ cpuBytes: 2000, largestOnGpu: 300, cpuLayers: 0 });
  });

  it('offloads the output layer first, then the last layers (llama.cpp -ngl)', () => {
    expect(placeLayers(tensors, 3, 1)).toEqual({ cpuBytes: 2000 + 3 * 304, largestOnGpu: 250, cpuLayers: 3 });
    expect(placeLayers(tensors, 3, 2)).toEqual({ cpuBytes: 2000 + 2 * 304, largestOnGpu: 300, cpuLayers: 2 });
    expect(placeLayers(tensors, 3, 4)).toEqual({ cpuBytes: 2000, largestOnGpu: 300, cpuLayers: 0 });
    expect(placeLayers(tensors, 3, 0)).toEqual({ cpuBytes: 2000 + 3 * 304 + 254, largestOnGpu: 0, cpuLayers: 3 });
  });

  it('puts token_embd on the GPU too where tied embeddings make it the output layer', () => {
    const tied = tensors.filter((tensor) => tensor.name !== 'output.weight');
    expect(placeLayers(tied, 3, 1)).toEqual({ cpuBytes: 2000 + 3 * 304, largestOnGpu: 2000, cpuLayers: 3 });
    expect(placeLayers(tied, 3, 0).largestOnGpu).toBe(0);
  });

  it('counts a tensor outside the layers as the input layer’s', () => {
    const extra = [...tensors, { name: 'rope_freqs.weight', bytes: 9n }];
    expect(placeLayers(extra, 3, 10_000).cpuBytes).toBe(2009);
  });
});
