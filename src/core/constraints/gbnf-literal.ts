/**
 * Escaping text for GBNF: quoted literals (`"..."`) and character-class members (`[...]`),
 * in the escapes llama.cpp's grammar parser understands (`\\ \" \n \r \t \xHH \uHHHH`).
 */

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

function hexEscape(cp: number): string {
  if (cp <= 0xff) return `\\x${cp.toString(16).toUpperCase().padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return `\\U${cp.toString(16).toUpperCase().padStart(8, '0')}`;
}

/** One code point as it may appear inside a GBNF literal or class; `special` are escaped too. */
export function escapeCodePoint(cp: number, special: string): string {
  const ch = String.fromCodePoint(cp);
  const named = NAMED[ch];
  if (named) return named;
  if (special.includes(ch)) return hexEscape(cp);
  if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0)) return hexEscape(cp);
  return ch;
}

/** A GBNF quoted literal matching exactly `text` (`""` for the empty string). */
export function gbnfLiteral(text: string): string {
  let out = '"';
  for (const ch of text) out += ch === '"' ? '\\"' : escapeCodePoint(ch.codePointAt(0) ?? 0, '');
  return `${out}"`;
}

/** A class member (code point) escaped so `]`, `[`, `^`, `-` and `\` stay literal (non-ASCII as `\u`). */
export function classMember(cp: number): string {
  return cp >= 0x7f ? hexEscape(cp) : escapeCodePoint(cp, ']-^[');
}

/** Inclusive code point ranges. */
export type CodeRange = readonly [number, number];

/** A GBNF character class over the given ranges, negated with `[^...]` when `negated`. */
export function gbnfClass(ranges: readonly CodeRange[], negated = false): string {
  const body = ranges
    .map(([lo, hi]) => (lo === hi ? classMember(lo) : `${classMember(lo)}-${classMember(hi)}`))
    .join('');
  return `[${negated ? '^' : ''}${body}]`;
}
