/**
 * The corpus of JSON schemas the converter tests use, shared with `scripts/check-grammars.ts`
 * (which checks that native llama.cpp accepts the GBNF emitted for each).
 */
export const CONVERTER_SCHEMAS: Readonly<Record<string, object>> = {
  'any object': { type: 'object' },
  'empty schema': {},
  string: { type: 'string' },
  'bounded string': { type: 'string', minLength: 2, maxLength: 5 },
  'exact length': { type: 'string', minLength: 3, maxLength: 3 },
  pattern: { type: 'string', pattern: '^[A-Z][a-z]+ [0-9]{2}$' },
  'unanchored pattern': { type: 'string', pattern: 'ab"c' },
  formats: {
    type: 'array',
    prefixItems: [
      { type: 'string', format: 'uuid' },
      { type: 'string', format: 'date' },
      { type: 'string', format: 'time' },
      { type: 'string', format: 'date-time' },
    ],
  },
  'integer range': { type: 'integer', minimum: -12, maximum: 345 },
  'exclusive integer': { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 },
  'integer min only': { type: 'integer', minimum: 123 },
  'number range': { type: 'number', minimum: 0, maximum: 100 },
  'enum and const': {
    type: 'object',
    properties: { a: { enum: ['x', 1, null, true] }, b: { const: 'fixed' } },
    required: ['a', 'b'],
  },
  'type list': { type: ['string', 'null'] },
  nested: {
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: 10 },
      kind: { type: 'string', enum: ['cat', 'dog'] },
      owner: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
        },
        required: ['id'],
      },
    },
    required: ['name', 'kind', 'owner'],
    additionalProperties: false,
  },
  'all optional': {
    type: 'object',
    properties: { a: { type: 'boolean' }, b: { type: 'null' }, c: { type: 'number' } },
  },
  'additional properties': {
    type: 'object',
    properties: { id: { type: 'string' } },
    required: ['id'],
    additionalProperties: { type: 'integer' },
  },
  'only additional': { type: 'object', additionalProperties: { type: 'string' } },
  anyOf: { anyOf: [{ type: 'integer' }, { type: 'string', maxLength: 2 }] },
  'oneOf objects': {
    oneOf: [
      { type: 'object', properties: { t: { const: 'a' } }, required: ['t'] },
      { type: 'object', properties: { t: { const: 'b' }, n: { type: 'integer' } }, required: ['t', 'n'] },
    ],
  },
  'recursive $defs': {
    $defs: {
      node: {
        type: 'object',
        properties: { value: { type: 'integer' }, next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] } },
        required: ['value', 'next'],
      },
    },
    $ref: '#/$defs/node',
  },
  definitions: {
    definitions: { pt: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 } },
    type: 'object',
    properties: { p: { $ref: '#/definitions/pt' } },
    required: ['p'],
  },
  'array of arrays': { type: 'array', items: { type: 'array', items: { type: 'integer' }, maxItems: 2 }, maxItems: 3 },
  'empty array only': { type: 'array', maxItems: 0 },
  'odd property names': {
    type: 'object',
    properties: { 'a b': { type: 'string' }, 'quote"d': { type: 'integer' }, x_y: { type: 'boolean' } },
    required: ['a b', 'quote"d', 'x_y'],
  },
};
