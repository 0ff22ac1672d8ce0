/**
 * The numbers of `npm run bench:media` (bench/media-bench.ts): a side's wall times of one
 * `/completion` with a medium and of the same request as text only, the encode time as the
 * difference of their medians, and the table of both sides at each thread count.
 */
import { fmt, median } from './stats';

/** One side (the page or llama-server) at one thread count, on one pair. */
export interface MediaSide {
  /** The wall time of each measured request with the medium, ms. */
  mediaMs: number[];
  /** The same requests' text-only twins, ms. */
  textMs: number[];
  /** `timings.prompt_ms` of the requests with the medium and of the text-only ones, where the answers had it. */
  mediaPromptMs: number[];
  textPromptMs: number[];
  /** `tokens_evaluated` of the last request with the medium and of the last text-only one. */
  mediaTokens: number;
  textTokens: number;
  /** The threads the side says it ran on (llama-server's log, the page's model card). */
  threads: string;
}

export interface MediaRow {
  /** `inpage-test-vision` or `inpage-test-audio`. */
  model: string;
  medium: string;
  threads: number;
  page: MediaSide;
  native: MediaSide;
}

export const emptySide = (): MediaSide => ({
  mediaMs: [],
  textMs: [],
  mediaPromptMs: [],
  textPromptMs: [],
  mediaTokens: 0,
  textTokens: 0,
  threads: '?',
});

/** The encode time: the median request with the medium less the median text-only one, ms. */
export const encodeMs = (side: MediaSide): number => median(side.mediaMs) - median(side.textMs);

/** The same difference of `timings.prompt_ms` (the prompt's time as each side reports it), ms. */
export const promptEncodeMs = (side: MediaSide): number => median(side.mediaPromptMs) - median(side.textPromptMs);

/** `a / b` where both are above 0 (a difference of noisy medians can be 0 or less), else NaN. */
const ratio = (a: number, b: number): number => (a > 0 && b > 0 ? a / b : NaN);

/** A row's page encode time against llama-server's: above 1 the page is slower. */
export const encodeRatio = (row: MediaRow): number => ratio(encodeMs(row.page), encodeMs(row.native));

/** `side`'s encode time at `threads` against its own at 1 thread (same model), or NaN. */
function againstOne(rows: readonly MediaRow[], row: MediaRow, side: 'page' | 'native'): number {
  const one = rows.find((other) => other.model === row.model && other.threads === 1);
  return one ? ratio(encodeMs(row[side]), encodeMs(one[side])) : NaN;
}

/** The Markdown table: per model and thread count, encode ms and ratios, and the medians behind them. */
export function mediaTable(rows: readonly MediaRow[], rounds: number): string {
  const header = [
    'model (medium)',
    'threads (page / native)',
    'prompt tokens (media / text)',
    'page encode ms',
    'native encode ms',
    'page / native',
    'page, N / 1 threads',
    'native, N / 1 threads',
    'page ms, media / text',
    'native ms, media / text',
    'prompt_ms, media - text: page / native',
  ];
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const times = (value: number) => (Number.isFinite(value) ? `${fmt(value, 2)}x` : '-');
  const pair = (a: number, b: number, digits = 0) => `${fmt(a, digits)} / ${fmt(b, digits)}`;
  const body = rows.map((row) =>
    line([
      `${row.model} (${row.medium})`,
      `${row.threads} (${row.page.threads} / ${row.native.threads})`,
      `${row.page.mediaTokens} / ${row.page.textTokens}` +
        (row.native.mediaTokens === row.page.mediaTokens ? '' : ` (native ${row.native.mediaTokens})`),
      fmt(encodeMs(row.page)),
      fmt(encodeMs(row.native)),
      times(encodeRatio(row)),
      row.threads === 1 ? '-' : times(againstOne(rows, row, 'page')),
      row.threads === 1 ? '-' : times(againstOne(rows, row, 'native')),
      pair(median(row.page.mediaMs), median(row.page.textMs)),
      pair(median(row.native.mediaMs), median(row.native.textMs)),
      pair(promptEncodeMs(row.page), promptEncodeMs(row.native)),
    ]),
  );
  return [
    `Encode time (medians of ${rounds}; the encode time is a request with the medium less the same text only)`,
    '',
    line(header),
    line(header.map(() => '---')),
    ...body,
  ].join('\n');
}
