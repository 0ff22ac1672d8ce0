/**
 * Jinja's `string` filter as llama-server's Jinja (llama.cpp common/jinja) and Python's write a
 * value that is no string: `True`, `None`, `['a', 1]`, `{'k': True}`. @huggingface/jinja writes
 * JSON there (`true`, `["a", 1]`) and refuses `None` and dicts; LFM2's templates write a call's
 * arguments with it (`days=3, metric=True`), so a call in the history rendered otherwise than on
 * llama-server, or not at all. Likewise a string filter (`upper`, …) on an undefined value gives
 * '', as Python's Undefined does, where the library refuses it (Gemma 4's template writes a
 * property's `type | upper`, which an `enum` property lacks). The library's filter entry point is
 * wrapped once, for the engine's renders; every other filter and value is the library's.
 *
 * @example
 * // {{ [true, None, 'a', "it's", 1.5] | string }} -> [True, None, 'a', "it's", 1.5]
 */
import { Interpreter } from '@huggingface/jinja';

let wrapped = false;

/** Makes the library's `string` filter write Python's (llama.cpp's) text; once. */
export function usePythonStringFilter(): void {
  if (wrapped) return;
  wrapped = true;
  // A private method of the library (its filters' one entry point), reached by name.
  const original: unknown = Reflect.get(Interpreter.prototype, 'applyFilter');
  if (typeof original !== 'function') return;
  Reflect.set(
    Interpreter.prototype,
    'applyFilter',
    function applyFilter(this: unknown, operand: unknown, node: unknown, environment: unknown): unknown {
      const type = String(field(operand, 'type'));
      const filter = field(node, 'type') === 'Identifier' ? String(field(node, 'value')) : '';
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
