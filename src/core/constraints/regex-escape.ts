/**
 * One backslash escape of a regular expression (JavaScript syntax): a code point (`\n`,
 * `\x41`, `\u{1F600}`, `\.`) or a set (`\d \w \s` and negations). Word boundaries,
 * backreferences and Unicode properties are refused with a 400.
 */
import type { CodeRange } from './gbnf-literal';
import { complementRanges, DIGIT, SPACE, WORD } from './code-ranges';
import { regexError } from './regex-error';

/** What an escape stands for, and where parsing resumes. */
export type RegexEscape =
  { readonly cp: number; readonly next: number } | { readonly ranges: readonly CodeRange[]; readonly next: number };

const CONTROL: Readonly<Record<string, number>> = { t: 9, n: 10, v: 11, f: 12, r: 13, '0': 0 };
const SETS: Readonly<Record<string, readonly CodeRange[]>> = { d: DIGIT, w: WORD, s: SPACE };

function hex(src: string, from: number, length: number, param: string): number {
  const digits = src.slice(from, from + length);
  if (digits.length !== length || !/^[0-9a-fA-F]+$/.test(digits))
    throw regexError(param, from, `expected ${length} hex digits`);
  return Number.parseInt(digits, 16);
}

/** Reads the escape whose backslash is at `pos`. `inClass`: `\b` is backspace there. */
export function parseEscape(src: string, pos: number, inClass: boolean, param: string): RegexEscape {
  const ch = src[pos + 1];
  const next = pos + 2;
  if (ch === undefined) throw regexError(param, pos, 'trailing backslash');
  const set = SETS[ch.toLowerCase()];
  if (set) return { ranges: ch === ch.toLowerCase() ? set : complementRanges(set), next };
  const control = CONTROL[ch];
  if (control !== undefined && !(ch === '0' && /[0-9]/.test(src[next] ?? ''))) return { cp: control, next };
  if (ch === 'b' && inClass) return { cp: 8, next };
  if (ch === 'x') return { cp: hex(src, next, 2, param), next: next + 2 };
  if (ch === 'u' && src[next] === '{') {
    const end = src.indexOf('}', next);
    if (end < 0) throw regexError(param, pos, 'unterminated \\u{...}');
    const cp = hex(src, next + 1, end - next - 1, param);
    if (cp > 0x10ffff) throw regexError(param, pos, 'code point out of range');
    return { cp, next: end + 1 };
  }
  if (ch === 'u') return { cp: hex(src, next, 4, param), next: next + 4 };
  if (ch === 'b' || ch === 'B')
    throw regexError(param, pos, `word boundary '\\${ch}' is not supported`, 'unsupported_regex');
  if (/[1-9]/.test(ch) || ch === 'k')
    throw regexError(param, pos, `backreference '\\${ch}' is not supported`, 'unsupported_regex');
  if (ch === 'p' || ch === 'P')
    throw regexError(param, pos, `Unicode property escape '\\${ch}' is not supported`, 'unsupported_regex');
  if (ch === 'c') throw regexError(param, pos, "control escape '\\c' is not supported", 'unsupported_regex');
  if (/[A-Za-z0-9]/.test(ch)) throw regexError(param, pos, `unknown escape '\\${ch}'`);
  const cp = src.codePointAt(pos + 1) ?? 0;
  return { cp, next: pos + (cp > 0xffff ? 3 : 2) };
}
