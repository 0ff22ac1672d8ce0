/**
 * A Python literal (or JSON, which LFM2's models write too) read as JSON text, as llama-server's
 * LFM2 parser takes a call's argument values (common/chat-peg-parser.cpp, `python_or_json_value`):
 * strings in single or double quotes, numbers, `True`/`False`/`None` and `true`/`false`/`null`,
 * dicts with string keys, lists and tuples. Numbers keep their text where it is JSON's.
 *
 * @example
 * readPythonValue("{'a': [1, True, None]}, x", 0, true) // { json: '{"a":[1,true,null]}', end: 22 }
 * readPythonValue("'Par", 0, false) // 'incomplete'
 */

/** A value read: its JSON and the index past it; `incomplete` where the text ends first; null: no value there. */
export type ValueRead = { readonly json: string; readonly end: number } | 'incomplete' | null;

const KEYWORDS: Readonly<Record<string, string>> = {
  True: 'true',
  False: 'false',
  None: 'null',
  true: 'true',
  false: 'false',
  null: 'null',
};
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' };
const NUMBER = /^-?(?:\d[\d_]*)?(?:\.\d*)?(?:[eE][-+]?\d+)?/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/;

/** The value at `start` (after any whitespace); `final`: the text will not go on. */
export function readPythonValue(text: string, start: number, final: boolean): ValueRead {
  let i = start;
  while (i < text.length && /\s/.test(text[i] ?? '')) i += 1;
  if (i >= text.length) return final ? null : 'incomplete';
  const c = text[i] ?? '';
  if (c === "'" || c === '"') return readString(text, i);
  if (c === '{') return readItems(text, i + 1, '}', final, true);
  if (c === '[' || c === '(') return readItems(text, i + 1, c === '[' ? ']' : ')', final, false);
  const word = /^[A-Za-z]+/.exec(text.slice(i))?.[0];
  if (word !== undefined) {
    const json = KEYWORDS[word];
    const end = i + word.length;
    if (end === text.length && !final)
      return Object.keys(KEYWORDS).some((k) => k.startsWith(word)) ? 'incomplete' : null;
    return json === undefined ? null : { json, end };
  }
  const number = NUMBER.exec(text.slice(i))?.[0] ?? '';
  if (!/\d/.test(number)) return !final && i + number.length === text.length ? 'incomplete' : null;
  const end = i + number.length;
  // Where the text stops in the number (or in its exponent's start), more of it may come.
  if (!final && /^(?:[eE][-+]?)?$/.test(text.slice(end))) return 'incomplete';
  const plain = number.replaceAll('_', '');
  return { json: JSON_NUMBER.test(plain) ? plain : JSON.stringify(Number(plain)), end };
}

/** A quoted string from its quote at `start`, its escapes read as Python's. */
function readString(text: string, start: number): ValueRead {
  const quote = text[start];
  let value = '';
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text[i] ?? '';
    if (c === quote) return { json: JSON.stringify(value), end: i + 1 };
    if (c !== '\\') {
      value += c;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) return 'incomplete';
    if (next === 'u' || next === 'x') {
      const digits = text.slice(i + 2, i + (next === 'u' ? 6 : 4));
      if (digits.length < (next === 'u' ? 4 : 2)) return 'incomplete';
      value += String.fromCharCode(Number.parseInt(digits, 16));
      i += 1 + digits.length;
    } else {
      // Python keeps the backslash of an escape it does not know.
      value += ESCAPES[next] ?? (`'"\\/\n`.includes(next) ? next : `\\${next}`);
      i += 1;
    }
  }
  return 'incomplete';
}

/** The items of a dict (`key: value`) or a list, from past its bracket to `close`. */
function readItems(text: string, start: number, close: string, final: boolean, dict: boolean): ValueRead {
  const items: string[] = [];
  let i = start;
  for (;;) {
    while (i < text.length && /\s/.test(text[i] ?? '')) i += 1;
    if (i >= text.length) return final ? null : 'incomplete';
    if (text[i] === close) return { json: dict ? `{${items.join(',')}}` : `[${items.join(',')}]`, end: i + 1 };
    if (items.length > 0) {
      if (text[i] !== ',') return null;
      i += 1;
      while (i < text.length && /\s/.test(text[i] ?? '')) i += 1;
      if (text[i] === close) continue; // A trailing comma.
    }
    let key = '';
    if (dict) {
      const read = readPythonValue(text, i, final);
      if (read === null || read === 'incomplete') return read;
      if (!read.json.startsWith('"')) return null;
      i = read.end;
      while (i < text.length && /\s/.test(text[i] ?? '')) i += 1;
      if (i >= text.length) return final ? null : 'incomplete';
      if (text[i] !== ':') return null;
      key = `${read.json}:`;
      i += 1;
    }
    const read = readPythonValue(text, i, final);
    if (read === null || read === 'incomplete') return read;
    items.push(key + read.json);
    i = read.end;
  }
}
