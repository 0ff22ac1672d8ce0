import { describe, expect, it } from 'vitest';
import { modelParts, splitOf } from '../../../../../worker/engine/model-store/split-parts';

describe('split GGUF parts', () => {
  it("lists a split model's parts from its first part's URL, mounted under llama.cpp's names", () => {
    const parts = modelParts('https://cdn.example/m/Q4-00001-of-00003.gguf?x=1', 'ab'.repeat(32));
    expect(parts.map((part) => part.url)).toEqual([
      'https://cdn.example/m/Q4-00001-of-00003.gguf?x=1',
      'https://cdn.example/m/Q4-00002-of-00003.gguf?x=1',
      'https://cdn.example/m/Q4-00003-of-00003.gguf?x=1',
    ]);
    expect(parts.map((part) => part.name)).toEqual([
      'model-00001-of-00003.gguf',
      'model-00002-of-00003.gguf',
      'model-00003-of-00003.gguf',
    ]);
    expect(parts.map((part) => part.sha256)).toEqual(['ab'.repeat(32), null, null]);
  });

  it('keeps a file that is not split as one, named model.gguf', () => {
    expect(modelParts('https://x.example/a.gguf')).toEqual([
      { url: 'https://x.example/a.gguf', name: 'model.gguf', sha256: null },
    ]);
    expect(splitOf('https://x.example/a-00001-of-00001.gguf')).toBeNull();
    expect(splitOf('https://x.example/a-00002-of-00004.gguf')).toEqual({ index: 2, count: 4 });
  });
});
