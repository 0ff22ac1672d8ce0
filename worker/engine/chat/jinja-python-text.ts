/**
 * Values written as llama-server's Jinja (llama.cpp common/jinja) writes those that are no string:
 * by the `string` filter as Python's does (`True`, `None`, `['a', 1]`, `{'k': True}`), and where a
 * template prints one (`{{ value }}`) as llama-server prints it (`True`; a list's items one after
 * another; a dict or None nothing). @huggingface/jinja writes JSON there (`true`, `["a", 1]`) and
 * its filter refuses `None` and dicts; LFM2's templates write a call's arguments with the filter
 * (`days=3, metric=True`) and MiniCPM5's prints them, so a call in the history rendered otherwise
 * than on llama-server, or not at all. Likewise a string filter (`upper`, …) on an undefined value
 * gives '', as Python's Undefined does, where the library refuses it (Gemma 4's template writes a
 * property's `type | upper`, which an `enum` property lacks); and a list's `min` and `max` filters
 * (MiniCPM5's template), which the library lacks, give its least and greatest item as Python's
 * Jinja does (strings case-insensitively, as the library's `dictsort`; llama-server's compares them
 * case-sensitively, a FIXME there). The library's filter entry point and its block
 * writer are wrapped once, for the engine's renders; every other filter and value is the library's.
 *
 * @example
 * // {{ [true, None, 'a', "it's", 1.5] | string }} -> [True, None, 'a', "it's", 1.5]
 * // {{ true }}{{ [1, 'a'] }}{{ {'k': 1} }} -> True1a
 * // {{ [3, 1] | min }} -> 1
 */
import { Environment, Interpreter } from '@huggingface/jinja';

let wrapped = false;

/** Makes the library write values as Python's (llama.cpp's) text, and adds `min` and `max`; once. */
export function usePythonText(): void {
  if (wrapped) return;
  wrapped = true;
  wrapFilters();
  wrapBlocks();
}

/** The filters' entry point: `string` in Python's text, string filters on Undefined, `min`, `max`. */
function wrapFilters(): void {
  // A private method of the library (its filters' one entry point), reached by name.
  const original: unknown = Reflect.get(Interpreter.prototype, 'applyFilter');
  if (typeof original !== 'function') return;
  Reflect.set(
    Interpreter.prototype,
    'applyFilter',
    function applyFilter(this: unknown, operand: unknown, node: unknown, environment: unknown): unknown {
      const type = String(field(operand, 'type'));
      const filter = field(node, 'type') === 'Identifier' ? String(field(node, 'value')) : '';
      if ((filter === 'min' || filter === 'max') && type === 'ArrayValue' && environment instanceof Environment) {
        const list = items(field(operand, 'value'));
        // An empty list's is Undefined: the library's, of a name that is not there.
        if (list.length === 0) return environment.lookupVariable('\u0000');
        return list.reduce((best, item) => (isBefore(item, best) === (filter === 'min') ? item : best));
      }
      const python = filter === 'string' && PYTHON.has(type);
      // Python's Undefined is '' to a string filter (a schema's missing `type` | upper); the library refuses it.
      const blank = type === 'UndefinedValue' && STRING_FILTERS.has(filter);
      if (!python && !blank) return Reflect.apply(original, this, [operand, node, environment]);
      // A string value of the library's own (its `tojson` of the operand), holding Python's text instead.
      const text: unknown = Reflect.apply(original, this, [
        operand,
        { type: 'Identifier', value: 'tojson' },
        environment,
      ]);
      if (typeof text === 'object' && text !== null) Reflect.set(text, 'value', python ? pythonText(operand) : '');
      return text;
    },
  );
}

/**
 * The block writer (`evaluateBlock`: what a template prints), each value printed as llama-server's
 * Jinja prints it (`gather_string_parts`): strings and numbers as they are (a float as its
 * `as_string`), booleans `True`/`False`, a list its items printed one after another, and a dict,
 * None or anything else nothing (Python's would print `['a', 1]`, `{'k': 'v'}` and `None`).
 */
function wrapBlocks(): void {
  const original: unknown = Reflect.get(Interpreter.prototype, 'evaluateBlock');
  const evaluate: unknown = Reflect.get(Interpreter.prototype, 'evaluate');
  if (typeof original !== 'function' || typeof evaluate !== 'function') return;
  Reflect.set(
    Interpreter.prototype,
    'evaluateBlock',
    function evaluateBlock(this: unknown, statements: unknown, environment: unknown): unknown {
      const text = items(statements)
        .map((statement) => printedText(Reflect.apply(evaluate, this, [statement, environment])))
        .join('');
      // A string value of the library's own (its writer's, of no statement), holding the text.
      const written: unknown = Reflect.apply(original, this, [[], environment]);
      if (typeof written === 'object' && written !== null) Reflect.set(written, 'value', text);
      return written;
    },
  );
}

/** A value as llama-server's Jinja prints it. */
function printedText(value: unknown): string {
  switch (field(value, 'type')) {
    case 'StringValue':
    case 'IntegerValue':
      return String(field(value, 'value'));
    case 'FloatValue':
    case 'BooleanValue':
      return pythonText(value);
    case 'ArrayValue':
    case 'TupleValue':
      return items(field(value, 'value')).map(printedText).join('');
    default:
      return '';
  }
}

/** Whether `a` comes before `b` as Python's Jinja orders them for `min` (numbers, or strings case-insensitively). */
function isBefore(a: unknown, b: unknown): boolean {
  const x = field(a, 'value');
  const y = field(b, 'value');
  return typeof x === 'number' && typeof y === 'number' ? x < y : String(x).toLowerCase() < String(y).toLowerCase();
}

/** The filters that make a string of their operand (of Python's Undefined: ''). */
const STRING_FILTERS = new Set(['string', 'upper', 'lower', 'title', 'capitalize', 'trim']);

/** The value types whose text differs from the library's. */
const PYTHON = new Set(['BooleanValue', 'NullValue', 'ArrayValue', 'TupleValue', 'ObjectValue', 'FloatValue']);

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
}

/** A runtime value's text, as llama.cpp's `as_string` writes it. */
export function pythonText(value: unknown): string {
  const inner = field(value, 'value');
  switch (field(value, 'type')) {
    case 'StringValue':
      return String(inner);
    case 'BooleanValue':
      return inner === true ? 'True' : 'False';
    case 'NullValue':
      return 'None';
    case 'FloatValue':
      return floatText(Number(inner));
    case 'ArrayValue':
      return `[${items(inner).map(pythonRepr).join(', ')}]`;
    case 'TupleValue': {
      const parts = items(inner).map(pythonRepr);
      return `(${parts.join(', ')}${parts.length === 1 ? ',' : ''})`;
    }
    case 'ObjectValue':
    case 'KeywordArgumentsValue': {
      const entries = inner instanceof Map ? [...inner.entries()] : [];
      return `{${entries.map(([key, item]) => `${quoted(String(key))}: ${pythonRepr(item)}`).join(', ')}}`;
    }
    default:
      return String(inner ?? '');
  }
}

/** An item's text inside a list or dict: a string quoted (llama.cpp's `value_to_string_repr`). */
function pythonRepr(value: unknown): string {
  return field(value, 'type') === 'StringValue' ? quoted(String(field(value, 'value'))) : pythonText(value);
}

/** In single quotes, or as JSON where it holds one (llama.cpp's rule). */
function quoted(text: string): string {
  return text.includes("'") ? JSON.stringify(text) : `'${text}'`;
}

/** Six decimals, trailing zeros cut, one kept (llama.cpp's float text: `std::to_string`). */
function floatText(value: number): string {
  const text = value.toFixed(6).replace(/0+$/, '');
  return text.endsWith('.') ? `${text}0` : text;
}

function items(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
