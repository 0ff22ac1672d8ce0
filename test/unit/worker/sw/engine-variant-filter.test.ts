import { describe, expect, it } from 'vitest';
import { precachesFile } from '../../../../worker/sw/engine-variant-filter';

describe('precachesFile', () => {
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

  it('keeps every other file, whatever the browser', () => {
    for (const url of ['/index.html', '/inpage-llm/engine-worker.js', '/assets/webllm-x.js', '/models/a.wasm'])
      expect([precachesFile(url, true), precachesFile(url, false)]).toEqual([true, true]);
  });
});
