/**
 * The built-in JSON rules, written as llama.cpp's json-schema-to-grammar writes them
 * (`space`, `string`, `number`, `value`, ...), with their dependencies.
 */
import type { GbnfRules } from './gbnf-rules';

interface Primitive {
  readonly body: string;
  readonly deps: readonly PrimitiveName[];
}

export type PrimitiveName =
  | 'space'
  | 'boolean'
  | 'null'
  | 'integral-part'
  | 'decimal-part'
  | 'number'
  | 'integer'
  | 'char'
  | 'string'
  | 'value'
  | 'object'
  | 'array'
  | 'uuid'
  | 'date'
  | 'time'
  | 'date-time';

const PRIMITIVES: Readonly<Record<PrimitiveName, Primitive>> = {
  space: { body: '| " " | "\\n"{1,2} [ \\t]{0,20}', deps: [] },
  boolean: { body: '("true" | "false") space', deps: ['space'] },
  null: { body: '"null" space', deps: ['space'] },
  'integral-part': { body: '[0] | [1-9] [0-9]{0,15}', deps: [] },
  'decimal-part': { body: '[0-9]{1,16}', deps: [] },
  number: {
    body: '("-"? integral-part) ("." decimal-part)? ([eE] [-+]? integral-part)? space',
    deps: ['integral-part', 'decimal-part', 'space'],
  },
  integer: { body: '("-"? integral-part) space', deps: ['integral-part', 'space'] },
  char: { body: '[^"\\\\\\x7F\\x00-\\x1F] | [\\\\] (["\\\\bfnrt] | "u" [0-9a-fA-F]{4})', deps: [] },
  string: { body: '"\\"" char* "\\"" space', deps: ['char', 'space'] },
  value: {
    body: 'object | array | string | number | boolean | null',
    deps: ['object', 'array', 'string', 'number', 'boolean', 'null'],
  },
  object: {
    body: '"{" space ( string ":" space value ("," space string ":" space value)* )? "}" space',
    deps: ['string', 'value', 'space'],
  },
  array: { body: '"[" space ( value ("," space value)* )? "]" space', deps: ['value', 'space'] },
  uuid: {
    body: '"\\"" [0-9a-fA-F]{8} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{12} "\\"" space',
    deps: ['space'],
  },
  date: {
    body: '"\\"" [0-9]{4} "-" ( "0" [1-9] | "1" [0-2] ) "-" ( "0" [1-9] | [1-2] [0-9] | "3" [0-1] ) "\\"" space',
    deps: ['space'],
  },
  time: {
    body: '"\\"" ([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9] ":" [0-5] [0-9] ( "." [0-9]{3} )? ( "Z" | ( "+" | "-" ) ( [01] [0-9] | "2" [0-3] ) ":" [0-5] [0-9] ) "\\"" space',
    deps: ['space'],
  },
  'date-time': {
    body: '"\\"" [0-9]{4} "-" ( "0" [1-9] | "1" [0-2] ) "-" ( "0" [1-9] | [1-2] [0-9] | "3" [0-1] ) "T" ([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9] ":" [0-5] [0-9] ( "." [0-9]{3} )? ( "Z" | ( "+" | "-" ) ( [01] [0-9] | "2" [0-3] ) ":" [0-5] [0-9] ) "\\"" space',
    deps: ['space'],
  },
};

/** Adds primitive `name` (and what it uses) to `rules`; returns its rule name. */
export function usePrimitive(rules: GbnfRules, name: PrimitiveName): string {
  if (rules.has(name)) return name;
  const { body, deps } = PRIMITIVES[name];
  rules.set(name, body);
  for (const dep of deps) usePrimitive(rules, dep);
  return name;
}

/** Whether `format` is a JSON Schema string format with a built-in rule. */
export function isKnownFormat(format: string): format is 'uuid' | 'date' | 'time' | 'date-time' {
  return format === 'uuid' || format === 'date' || format === 'time' || format === 'date-time';
}

/** Primitive `name`'s rule body (without what it uses), for a grammar that wraps a schema's. */
export function primitiveBody(name: PrimitiveName): string {
  return PRIMITIVES[name].body;
}
