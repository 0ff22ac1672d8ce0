import { describe, expect, it } from 'vitest';
import { isWebLLMChunk, isWebLLMChunkPath } from '../../../../../src/core/domain/webllm-chunk-name';

describe('the WebLLM chunk name', () => {
  it('is given to the chunk that holds @mlc-ai/web-llm', () => {
    expect(isWebLLMChunk(['/app/node_modules/@mlc-ai/web-llm/lib/index.js'])).toBe(true);
    expect(isWebLLMChunk(['/app/node_modules/@wllama/wllama/esm/index.js', '/app/src/a.ts'])).toBe(false);
  });

  it('is recognised in request paths, hashed (playground) or not (drop-in)', () => {
    expect(isWebLLMChunkPath('/assets/webllm-DBWAiD2g.js')).toBe(true);
    expect(isWebLLMChunkPath('/static/inpage-llm/webllm.js')).toBe(true);
    for (const other of ['/assets/engine-worker-CWIy6y2r.js', '/assets/webllm-x.wasm', '/webllm.json', '/mywebllm.js'])
      expect(isWebLLMChunkPath(other)).toBe(false);
  });
});
