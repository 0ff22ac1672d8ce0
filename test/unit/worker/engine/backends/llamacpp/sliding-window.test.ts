/** Sliding-window layers and their cells (sliding-window.ts), as llama.cpp counts them. */
import { describe, expect, it } from 'vitest';
import {
  slidingCells,
  slidingLayers,
  slidingWindow,
} from '../../../../../../worker/engine/backends/llamacpp/sliding-window';

const model = (arch: string, entries: Array<[string, number | boolean[]]>) =>
  new Map<string, string | number | boolean[]>([
    ['general.architecture', arch],
    ...entries.map(([key, value]): [string, number | boolean[]] => [`${arch}.${key}`, value]),
  ]);

describe('slidingLayers', () => {
  it("follows the architecture's pattern: the last of each group full-size, or the first where dense-first", () => {
    expect(slidingLayers(model('gemma3', [['attention.sliding_window', 1024]]), 34)).toBe(29);
    expect(slidingLayers(model('gpt-oss', [['attention.sliding_window', 128]]), 24)).toBe(12);
    // cohere2moe: layers 0 and 4 full-size.
    expect(slidingLayers(model('cohere2moe', [['attention.sliding_window', 4096]]), 8)).toBe(6);
  });

  it("takes the GGUF's pattern: a number in the architecture's order, or a flag per layer", () => {
    expect(
      slidingLayers(
        model('olmo2', [
          ['attention.sliding_window', 16],
          ['attention.sliding_window_pattern', 3],
        ]),
        6,
      ),
    ).toBe(4);
    const flags = [true, false, true, true];
    expect(
      slidingLayers(
        model('gemma3', [
          ['attention.sliding_window', 512],
          ['attention.sliding_window_pattern', flags],
        ]),
        4,
      ),
    ).toBe(3);
  });

  it("Gemma 2's window defaults to 4,096; no window, or an architecture without a pattern here: none", () => {
    expect(slidingWindow(model('gemma2', []))).toBe(4096);
    expect(slidingLayers(model('gemma2', []), 42)).toBe(21);
    expect(slidingLayers(model('gemma3', []), 34)).toBe(0);
    expect(slidingLayers(model('llama', [['attention.sliding_window', 8192]]), 32)).toBe(0);
  });
});

describe('slidingCells', () => {
  it('holds the window and a micro-batch, at most the stream, padded to 256 (llama-kv-cache-iswa.cpp)', () => {
    const gemma3 = model('gemma3', [['attention.sliding_window', 1024]]);
    expect(slidingCells(gemma3, 8192, 512)).toBe(1536);
    expect(slidingCells(gemma3, 8192, 64)).toBe(1280);
    expect(slidingCells(gemma3, 1000, 512)).toBe(1024);
    // The test model inpage-test-swa: a window of 16 (native/load.cpp's comment: 768 cells).
    expect(slidingCells(model('olmo2', [['attention.sliding_window', 16]]), 4096, 512)).toBe(768);
  });
});
