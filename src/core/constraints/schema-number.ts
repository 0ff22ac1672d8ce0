/**
 * `type: integer` and `type: number` -> GBNF, with bounds where a grammar can hold them:
 * integers with any `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum`; numbers with
 * integer inclusive bounds >= 0 (written without exponent). Other number bounds are 400s.
 */
import type { SchemaContext } from './schema-context';
import type { SchemaObject } from './schema-keywords';
import type { SchemaPlace } from './schema-error';
import { integerRange, unsignedRange } from './int-range';
import { usePrimitive } from './json-primitives';
import { invalidSchema, unsupportedSchema } from './schema-error';
import { readNumber } from './schema-keywords';

interface Bounds {
  readonly min?: number;
  readonly max?: number;
}

function readBounds(schema: SchemaObject, place: SchemaPlace): Bounds {
  let min = readNumber(schema, 'minimum', place);
  let max = readNumber(schema, 'maximum', place);
  const exMin = schema['exclusiveMinimum'];
  const exMax = schema['exclusiveMaximum'];
  if (typeof exMin === 'boolean' || typeof exMax === 'boolean') {
    // draft 4: boolean flags on minimum/maximum
    if (exMin === true && min !== undefined) min = Math.floor(min) + 1;
    if (exMax === true && max !== undefined) max = Math.ceil(max) - 1;
  } else {
    const eMin = readNumber(schema, 'exclusiveMinimum', place);
    const eMax = readNumber(schema, 'exclusiveMaximum', place);
    if (eMin !== undefined) min = Math.max(min ?? -Infinity, Math.floor(eMin) + 1);
    if (eMax !== undefined) max = Math.min(max ?? Infinity, Math.ceil(eMax) - 1);
  }
  return { min, max };
}

export function integerExpression(ctx: SchemaContext, schema: SchemaObject, place: SchemaPlace): string {
  const { min, max } = readBounds(schema, place);
  if (min === undefined && max === undefined) return usePrimitive(ctx.rules, 'integer');
  const lo = min === undefined ? undefined : Math.ceil(min);
  const hi = max === undefined ? undefined : Math.floor(max);
  const range = integerRange(lo, hi);
  if (range === '') throw invalidSchema(place, `no integer lies between the bounds ${lo ?? '-inf'} and ${hi ?? 'inf'}`);
  usePrimitive(ctx.rules, 'space');
  return `${range} space`;
}

export function numberExpression(ctx: SchemaContext, schema: SchemaObject, place: SchemaPlace): string {
  const hasExclusive = schema['exclusiveMinimum'] !== undefined || schema['exclusiveMaximum'] !== undefined;
  const min = readNumber(schema, 'minimum', place);
  const max = readNumber(schema, 'maximum', place);
  if (min === undefined && max === undefined && !hasExclusive) return usePrimitive(ctx.rules, 'number');
  const integral = (v: number | undefined) => v === undefined || Number.isInteger(v);
  if (hasExclusive || min === undefined || min < 0 || !integral(min) || !integral(max)) {
    throw unsupportedSchema(
      place,
      "number bounds are supported only as integer 'minimum' >= 0 with an optional integer 'maximum'",
    );
  }
  if (max !== undefined && max < min) throw invalidSchema(place, `'maximum' (${max}) is less than 'minimum' (${min})`);
  usePrimitive(ctx.rules, 'decimal-part');
  usePrimitive(ctx.rules, 'space');
  const fraction = '("." decimal-part)?';
  const below = max === undefined ? unsignedRange(min) : max > min ? unsignedRange(min, max - 1) : '';
  const parts = [
    below === '' ? '' : `${below} ${fraction}`,
    max === undefined ? '' : `"${max}" ("." "0"{1,16})?`,
  ].filter(Boolean);
  return `${parts.length === 1 ? parts[0] : `(${parts.join(' | ')})`} space`;
}
