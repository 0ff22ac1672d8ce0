import { describe, expect, it } from 'vitest';
import { precachesFile } from '../../../../worker/sw/engine-variant-filter';

describe('precachesFile', () => {
  /** Whether `url` is kept: [threads+relaxed, threads+simd, relaxed, simd]. */
  const all = (url: string) =>
    [true, false].flatMap((threads) => [true, false].map((r) => precachesFile(url, r, threads)));

  const wasm = [
    'https://a.test/assets/llama-engine-Bx3_k9aQ.wasm',
    'https://a.test/inpage-llm/llama-engine.wasm',
    '/app/inpage-llm/dist/inpage-llm/llama-engine.wasm',
  ];
  const relaxed = [
    'https://a.test/assets/llama-engine-relaxed-Q-12abCd.wasm',
    'https://a.test/inpage-llm/llama-engine-relaxed.wasm',
  ];

  it('keeps only the engine build the browser runs: the relaxed one where relaxed SIMD validates', () => {
    for (const url of wasm) expect([precachesFile(url, true), precachesFile(url, false)]).toEqual([false, true]);
    for (const url of relaxed) expect([precachesFile(url, true), precachesFile(url, false)]).toEqual([true, false]);
  });

  it('keeps the pthreads builds and their loader only where pages get threads, each by its SIMD', () => {
    const mt = [
      'https://a.test/assets/llama-engine-simd-mt-Bx3_k9aQ.wasm',
      'https://a.test/inpage-llm/llama-engine-mt.wasm',
    ];
    const relaxedMt = [
      'https://a.test/assets/llama-engine-relaxed-mt-Q-12abCd.wasm',
      'https://a.test/inpage-llm/llama-engine-relaxed-mt.wasm',
    ];
    const loader = ['https://a.test/assets/llama-engine-mt-D1x9.mjs', 'https://a.test/inpage-llm/llama-engine-mt.mjs'];
    for (const url of mt) expect(all(url)).toEqual([false, true, false, false]);
    for (const url of relaxedMt) expect(all(url)).toEqual([true, false, false, false]);
    for (const url of loader) expect(all(url)).toEqual([true, true, false, false]);
    for (const url of wasm) expect(all(url)).toEqual([false, true, false, true]);
    for (const url of relaxed) expect(all(url)).toEqual([true, false, true, false]);
  });

  it('never keeps the WebGPU build or its loader (the engine asks the GPU; the SW does not)', () => {
    const webgpu = [
      'https://a.test/inpage-llm/llama-engine-webgpu.wasm',
      'https://a.test/inpage-llm/llama-engine-webgpu.mjs',
      'https://a.test/assets/llama-engine-webgpu-Bx3_k9aQ.wasm',
      'https://a.test/assets/llama-engine-webgpu-D1x9.mjs',
    ];
    for (const url of webgpu) expect(all(url)).toEqual([false, false, false, false]);
  });

  it('never keeps the memory64 builds or their loaders (only a model past wasm32 fetches one)', () => {
    const m64 = [
      'https://a.test/inpage-llm/llama-engine-m64.wasm',
      'https://a.test/inpage-llm/llama-engine-relaxed-m64.wasm',
      'https://a.test/inpage-llm/llama-engine-m64-mt.wasm',
      'https://a.test/inpage-llm/llama-engine-relaxed-m64-mt.wasm',
      'https://a.test/inpage-llm/llama-engine-m64.mjs',
      'https://a.test/inpage-llm/llama-engine-m64-mt.mjs',
      'https://a.test/assets/llama-engine-simd-m64-Bx3_k9aQ.wasm',
      'https://a.test/assets/llama-engine-relaxed-m64-mt-Q-12abCd.wasm',
      'https://a.test/assets/llama-engine-m64-mt-D1x9.mjs',
    ];
    for (const url of m64) expect(all(url)).toEqual([false, false, false, false]);
  });

  it('keeps every other file, whatever the browser', () => {
    for (const url of ['/index.html', '/inpage-llm/engine-worker.js', '/assets/webllm-x.js', '/models/a.wasm'])
      expect([precachesFile(url, true), precachesFile(url, false)]).toEqual([true, true]);
  });
});
