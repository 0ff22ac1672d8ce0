/** JSON Schema -> GBNF: grammar shape, what it accepts (checked against Ajv), and the 400s. */
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { checkGbnf } from '../../../../../src/core/constraints/gbnf-check';
import { jsonObjectGbnf, jsonSchemaToGbnf } from '../../../../../src/core/constraints/json-schema-to-gbnf';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { CONVERTER_SCHEMAS } from '../../../../fixtures/constraint-schemas';
import { gbnfToRegExp } from './gbnf-to-regexp';

const ajv = new Ajv2020({ strict: false });

function errorOf(schema: unknown): InvalidRequestError {
  try {
    jsonSchemaToGbnf(schema, 'response_format');
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
    throw error;
  }
  throw new Error('no error');
}

/** [schema name, text, accepted by the grammar]; every accepted text must also pass Ajv (non-recursive grammars only). */
const SAMPLES: readonly [string, string, boolean][] = [
  ['nested', '{"name": "Rex", "kind": "dog", "owner": {"id": 7, "tags": ["a", "b"]}}', true],
  ['nested', '{"name":"Rex","kind":"dog","owner":{"id":-3}}', true],
  ['nested', '{"name": "Rex", "kind": "cow", "owner": {"id": 7}}', false],
  ['nested', '{"name": "Rexxxxxxxxxx", "kind": "dog", "owner": {"id": 7}}', false],
  ['nested', '{"name": "Rex", "kind": "dog", "owner": {"id": 7, "tags": []}}', false],
  ['nested', '{"kind": "dog", "name": "Rex", "owner": {"id": 7}}', false],
  ['bounded string', '"ab"', true],
  ['bounded string', '"a"', false],
  ['bounded string', '"a\\nb"', true],
  ['pattern', '"Abc 12"', true],
  ['pattern', '"abc 12"', false],
  ['unanchored pattern', '"xxab\\"cyy"', true],
  ['unanchored pattern', '"abc"', false],
  ['integer range', '-12', true],
  ['integer range', '345', true],
  ['integer range', '346', false],
  ['integer range', '-13', false],
  ['integer range', '007', false],
  ['exclusive integer', '0', false],
  ['exclusive integer', '9', true],
  ['integer min only', '123', true],
  ['integer min only', '122', false],
  ['integer min only', '99999', true],
  ['number range', '100', true],
  ['number range', '99.5', true],
  ['number range', '100.5', false],
  ['number range', '-1', false],
  ['enum and const', '{"a": null, "b": "fixed"}', true],
  ['enum and const', '{"a": 2, "b": "fixed"}', false],
  ['type list', 'null', true],
  ['all optional', '{}', true],
  ['all optional', '{"b": null}', true],
  ['all optional', '{"a": true, "c": 1.5e3}', true],
  ['all optional', '{"c": 1, "a": true}', false],
  ['additional properties', '{"id": "x", "n": 1, "m": 2}', true],
  ['additional properties', '{"id": "x", "n": "s"}', false],
  ['only additional', '{"k": "v"}', true],
  ['anyOf', '"ab"', true],
  ['anyOf', '12', true],
  ['anyOf', '"abc"', false],
  [
    'formats',
    '["123e4567-e89b-12d3-a456-426614174000", "2026-12-01", "10:20:30Z", "2026-12-01T10:20:30.123+01:00"]',
    true,
  ],
  ['definitions', '{"p": [1, 2.5]}', true],
  ['definitions', '{"p": [1]}', false],
  ['array of arrays', '[[1, 2], [], [3]]', true],
  ['array of arrays', '[[1, 2, 3]]', false],
  ['empty array only', '[]', true],
  ['odd property names', '{"a b": "", "quote\\"d": 1, "x_y": false}', true],
];

describe('jsonSchemaToGbnf', () => {
  it.each(Object.entries(CONVERTER_SCHEMAS))('%s: emits a grammar the checker accepts', (_, schema) => {
    expect(() => checkGbnf(jsonSchemaToGbnf(schema, 'response_format'), 'response_format')).not.toThrow();
  });

  it.each(SAMPLES)('%s: %s -> %s', (name, text, accepted) => {
    const schema = CONVERTER_SCHEMAS[name] ?? {};
    expect(gbnfToRegExp(jsonSchemaToGbnf(schema, 'response_format')).test(text)).toBe(accepted);
    if (accepted) expect(ajv.validate(schema, JSON.parse(text))).toBe(true);
  });

  it('writes llama.cpp-shaped rules for an object', () => {
    const gbnf = jsonSchemaToGbnf(
      { type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string' } }, required: ['n'] },
      'p',
    );
    expect(gbnf.split('\n')[0]).toBe('root ::= "{" space n-kv ("," space s-kv)? "}" space');
    expect(gbnf).toContain('n-kv ::= "\\"n\\"" space ":" space integer\n');
    expect(gbnf).toContain('space ::= | " " | "\\n"{1,2} [ \\t]{0,20}\n');
  });

  it('json_object is any JSON object', () => {
    expect(jsonObjectGbnf().split('\n')[0]).toBe('root ::= object');
  });

  it('handles recursion through $ref', () => {
    const gbnf = jsonSchemaToGbnf(CONVERTER_SCHEMAS['recursive $defs'], 'p');
    expect(gbnf).toContain('root ::= node\n');
    expect(gbnf).toMatch(/node-next ::= node \| null/);
  });

  it.each([
    [{ type: 'integer', multipleOf: 3 }, '#', "'multipleOf'", 'unsupported_schema'],
    [
      { type: 'object', properties: { a: { not: { type: 'string' } } } },
      '#/properties/a',
      "'not'",
      'unsupported_schema',
    ],
    [{ type: 'array', uniqueItems: true }, '#', "'uniqueItems'", 'unsupported_schema'],
    [{ type: 'string', format: 'email' }, '#', "format 'email'", 'unsupported_schema'],
    [{ type: 'string', pattern: '(?=a)' }, '#/pattern', 'lookaround', 'unsupported_schema'],
    [{ type: 'string', pattern: '[a-' }, '#/pattern', "missing ']'", 'invalid_schema'],
    [{ type: 'string', pattern: 'a+', maxLength: 3 }, '#', "'pattern' combined", 'unsupported_schema'],
    [{ type: 'number', minimum: -1.5 }, '#', 'number bounds', 'unsupported_schema'],
    [{ allOf: [{ type: 'string' }, { maxLength: 2 }] }, '#', "'allOf'", 'unsupported_schema'],
    [{ $ref: 'https://example.com/s.json' }, '#', 'not local', 'unsupported_schema'],
    [{ $ref: '#/$defs/missing' }, '#', 'does not resolve', 'invalid_schema'],
    [{ type: 'strin' }, '#', "'type' must be one of", 'invalid_schema'],
    [{ type: 'string', maxLength: -1 }, '#', "'maxLength' must be a non-negative integer", 'invalid_schema'],
    [{ type: 'object', required: 'a' }, '#', "'required' must be an array of strings", 'invalid_schema'],
    [{ enum: [] }, '#', "'enum' must be a non-empty array", 'invalid_schema'],
    [{ type: 'integer', minimum: 5, maximum: 4 }, '#', 'no integer lies between', 'invalid_schema'],
    [
      { type: 'array', items: { type: 'string', minLength: 3, maxLength: 1 } },
      '#/items',
      "'maxLength' (1) is less than 'minLength' (3)",
      'invalid_schema',
    ],
    [false, '#', "'false' matches no value", 'unsupported_schema'],
    ['{}', '#', 'must be an object or a boolean', 'invalid_schema'],
  ])('refuses %j', (schema, path, what, code) => {
    const error = errorOf(schema);
    expect(error.status).toBe(400);
    expect(error.param).toBe('response_format');
    expect(error.code).toBe(code);
    expect(error.message).toContain(`'response_format' at ${path}:`);
    expect(error.message).toContain(what);
  });
});
