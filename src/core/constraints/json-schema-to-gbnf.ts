/**
 * JSON Schema -> one GBNF grammar that llama.cpp's grammar sampler accepts, shaped like its
 * own json-schema-to-grammar output (same primitive rules, `space` after every value).
 * Supported: `type` (one or a list), `properties`/`required`/`additionalProperties`,
 * `items`/`prefixItems`/`minItems`/`maxItems`, `enum`, `const`, string lengths, `pattern` and
 * some formats, integer bounds, `anyOf`/`oneOf`, single-entry `allOf`, local `$ref`.
 * Anything it cannot enforce is a 400 (`unsupported_schema`); a malformed schema is a 400
 * (`invalid_schema`); nothing is silently left unconstrained.
 */
import type { SchemaContext } from './schema-context';
import type { SchemaPlace } from './schema-error';
import { GbnfRules } from './gbnf-rules';
import { usePrimitive } from './json-primitives';
import { arrayExpression } from './schema-array';
import { childPlace, invalidSchema, unsupportedSchema } from './schema-error';
import { isSchemaObject, readSchemaList, readString, UNSUPPORTED_KEYWORDS } from './schema-keywords';
import type { SchemaObject } from './schema-keywords';
import { integerExpression, numberExpression } from './schema-number';
import { objectExpression } from './schema-object';
import { resolveRef } from './schema-ref';
import { stringExpression } from './schema-string';
import { JSON_NOTATION, type ValueNotation } from './value-notation';

const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'] as const;
const RULE_NAME = /^[a-zA-Z0-9-]+$/;
const REF_SIBLINGS = new Set([
  '$ref',
  '$defs',
  'definitions',
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

function inferType(schema: SchemaObject): string | undefined {
  if ('properties' in schema || 'additionalProperties' in schema || 'required' in schema) return 'object';
  if ('items' in schema || 'prefixItems' in schema || 'minItems' in schema || 'maxItems' in schema) return 'array';
  if ('minLength' in schema || 'maxLength' in schema || 'pattern' in schema || 'format' in schema) return 'string';
  if ('minimum' in schema || 'maximum' in schema || 'exclusiveMinimum' in schema || 'exclusiveMaximum' in schema)
    return 'number';
  return undefined;
}

/** Converts `schema` (already JSON-parsed); errors name `param` and the JSON pointer. */
export function jsonSchemaToGbnf(schema: unknown, param: string): string {
  const rules = new GbnfRules();
  rules.set('root', '');
  rules.set('root', schemaVisitor(schema, rules, JSON_NOTATION).visit(schema, 'root', { param, path: '#' }));
  return rules.format();
}

/**
 * Adds the rules of `schema` to `rules`, named from `name` (its `$ref`s resolve in `root`: the
 * schema itself, or the schema it sits in at `path`), for grammars that embed several schemas;
 * returns the rule name of its values, written in `notation` (JSON unless said).
 */
export function addSchemaRule(
  rules: GbnfRules,
  schema: unknown,
  name: string,
  param: string,
  {
    root = schema,
    path = '#',
    notation = JSON_NOTATION,
  }: { root?: unknown; path?: string; notation?: ValueNotation } = {},
): string {
  return schemaVisitor(root, rules, notation).ruleFor(schema, name, { param, path });
}

/** The visitor for one schema (the root its local `$ref`s resolve in), writing into `rules`. */
function schemaVisitor(schema: unknown, rules: GbnfRules, notation: ValueNotation): SchemaContext {
  const refs = new Map<string, string>();
  const literals = (values: readonly unknown[]) => {
    if (notation.space !== '') usePrimitive(rules, notation.space);
    return notation.literal(...values);
  };

  const ctx: SchemaContext = {
    rules,
    notation,
    visit,
    ruleFor(sub, name, place) {
      const expression = visit(sub, name, place);
      return RULE_NAME.test(expression) ? expression : rules.add(name, expression);
    },
  };

  function visit(sub: unknown, name: string, place: SchemaPlace): string {
    if (sub === true) return notation.any(rules, 'value');
    if (sub === false) throw unsupportedSchema(place, "the schema 'false' matches no value");
    if (!isSchemaObject(sub)) throw invalidSchema(place, 'a schema must be an object or a boolean');
    for (const keyword of UNSUPPORTED_KEYWORDS) {
      if (keyword in sub && !(keyword === 'uniqueItems' && sub[keyword] === false))
        throw unsupportedSchema(place, `'${keyword}' cannot be enforced by a grammar`);
    }
    const ref = readString(sub, '$ref', place);
    if (ref !== undefined) return visitRef(sub, ref, place);
    if ('const' in sub) return literals([sub['const']]);
    const enumValues = readSchemaList(sub, 'enum', place);
    if (enumValues) return literals(enumValues);
    const anyOf = readSchemaList(sub, 'anyOf', place);
    const oneOf = readSchemaList(sub, 'oneOf', place);
    if (anyOf && oneOf) throw unsupportedSchema(place, "'anyOf' and 'oneOf' together are not supported");
    const options = anyOf ?? oneOf;
    if (options) {
      const key = anyOf ? 'anyOf' : 'oneOf';
      return options.map((option, i) => ctx.ruleFor(option, `${name}-${i}`, childPlace(place, key, i))).join(' | ');
    }
    const allOf = readSchemaList(sub, 'allOf', place);
    if (allOf) {
      if (allOf.length !== 1) throw unsupportedSchema(place, "'allOf' with more than one schema is not supported");
      return visit(allOf[0], name, childPlace(place, 'allOf', 0));
    }
    const type = sub['type'];
    if (Array.isArray(type)) {
      if (type.length === 0) throw invalidSchema(place, "'type' must not be an empty array");
      return type.map((t: unknown) => ctx.ruleFor({ ...sub, type: t }, `${name}-${String(t)}`, place)).join(' | ');
    }
    return visitType(sub, type === undefined ? inferType(sub) : type, name, place);
  }

  function visitType(sub: SchemaObject, type: unknown, name: string, place: SchemaPlace): string {
    if (type === undefined) return notation.any(rules, 'value');
    if (typeof type !== 'string' || !(TYPES as readonly string[]).includes(type))
      throw invalidSchema(place, `'type' must be one of ${TYPES.join(', ')} (got ${JSON.stringify(type)})`);
    if (type === 'string') return stringExpression(ctx, sub, place);
    if (type === 'integer') return integerExpression(ctx, sub, place);
    if (type === 'number') return numberExpression(ctx, sub, place);
    if (type === 'object') return objectExpression(ctx, sub, name, place);
    if (type === 'array') return arrayExpression(ctx, sub, name, place);
    return usePrimitive(rules, type === 'boolean' ? 'boolean' : 'null');
  }

  function visitRef(sub: SchemaObject, ref: string, place: SchemaPlace): string {
    const extra = Object.keys(sub).find((key) => !REF_SIBLINGS.has(key));
    if (extra) throw unsupportedSchema(place, `'${extra}' beside '$ref' is not supported`);
    const known = refs.get(ref);
    if (known) return known;
    const { target, name } = resolveRef(schema, ref, place);
    const ruleName = rules.reserve(name === 'root' ? 'root-ref' : name);
    refs.set(ref, ruleName);
    rules.set(ruleName, visit(target, ruleName, { param: place.param, path: ref }));
    return ruleName;
  }

  return ctx;
}

/** `response_format: {type: 'json_object'}`: any JSON object. */
export function jsonObjectGbnf(): string {
  return jsonSchemaToGbnf({ type: 'object' }, 'response_format');
}
