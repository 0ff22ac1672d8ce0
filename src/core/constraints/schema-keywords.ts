/**
 * Reading JSON Schema keywords with their types checked: each reader returns the value or
 * undefined when absent, and throws `invalid_schema` when present with the wrong type.
 */
import type { SchemaPlace } from './schema-error';
import { invalidSchema } from './schema-error';

/** A schema object (booleans are handled by the caller). */
export type SchemaObject = Readonly<Record<string, unknown>>;

export function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readNumber(schema: SchemaObject, key: string, place: SchemaPlace): number | undefined {
  const value = schema[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidSchema(place, `'${key}' must be a number`);
  return value;
}

export function readCount(schema: SchemaObject, key: string, place: SchemaPlace): number | undefined {
  const value = readNumber(schema, key, place);
  if (value !== undefined && (!Number.isInteger(value) || value < 0))
    throw invalidSchema(place, `'${key}' must be a non-negative integer`);
  return value;
}

export function readString(schema: SchemaObject, key: string, place: SchemaPlace): string | undefined {
  const value = schema[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidSchema(place, `'${key}' must be a string`);
  return value;
}

export function readSchemaList(schema: SchemaObject, key: string, place: SchemaPlace): readonly unknown[] | undefined {
  const value = schema[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0) throw invalidSchema(place, `'${key}' must be a non-empty array`);
  return value;
}

export function readStringList(schema: SchemaObject, key: string, place: SchemaPlace): readonly string[] | undefined {
  const value = schema[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string'))
    throw invalidSchema(place, `'${key}' must be an array of strings`);
  return value;
}

export function readSchemaMap(schema: SchemaObject, key: string, place: SchemaPlace): SchemaObject | undefined {
  const value = schema[key];
  if (value === undefined) return undefined;
  if (!isSchemaObject(value)) throw invalidSchema(place, `'${key}' must be an object`);
  return value;
}

/** Assertion keywords no grammar here enforces: present -> 400 `unsupported_schema`. */
export const UNSUPPORTED_KEYWORDS: readonly string[] = [
  'multipleOf',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'not',
  'if',
  'then',
  'else',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'minProperties',
  'maxProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
  '$recursiveRef',
  'contentSchema',
];
