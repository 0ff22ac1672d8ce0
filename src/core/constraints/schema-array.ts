/**
 * `type: array` -> GBNF: `items` (a schema; absent means any value), `minItems`/`maxItems`,
 * and `prefixItems` (or draft-4 array `items`) as a tuple whose entries are all written;
 * extra entries after a tuple only when `items` is a schema. Tuples with counts are 400s.
 */
import type { SchemaContext } from './schema-context';
import type { SchemaObject } from './schema-keywords';
import type { SchemaPlace } from './schema-error';
import { usePrimitive } from './json-primitives';
import { childPlace, invalidSchema, unsupportedSchema } from './schema-error';
import { readCount } from './schema-keywords';

function quantifier(lo: number, hi: number | undefined): string {
  if (hi === undefined) return lo === 0 ? '*' : lo === 1 ? '+' : `{${lo},}`;
  return lo === hi ? `{${lo}}` : lo === 0 && hi === 1 ? '?' : `{${lo},${hi}}`;
}

export function arrayExpression(ctx: SchemaContext, schema: SchemaObject, name: string, place: SchemaPlace): string {
  const minItems = readCount(schema, 'minItems', place) ?? 0;
  const maxItems = readCount(schema, 'maxItems', place);
  if (maxItems !== undefined && maxItems < minItems)
    throw invalidSchema(place, `'maxItems' (${maxItems}) is less than 'minItems' (${minItems})`);
  usePrimitive(ctx.rules, 'space');
  const itemsKeyword = schema['items'];
  const tuple = Array.isArray(schema['prefixItems'])
    ? schema['prefixItems']
    : Array.isArray(itemsKeyword)
      ? itemsKeyword
      : undefined;
  const prefix = name === 'root' ? '' : `${name}-`;
  if (tuple) {
    if (schema['minItems'] !== undefined || schema['maxItems'] !== undefined)
      throw unsupportedSchema(place, "'minItems'/'maxItems' with 'prefixItems' is not supported");
    const key = Array.isArray(schema['prefixItems']) ? 'prefixItems' : 'items';
    const parts = tuple.map((entry: unknown, i) =>
      ctx.ruleFor(entry, `${prefix}tuple-${i}`, childPlace(place, key, i)),
    );
    const restSchema =
      key === 'prefixItems' && itemsKeyword !== undefined && itemsKeyword !== false ? itemsKeyword : undefined;
    const rest =
      restSchema === undefined
        ? ''
        : ` ("," space ${ctx.ruleFor(restSchema, `${prefix}item`, childPlace(place, 'items'))})*`;
    return `"[" space ${parts.join(' "," space ')}${rest} "]" space`;
  }
  if (maxItems === 0) return '"[" space "]" space';
  const item = ctx.ruleFor(itemsKeyword ?? true, `${prefix}item`, childPlace(place, 'items'));
  const more =
    maxItems === 1
      ? ''
      : ` ("," space ${item})${quantifier(Math.max(minItems - 1, 0), maxItems === undefined ? undefined : maxItems - 1)}`;
  const list = `${item}${more}`;
  return `"[" space ${minItems === 0 ? `(${list})?` : list} "]" space`;
}
