/**
 * The kinds of values a property's schema allows, as llama-server 0.7.0 reads them for tagged and
 * XML calls, whose string values are written as text (common/json-schema.cpp, on the schema as it
 * builds it: a `$ref` first, what is beside it unread; then `anyOf`/`oneOf`, a `type` list, `const`,
 * `enum`, the type; with no type, object keywords, then `allOf`, array keywords, string keywords).
 *
 * @example
 * mayBeString({ $ref: '#/$defs/city' }, { $defs: { city: { type: 'string' } } }) // true
 * valueTypes({ type: ['string', 'null'] }) // Set { 'string', 'null' }
 */
import { isRecord } from '../util/is-record';
import { resolveRef } from './schema-ref';

/** A JSON value's type, as llama-server names them (a `number` schema allows `integer` too). */
export type ValueType = 'null' | 'boolean' | 'number' | 'integer' | 'string' | 'array' | 'object';

const ALL: readonly ValueType[] = ['null', 'boolean', 'number', 'integer', 'string', 'array', 'object'];
const STRING_KEYWORDS = ['pattern', 'minLength', 'maxLength', 'format'];

/**
 * Whether `schema` allows a string (its `may_be_string`: MiniCPM5's XML calls): a `$ref`'s target
 * does (resolved in `root`; a cycle does not); one of its alternatives does; a `const` is one; an
 * `enum` has one; its kind is a string; an `allOf` whose children that say anything all allow one.
 * Any value (`{}`) is read as JSON.
 */
export function mayBeString(schema: unknown, root: unknown = schema, seen: ReadonlySet<unknown> = new Set()): boolean {
  if (!isRecord(schema)) return false;
  const ref = schema['$ref'];
  if (ref !== undefined) {
    const target = typeof ref === 'string' ? localTarget(root, ref) : undefined;
    return target !== undefined && !seen.has(target) && mayBeString(target, root, new Set([...seen, target]));
  }
  const alternatives = schema['oneOf'] ?? schema['anyOf'];
  if (alternatives !== undefined)
    return Array.isArray(alternatives) && alternatives.some((child) => mayBeString(child, root, seen));
  const type = schema['type'];
  if (Array.isArray(type)) return type.some((name: unknown) => mayBeString({ ...schema, type: name }, root, seen));
  if ('const' in schema) return typeof schema['const'] === 'string';
  const values = schema['enum'];
  if (Array.isArray(values)) return values.some((value) => typeof value === 'string');
  const kind = kindOf(schema);
  if (kind !== 'allOf') return kind === 'string';
  const all = schema['allOf'];
  const saying = (Array.isArray(all) ? all : []).filter((child) => !isAny(child));
  return saying.length > 0 && saying.every((child) => mayBeString(child, root, seen));
}

/**
 * The types `schema`'s values may have (its `value_types`: Qwen3-Coder's and Qwen3.5's tagged
 * calls): any value's are all; a `$ref`'s its target's (none for a cycle); alternatives' their
 * union; an `allOf`'s the types every child allows; a `const`'s or an `enum`'s their values'.
 */
export function valueTypes(
  schema: unknown,
  root: unknown = schema,
  seen: ReadonlySet<unknown> = new Set(),
): Set<ValueType> {
  if (!isRecord(schema)) return new Set();
  const ref = schema['$ref'];
  if (ref !== undefined) {
    const target = typeof ref === 'string' ? localTarget(root, ref) : undefined;
    if (target === undefined || seen.has(target)) return new Set();
    return valueTypes(target, root, new Set([...seen, target]));
  }
  const union = (list: unknown[]) => new Set(list.flatMap((child) => [...valueTypes(child, root, seen)]));
  const alternatives = schema['oneOf'] ?? schema['anyOf'];
  if (alternatives !== undefined) return union(Array.isArray(alternatives) ? alternatives : []);
  const type = schema['type'];
  if (Array.isArray(type)) return union(type.map((name: unknown) => ({ ...schema, type: name })));
  if ('const' in schema) return new Set([typeOf(schema['const'])]);
  const values = schema['enum'];
  if (Array.isArray(values)) return new Set(values.map(typeOf));
  const kind = kindOf(schema);
  if (kind === 'allOf') {
    const all = schema['allOf'];
    return (Array.isArray(all) ? all : []).reduce<Set<ValueType>>((types, child) => {
      const allowed = valueTypes(child, root, seen);
      return new Set([...types].filter((t) => allowed.has(t)));
    }, new Set(ALL));
  }
  if (kind === 'any') return new Set(ALL);
  if (kind === 'number') return new Set(['number', 'integer']);
  const one = ALL.find((name) => name === kind);
  return one === undefined ? new Set() : new Set([one]);
}

/** The subschema a local `$ref` points to in `root`, or undefined where it points nowhere. */
export function localTarget(root: unknown, ref: string): unknown {
  try {
    return resolveRef(root, ref, { param: '', path: '' }).target;
  } catch {
    return undefined;
  }
}

/**
 * What decides a schema that has no `$ref`, alternatives, `const` or `enum`: its `type`, or its
 * `allOf` (beside a string type, or an object type without properties), or with no type its
 * keywords (`any` where none says).
 */
function kindOf(schema: Readonly<Record<string, unknown>>): string {
  const type = schema['type'];
  const properties =
    'properties' in schema || ('additionalProperties' in schema && schema['additionalProperties'] !== true);
  const all = 'allOf' in schema;
  if (type === undefined) {
    if (properties) return 'object';
    if (all) return 'allOf';
    if ('items' in schema || 'prefixItems' in schema) return 'array';
    return STRING_KEYWORDS.some((keyword) => keyword in schema) ? 'string' : 'any';
  }
  if (all && ((type === 'object' && !properties) || type === 'string')) return 'allOf';
  return typeof type === 'string' ? type : 'none';
}

/** A schema that takes any value (llama-server's `any` node): nothing in it decides a kind. */
function isAny(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  const deciding = ['$ref', 'oneOf', 'anyOf', 'const', 'enum'].some((keyword) => keyword in schema);
  return !deciding && kindOf(schema) === 'any';
}

function typeOf(value: unknown): ValueType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  return typeof value === 'string' ? 'string' : 'object';
}
