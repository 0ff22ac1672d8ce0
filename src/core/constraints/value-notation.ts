/**
 * How a schema's values are written: JSON (llama.cpp's json-schema-to-grammar rules); Gemma 4's
 * tool-call notation (strings between `<|"|>` marks with no escapes, bare keys in `dictsort` order,
 * JSON's numbers, `true`, `false`, `null`), which the schema converter also writes so a strict
 * tool's arguments on Gemma 4 are held to their schema; or plain text, for a string a tagged or XML
 * call writes as it is (`textNotation`: no marks, no whitespace after, some characters left out).
 * The schema converter asks its notation for every piece that is not the same in all (strings,
 * keys, literals, any value, the whitespace after a value).
 *
 * @example
 * const rules = new GbnfRules();
 * GEMMA_NOTATION.literal(['a', 1]) // '"[<|\\"|>a<|\\"|>,1]" space'
 * GEMMA_NOTATION.any(rules, 'string') // 'gemma4-string' (its rules added)
 * textNotation([[0x3c, 0x3c]]).literal('a', 'b') // '("a" | "b")'
 */
import { GEMMA_QUOTE, writeGemmaValue } from '../util/gemma-value';
import type { CodeRange } from './gbnf-literal';
import { gbnfClass, gbnfLiteral } from './gbnf-literal';
import type { GbnfRules } from './gbnf-rules';
import { primitiveBody, usePrimitive } from './json-primitives';
import { untilTag } from './until-tag';

/** A string format with a built-in rule. */
export type StringFormat = 'uuid' | 'date' | 'time' | 'date-time';

export interface ValueNotation {
  /** Adds the rule of any value of `kind`; returns its name. */
  any(rules: GbnfRules, kind: 'string' | 'value' | 'object'): string;
  /** `values` (a `const`'s or an `enum`'s) as alternatives, then the whitespace after a value. */
  literal(...values: unknown[]): string;
  /** The rule of the whitespace after a value (JSON's `space`), or '' where none may follow. */
  readonly space: 'space' | '';
  /** Property `key` and its colon, as GBNF. */
  key(key: string): string;
  /** Any key and its colon (of `additionalProperties`), as GBNF. */
  anyKey(rules: GbnfRules): string;
  /** The mark around a string, as GBNF. */
  readonly quote: string;
  /** One character of a string with a length bound; returns its rule name. */
  char(rules: GbnfRules): string;
  /** A string in `format`; returns its rule name. */
  format(rules: GbnfRules, format: StringFormat): string;
  /** How a `pattern` is written between the marks: JSON-escaped, and the code points its sets leave out. */
  readonly pattern: { readonly json: boolean; readonly exclude: readonly CodeRange[] };
  /** Whether an object's properties are written in key order (Gemma's template sorts them), not required first. */
  readonly sortedKeys: boolean;
}

const alternatives = (texts: readonly string[], space: 'space' | '' = 'space') =>
  `${texts.length === 1 ? '' : '('}${texts.map(gbnfLiteral).join(' | ')}${texts.length === 1 ? '' : ')'}${space === '' ? '' : ` ${space}`}`;

export const JSON_NOTATION: ValueNotation = {
  any: (rules, kind) => usePrimitive(rules, kind),
  literal: (...values) => alternatives(values.map((value) => JSON.stringify(value))),
  space: 'space',
  key: (key) => `${gbnfLiteral(JSON.stringify(key))} space ":" space`,
  anyKey: (rules) => `${usePrimitive(rules, 'string')} ":" space`,
  quote: '"\\""',
  char: (rules) => usePrimitive(rules, 'char'),
  format: (rules, format) => usePrimitive(rules, format),
  pattern: { json: true, exclude: [] },
  sortedKeys: false,
};

const QUOTE = gbnfLiteral(GEMMA_QUOTE);

/** Adds Gemma's any-value rules (as llama-server 0.7.0's Gemma 4 grammar has them). */
function useGemmaValues(rules: GbnfRules): void {
  if (rules.has('gemma4-value')) return;
  const space = usePrimitive(rules, 'space');
  rules.set('gemma4-string', `${QUOTE} gemma4-string-text`);
  for (const rule of untilTag('gemma4-string-text', GEMMA_QUOTE, space)) {
    const [name = '', body = ''] = rule.split(' ::= ');
    rules.set(name, body);
  }
  rules.set('gemma4-key', '[^:}]+');
  const item = `gemma4-key ":" ${space} gemma4-value`;
  rules.set('gemma4-dict', `"{" ${space} ( ${item} ( "," ${space} ${item} )* )? "}" ${space}`);
  rules.set('gemma4-array', `"[" ${space} ( gemma4-value ( "," ${space} gemma4-value )* )? "]" ${space}`);
  const [number, boolean, nul] = (['number', 'boolean', 'null'] as const).map((name) => usePrimitive(rules, name));
  rules.set('gemma4-value', `gemma4-string | gemma4-dict | gemma4-array | ${number} | ${boolean} | ${nul}`);
}

export const GEMMA_NOTATION: ValueNotation = {
  any(rules, kind) {
    useGemmaValues(rules);
    return kind === 'string' ? 'gemma4-string' : kind === 'object' ? 'gemma4-dict' : 'gemma4-value';
  },
  literal: (...values) => alternatives(values.map(writeGemmaValue)),
  space: 'space',
  key: (key) => `${gbnfLiteral(key)} ":" space`,
  anyKey(rules) {
    useGemmaValues(rules);
    return 'gemma4-key ":" space';
  },
  quote: QUOTE,
  // A character that cannot begin the closing mark: `<` is left out.
  char: (rules) => rules.add('gemma4-char', '[^<]'),
  format(rules, format) {
    usePrimitive(rules, 'space');
    return rules.add(`gemma4-${format}`, primitiveBody(format).replaceAll('"\\""', QUOTE));
  },
  pattern: { json: false, exclude: [[0x3c, 0x3c]] },
  sortedKeys: true,
};

/**
 * A string written as plain text: no marks around it, no whitespace after it, and none of the
 * `excluded` code points in its free characters (XML's `<`, `&` and newline). Only for schemas whose
 * values are strings (tool-arguments.ts: `holdsText`, `textOrJsonRule`); its keys and any value are
 * never asked for.
 */
export function textNotation(excluded: readonly CodeRange[]): ValueNotation {
  const char = gbnfClass(excluded, true);
  const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  return {
    any: (rules) => rules.add('text-value', `${char}*`),
    literal: (...values) => alternatives(values.map(json), ''),
    space: '',
    key: (key) => `${gbnfLiteral(JSON.stringify(key))} ":"`,
    anyKey: () => '[^:]+ ":"',
    quote: '',
    char: (rules) => rules.add('text-char', char),
    format: (rules, format) =>
      rules.add(
        `text-${format}`,
        primitiveBody(format)
          .replace(/^"\\"" /, '')
          .replace(/ "\\"" space$/, ''),
      ),
    pattern: { json: false, exclude: excluded },
    sortedKeys: false,
  };
}
