/**
 * GBNF for decimal integers within bounds (JSON Schema `minimum`/`maximum` on `integer`):
 * no leading zeros, `-` for negatives, and at most 16 digits, like llama.cpp's
 * `integral-part`. Either bound may be absent.
 */

const MAX_DIGITS = 16;

function alt(parts: string[]): string {
  const kept = parts.filter((p) => p !== '');
  if (kept.length === 0) return '';
  return kept.length === 1 ? (kept[0] as string) : `(${kept.join(' | ')})`;
}

function digitClass(lo: string, hi: string): string {
  return lo === hi ? `"${lo}"` : lo === '0' && hi === '9' ? '[0-9]' : `[${lo}-${hi}]`;
}

function anyDigits(n: number): string {
  return n === 0 ? '' : n === 1 ? '[0-9]' : `[0-9]{${n}}`;
}

/** Digit strings of one length between `a` and `b` (inclusive, same length, a <= b). */
function sameLength(a: string, b: string): string {
  if (a.length === 0) return '';
  const rest = a.length - 1;
  const [a0, b0] = [a[0] as string, b[0] as string];
  const tailA = a.slice(1);
  const tailB = b.slice(1);
  if (a0 === b0) return [`"${a0}"`, sameLength(tailA, tailB)].filter(Boolean).join(' ');
  const lowFull = /^0*$/.test(tailA);
  const highFull = /^9*$/.test(tailB);
  const loDigit = lowFull ? a0 : String(Number(a0) + 1);
  const hiDigit = highFull ? b0 : String(Number(b0) - 1);
  const parts: string[] = [];
  if (!lowFull) parts.push([`"${a0}"`, sameLength(tailA, '9'.repeat(rest))].filter(Boolean).join(' '));
  if (Number(loDigit) <= Number(hiDigit))
    parts.push([digitClass(loDigit, hiDigit), anyDigits(rest)].filter(Boolean).join(' '));
  if (!highFull) parts.push([`"${b0}"`, sameLength('0'.repeat(rest), tailB)].filter(Boolean).join(' '));
  return alt(parts);
}

/** Non-negative integers in [lo, hi]; `hi` undefined: no upper bound (up to 16 digits). */
export function unsignedRange(lo: number, hi?: number): string {
  const top = hi === undefined ? 10 ** MAX_DIGITS - 1 : hi;
  if (lo > top) return '';
  const parts: string[] = [];
  for (let len = String(lo).length; len <= String(top).length; len++) {
    const from = Math.max(lo, len === 1 ? 0 : 10 ** (len - 1));
    const to = Math.min(top, 10 ** len - 1);
    if (hi === undefined && from === 10 ** (len - 1) && len > 1) {
      parts.push(`[1-9] [0-9]{${len - 1},${MAX_DIGITS - 1}}`);
      break;
    }
    parts.push(sameLength(String(from), String(to)));
  }
  return alt(parts);
}

/** Integers in [min, max] (either may be undefined); '' when the range is empty. */
export function integerRange(min?: number, max?: number): string {
  const parts: string[] = [];
  if (min === undefined || min < 0) {
    // negatives -k with k in [max(1, -max), -min]
    const kLo = max === undefined || max >= 0 ? 1 : -max;
    const kHi = min === undefined ? undefined : -min;
    const magnitude = unsignedRange(kLo, kHi);
    if (magnitude !== '')
      parts.push(`"-" ${magnitude.includes(' | ') && !magnitude.startsWith('(') ? `(${magnitude})` : magnitude}`);
  }
  if (max === undefined || max >= 0) {
    const positive = unsignedRange(Math.max(0, min ?? 0), max);
    if (positive !== '') parts.push(positive);
  }
  return alt(parts);
}
