/**
 * A value in Gemma 4's tool-call notation read as JSON text, as llama-server's Gemma 4 parser
 * reads a call's arguments (common/parsers/gemma4.cpp, `gemma4_to_json`): strings between `<|"|>`
 * marks (taken as written, no escapes), dicts `{key:value,…}` with bare keys (any text up to
 * `:`), lists `[…]`, and JSON's numbers, `true`, `false` and `null`.
 *
 * `writeGemmaValue` writes a JSON value in that notation, as Gemma 4's template writes a call's
 * arguments (`format_argument`): keys bare and sorted as Jinja's `dictsort` sorts them (case
 * insensitive, as Python's Jinja and the engine's render; llama-server's Jinja sorts by code point,
 * a FIXME there), no spaces.
 *
 * @example
 * readGemmaValue('{city:<|"|>Paris<|"|>,days:[3]}', 0, true) // { json: '{"city":"Paris","days":[3]}', end: 31 }
 * writeGemmaValue({ days: [3], city: 'Paris' }) // '{city:<|"|>Paris<|"|>,days:[3]}'
 */
import { isRecord } from './is-record';
import type { ValueRead } from './python-literal';

/** Gemma's string mark. */
export const GEMMA_QUOTE = '<|"|>';
const LITERAL = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?)/;

/** `value` (JSON data) in Gemma's notation. */
export function writeGemmaValue(value: unknown): string {
  if (typeof value === 'string') return `${GEMMA_QUOTE}${value}${GEMMA_QUOTE}`;
  if (Array.isArray(value)) return `[${value.map(writeGemmaValue).join(',')}]`;
  if (isRecord(value)) {
    const keys = dictsortKeys(Object.keys(value));
    return `{${keys.map((key) => `${key}:${writeGemmaValue(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `keys` in Jinja's `dictsort` order: by their lower case, ties as they come. */
export function dictsortKeys(keys: readonly string[]): string[] {
  const lower = (key: string) => key.toLowerCase();
  return [...keys].sort((a, b) => (lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : 0));
}

/** The value at `start` (after any whitespace); `final`: the text will not go on. */
export function readGemmaValue(text: string, start: number, final: boolean): ValueRead {
  const i = skipSpace(text, start);
  if (i >= text.length) return final ? null : 'incomplete';
  const rest = text.slice(i);
  if (rest.startsWith(GEMMA_QUOTE)) {
    const end = text.indexOf(GEMMA_QUOTE, i + GEMMA_QUOTE.length);
    if (end < 0) return final ? null : 'incomplete';
    return { json: JSON.stringify(text.slice(i + GEMMA_QUOTE.length, end)), end: end + GEMMA_QUOTE.length };
  }
  if (!final && GEMMA_QUOTE.startsWith(rest)) return 'incomplete';
  if (rest.startsWith('{')) return readItems(text, i + 1, '}', final);
  if (rest.startsWith('[')) return readItems(text, i + 1, ']', final);
  const literal = LITERAL.exec(rest)?.[0];
  if (literal === undefined) return !final && /^-?[\dtruefalsn]*$/.test(rest) ? 'incomplete' : null;
  // Where the text stops in the literal, more of it may come.
  if (!final && i + literal.length === text.length) return 'incomplete';
  return { json: literal, end: i + literal.length };
}

/** A dict's `key:value` items (`}`) or a list's values (`]`), from past its bracket. */
function readItems(text: string, start: number, close: '}' | ']', final: boolean): ValueRead {
  const items: string[] = [];
  let i = start;
  for (;;) {
    i = skipSpace(text, i);
    if (i >= text.length) return final ? null : 'incomplete';
    if (text[i] === close) return { json: close === '}' ? `{${items.join(',')}}` : `[${items.join(',')}]`, end: i + 1 };
    if (items.length > 0) {
      if (text[i] !== ',') return null;
      i = skipSpace(text, i + 1);
    }
    let key = '';
    if (close === '}') {
      const colon = text.indexOf(':', i);
      const brace = text.indexOf('}', i);
      // A key is any text up to its `:`, without a `}`.
      if (brace >= 0 && (colon < 0 || brace < colon)) return null;
      if (colon < 0) return final ? null : 'incomplete';
      key = `${JSON.stringify(text.slice(i, colon))}:`;
      i = colon + 1;
    }
    const read = readGemmaValue(text, i, final);
    if (read === null || read === 'incomplete') return read;
    items.push(key + read.json);
    i = read.end;
  }
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i] ?? '')) i += 1;
  return i;
}
