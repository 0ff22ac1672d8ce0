/** Which property schemas a tagged or XML call writes as text: llama-server 0.7.0's `may_be_string` and `value_types` (common/json-schema.cpp). */
import { describe, expect, it } from 'vitest';
import { mayBeString, valueTypes } from '../../../../../src/core/constraints/schema-kinds';

describe('mayBeString', () => {
  it('takes strings, string consts and enums with a string, and any alternative that is one', () => {
    for (const schema of [
      { type: 'string' },
      { const: 'a' },
      { enum: [1, 'a'] },
      { type: ['integer', 'string'] },
      { anyOf: [{ type: 'integer' }, { type: 'string' }] },
      { oneOf: [{ type: 'null' }, { const: 'x' }] },
      { pattern: '^a' },
      { maxLength: 3 },
      { allOf: [{}, { type: 'string' }, { minLength: 1 }] },
      // An enum decides before a type, as there.
      { type: 'integer', enum: ['a'] },
    ])
      expect(mayBeString(schema), JSON.stringify(schema)).toBe(true);
    for (const schema of [
      {},
      { type: 'integer' },
      { type: ['integer', 'null'] },
      { enum: [1, null] },
      { const: 1 },
      { anyOf: [{ type: 'integer' }, {}] },
      { allOf: [{}] },
      { allOf: [{ type: 'string' }, { type: 'integer' }] },
      { properties: {}, maxLength: 3 },
      { items: {}, pattern: 'a' },
      null,
    ])
      expect(mayBeString(schema), JSON.stringify(schema)).toBe(false);
  });

  it("follows a local $ref to its target in the tool's parameters; one that points nowhere or round is no string", () => {
    const root = {
      $defs: { city: { $ref: '#/$defs/name' }, name: { type: 'string' }, loop: { $ref: '#/$defs/loop' } },
      properties: { c: { $ref: '#/$defs/city' } },
    };
    expect(mayBeString({ $ref: '#/$defs/city' }, root)).toBe(true);
    expect(mayBeString({ anyOf: [{ type: 'null' }, { $ref: '#/$defs/name' }] }, root)).toBe(true);
    expect(mayBeString({ $ref: '#/$defs/loop' }, root)).toBe(false);
    expect(mayBeString({ $ref: '#/$defs/none' }, root)).toBe(false);
    expect(mayBeString({ $ref: 'https://example.com/s' }, root)).toBe(false);
    // A $ref decides alone: what is beside it is not read, as there.
    expect(mayBeString({ $ref: '#/$defs/loop', type: 'string' }, root)).toBe(false);
  });
});

describe('valueTypes', () => {
  const types = (schema: unknown, root?: unknown) => [...valueTypes(schema, root)].sort();
  it('gives every type for any value, a union for alternatives, the common types of an allOf', () => {
    expect(types({})).toStrictEqual(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
    expect(types({ type: ['string', 'null'] })).toStrictEqual(['null', 'string']);
    expect(types({ type: 'number' })).toStrictEqual(['integer', 'number']);
    expect(types({ anyOf: [{ type: 'integer' }, { enum: ['a', null] }] })).toStrictEqual(['integer', 'null', 'string']);
    expect(types({ allOf: [{}, { type: ['string', 'integer'] }, { type: 'string' }] })).toStrictEqual(['string']);
    expect(types({ const: 1.5 })).toStrictEqual(['number']);
    expect(types({ maxLength: 2 })).toStrictEqual(['string']);
  });

  it("follows a $ref in the tool's parameters; a cycle or a ref to nothing has none", () => {
    const root = { $defs: { n: { type: 'integer' }, loop: { $ref: '#/$defs/loop' } } };
    expect(types({ $ref: '#/$defs/n' }, root)).toStrictEqual(['integer']);
    expect(types({ $ref: '#/$defs/loop' }, root)).toStrictEqual([]);
    expect(types({ $ref: '#/$defs/none' }, root)).toStrictEqual([]);
  });
});
