/**
 * The llama.cpp engine's threads: how many read a prompt (`prefill`, llama.cpp's `-tb`) and how
 * many decode (`decode`, its `-t`). More than one needs the pthreads build, which runs only where
 * the page is `crossOriginIsolated` (shared memory); elsewhere the engine runs one thread.
 * A page asks with `startInpage({ threads })`, the drop-in's `data-threads`, the playground's
 * `&threads=`: `{ prefill, decode }` sets each; a number N is N for both, as llama.cpp's `-t N`
 * is: `npm run bench:threads` found decoding on every thread faster than on one, from a 16 MB to
 * an 800 MB model, and decoding on one thread of the pthreads build slower (docs/threads.md).
 */
import { InvalidRequestError } from './errors';

export interface ThreadCounts {
  prefill: number;
  decode: number;
}

/** What a page may pass: a count (prompts and decoding), or each. */
export type ThreadsOption = number | ThreadCounts;

/** ggml's pool is sized by the page's request; past this many threads prefill stops scaling on any laptop. */
export const MAX_THREADS = 16;

/**
 * The default where the page sets none: half the logical cores (one per physical core, as
 * llama.cpp's default), at most 8, for prompts and decoding. Half, not all: the other half is
 * left to the page, the browser and the rest of the machine, since ggml's threads spin at every
 * barrier and lose far more than one thread's share when a core is taken (docs/threads.md).
 */
export function defaultThreads(hardwareConcurrency: number): ThreadCounts {
  return both(Math.max(1, Math.min(8, Math.floor(hardwareConcurrency / 2))));
}

/** `threads` threads for prompts and for decoding. */
const both = (threads: number): ThreadCounts => ({ prefill: threads, decode: threads });

function count(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_THREADS) return value;
  throw new InvalidRequestError(
    `${field}: ${JSON.stringify(value)} is not a thread count: use an integer from 1 to ${MAX_THREADS}.`,
    field,
  );
}

/** `value` as thread counts; throws a 400 naming `field` for anything else. */
export function readThreads(value: unknown, field: string): ThreadCounts {
  if (typeof value === 'number') return both(count(value, field));
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fields = new Map<string, unknown>(Object.entries(value));
    const extra = [...fields.keys()].find((key) => key !== 'prefill' && key !== 'decode');
    if (extra !== undefined)
      throw new InvalidRequestError(`${field}.${extra} is not a thread setting: use prefill and decode.`, field);
    return {
      prefill: count(fields.get('prefill'), `${field}.prefill`),
      decode: count(fields.get('decode'), `${field}.decode`),
    };
  }
  throw new InvalidRequestError(
    `${field}: ${JSON.stringify(value)} is not a thread count: use an integer, or { prefill, decode }.`,
    field,
  );
}

/** `&threads=` and `data-threads`: `N` (as the number), or `P/D` (prefill/decode). */
export function parseThreads(text: string, field: string): ThreadCounts {
  const parts = text
    .trim()
    .split('/')
    .map((part) => part.trim());
  if (parts.length <= 2 && parts.every((part) => /^\d+$/.test(part))) {
    const [prefill = 0, decode] = parts.map(Number);
    return readThreads(decode === undefined ? prefill : { prefill, decode }, field);
  }
  throw new InvalidRequestError(`${field}: "${text}" is not a thread count: use N, or P/D (prompts/decoding).`, field);
}
