/** The encode time and table of `npm run bench:media` (bench/media-table.ts). */
import { describe, expect, it } from 'vitest';
import {
  emptySide,
  encodeMs,
  encodeRatio,
  mediaTable,
  promptEncodeMs,
  type MediaRow,
} from '../../../bench/media-table';

const side = (mediaMs: number[], textMs: number[], threads: string, prompt: [number[], number[]] = [[], []]) => ({
  ...emptySide(),
  mediaMs,
  textMs,
  mediaPromptMs: prompt[0],
  textPromptMs: prompt[1],
  mediaTokens: 25,
  textTokens: 9,
  threads,
});

const row = (threads: number, page: number, native: number): MediaRow => ({
  model: 'inpage-test-vision',
  medium: 'image',
  threads,
  page: side([50 + page, 50 + page, 900], [50, 51, 49], `${threads}/${threads}`, [[page + 5], [5]]),
  native: side([10 + native], [10], String(threads)),
});

describe('media encode time', () => {
  it('is the median request with the medium less the median text-only one', () => {
    expect(encodeMs(side([30, 10, 20, 1000], [4, 6, 5], '1'))).toBe(30 - 5);
    expect(promptEncodeMs(side([], [], '1', [[12, 14, 13], [3]]))).toBe(10);
    expect(encodeRatio(row(1, 40, 20))).toBe(2);
  });

  it('is NaN, and a dash in the table, where a side has no samples', () => {
    expect(encodeMs(emptySide())).toBeNaN();
    expect(mediaTable([{ ...row(1, 40, 20), native: emptySide() }], 5)).toContain('| 40 | - | - |');
  });

  it('has no ratio where an encode time is 0 or less (noise larger than the encode)', () => {
    expect(encodeRatio(row(1, 40, -2))).toBeNaN();
    expect(mediaTable([row(1, 40, 0)], 5)).toContain('| 40 | 0 | - |');
  });

  it('tables each row with its ratio to llama-server and, past one thread, to its own one-thread time', () => {
    const table = mediaTable([row(1, 40, 20), row(2, 40, 10)], 5).split('\n');
    expect(table[0]).toContain('medians of 5');
    expect(table).toHaveLength(6);
    expect(table[4]).toBe(
      '| inpage-test-vision (image) | 1 (1/1 / 1) | 25 / 9 | 40 | 20 | 2.00x | - | - | 90 / 50 | 30 / 10 | 40 / - |',
    );
    expect(table[5]).toContain('| 2 (2/2 / 2) | 25 / 9 | 40 | 10 | 4.00x | 1.00x | 0.50x |');
  });
});
