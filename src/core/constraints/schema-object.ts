/**
 * `type: object` -> GBNF, in llama.cpp's shape: required properties first (in declared
 * order), then optional ones in declared order, each present or not (in a notation that sorts
 * keys, as Gemma 4's template writes them, all in key order); `additionalProperties`
 * true or a schema lets more `"key": value` pairs follow. An object schema with properties
 * and no `additionalProperties` gets no extra keys (as llama.cpp does: stricter, never looser).
 */
import type { SchemaContext } from './schema-context';
import type { SchemaObject } from './schema-keywords';
import type { SchemaPlace } from './schema-error';
import { dictsortKeys } from '../util/gemma-value';
import { usePrimitive } from './json-primitives';
import { childPlace } from './schema-error';
import { isSchemaObject, readSchemaMap, readStringList } from './schema-keywords';

interface Item {
  /** The `"key": value` rule, or for extra keys a rule repeated any number of times. */
  readonly kv: string;
  readonly required: boolean;
  readonly repeated: boolean;
}

/** The items from index `i` on; `first`: nothing has been written yet (no comma before). */
function sequence(items: readonly Item[], i: number, first: boolean): string {
  const item = items[i];
  if (!item) return '';
  const rest = (nowFirst: boolean) => sequence(items, i + 1, nowFirst);
  const join = (...parts: string[]) => parts.filter(Boolean).join(' ');
  if (item.repeated) return first ? `(${item.kv} ("," space ${item.kv})*)?` : `("," space ${item.kv})*`;
  if (!first) return join(item.required ? `"," space ${item.kv}` : `("," space ${item.kv})?`, rest(false));
  if (item.required) return join(item.kv, rest(false));
  const skipped = rest(true);
  return skipped === '' ? `(${join(item.kv, rest(false))})?` : `(${join(item.kv, rest(false))} | ${skipped})`;
}

export function objectExpression(ctx: SchemaContext, schema: SchemaObject, name: string, place: SchemaPlace): string {
  const properties = readSchemaMap(schema, 'properties', place) ?? {};
  const required = new Set(readStringList(schema, 'required', place) ?? []);
  const additional = schema['additionalProperties'];
  const openEnded = additional === true || isSchemaObject(additional);
  if (
    Object.keys(properties).length === 0 &&
    required.size === 0 &&
    (additional === undefined || additional === true)
  ) {
    return ctx.notation.any(ctx.rules, 'object');
  }
  usePrimitive(ctx.rules, 'space');
  const prefix = name === 'root' ? '' : `${name}-`;
  const kvRule = (key: string, valueSchema: unknown, at: SchemaPlace): string => {
    const value = ctx.ruleFor(valueSchema, `${prefix}${key}`, at);
    return ctx.rules.add(`${prefix}${key}-kv`, `${ctx.notation.key(key)} ${value}`);
  };
  const declared = Object.keys(properties).filter((key) => properties[key] !== false);
  const undeclaredRequired = [...required].filter((key) => !(key in properties));
  const keys = ctx.notation.sortedKeys
    ? dictsortKeys([...declared, ...undeclaredRequired])
    : [...declared.filter((k) => required.has(k)), ...undeclaredRequired, ...declared.filter((k) => !required.has(k))];
  const items: Item[] = keys.map((key) => ({
    kv: kvRule(key, key in properties ? properties[key] : true, childPlace(place, 'properties', key)),
    required: required.has(key),
    repeated: false,
  }));
  if (openEnded) {
    const value = ctx.ruleFor(additional, `${prefix}additional`, childPlace(place, 'additionalProperties'));
    const kv = ctx.rules.add(`${prefix}additional-kv`, `${ctx.notation.anyKey(ctx.rules)} ${value}`);
    items.push({ kv, required: false, repeated: true });
  }
  const body = sequence(items, 0, true);
  return `"{" space ${body ? `${body} ` : ''}"}" space`;
}
