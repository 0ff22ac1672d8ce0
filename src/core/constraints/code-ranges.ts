/**
 * Sets of Unicode code points as sorted, merged, inclusive ranges: what regex classes
 * (`[a-z]`, `\d`, `.`) denote before they become GBNF character classes.
 */
import type { CodeRange } from './gbnf-literal';

export const MAX_CODE_POINT = 0x10ffff;

/** Sorts and merges overlapping or adjacent ranges. */
export function normalizeRanges(ranges: readonly CodeRange[]): CodeRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** Every code point not in `ranges`. */
export function complementRanges(ranges: readonly CodeRange[]): CodeRange[] {
  const out: CodeRange[] = [];
  let next = 0;
  for (const [lo, hi] of normalizeRanges(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** Code points of `ranges` that are not in `remove`. */
export function subtractRanges(ranges: readonly CodeRange[], remove: readonly CodeRange[]): CodeRange[] {
  const keep = complementRanges(remove);
  const out: CodeRange[] = [];
  for (const [lo, hi] of normalizeRanges(ranges)) {
    for (const [klo, khi] of keep) {
      const a = Math.max(lo, klo);
      const b = Math.min(hi, khi);
      if (a <= b) out.push([a, b]);
    }
  }
  return out;
}

/** Whether `cp` lies in one of `ranges`. */
export function rangesContain(ranges: readonly CodeRange[], cp: number): boolean {
  return ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
}

/** `\d`, `\w`, `\s` as JavaScript defines them (`\s` with its Unicode spaces). */
export const DIGIT: readonly CodeRange[] = [[0x30, 0x39]];
export const WORD: readonly CodeRange[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
export const SPACE: readonly CodeRange[] = normalizeRanges([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
/** `.`: anything but line terminators. */
export const DOT: readonly CodeRange[] = complementRanges([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]);
