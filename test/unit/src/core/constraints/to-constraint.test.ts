/** toConstraint: every accepted field spelling, conflicts, and the 400s that name the field. */
import { describe, expect, it } from 'vitest';
import { toConstraint } from '../../../../../src/core/constraints/to-constraint';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';

const schema = { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] };

function errorOf(run: () => unknown): InvalidRequestError {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('toConstraint', () => {
  it('no fields, nulls and text formats are no constraint', () => {
    expect(toConstraint({})).toBeNull();
    expect(
      toConstraint({ grammar: null, response_format: { type: 'text' }, text: { format: { type: 'text' } } }),
    ).toBeNull();
  });

  it.each([
    [{ response_format: { type: 'json_object' } }, 'json', 'response_format'],
    [{ response_format: { type: 'json_object', schema } }, 'json_schema', 'response_format.schema'],
    [
      { response_format: { type: 'json_schema', json_schema: { name: 'x', schema, strict: true } } },
      'json_schema',
      'response_format',
    ],
    [{ text: { format: { type: 'json_schema', name: 'x', schema, strict: true } } }, 'json_schema', 'text.format'],
    [{ text: { format: { type: 'json_object' } } }, 'json', 'text.format'],
    [{ json_schema: schema }, 'json_schema', 'json_schema'],
    [{ json_schema: JSON.stringify(schema) }, 'json_schema', 'json_schema'],
    [{ grammar: 'root ::= "a"' }, 'grammar', 'grammar'],
    [{ ebnf: 'root ::= "a"' }, 'grammar', 'ebnf'],
    [{ regex: '[a-z]+' }, 'regex', 'regex'],
    [{ guided_regex: '[a-z]+' }, 'regex', 'guided_regex'],
    [{ guided_choice: ['a', 'b'] }, 'choice', 'guided_choice'],
    [{ guided_json: schema }, 'json_schema', 'guided_json'],
    [{ guided_grammar: 'root ::= "a"' }, 'grammar', 'guided_grammar'],
    [{ structured_outputs: { choice: ['a'] } }, 'choice', 'structured_outputs.choice'],
    [{ structured_outputs: { json: schema } }, 'json_schema', 'structured_outputs.json'],
    [{ structured_outputs: { json_object: true } }, 'json', 'structured_outputs.json_object'],
  ])('%j', (request, kind, param) => {
    const constraint = toConstraint(request);
    expect(constraint?.kind).toBe(kind);
    expect(constraint?.param).toBe(param);
    expect(constraint?.gbnf).toMatch(/^root ::= /);
  });

  it('keeps the schema for backends that take JSON schema', () => {
    expect(
      toConstraint({ response_format: { type: 'json_schema', json_schema: { name: 'x', schema } } })?.schema,
    ).toEqual(schema);
    expect(toConstraint({ response_format: { type: 'json_object' } })?.schema).toEqual({ type: 'object' });
  });

  it('gives exact grammars for choices and regexes', () => {
    expect(toConstraint({ guided_choice: ['yes', 'no'] })?.gbnf).toBe('root ::= "yes" | "no"\n');
    expect(toConstraint({ regex: '[0-9]{3}-x[a-z]{2}' })?.gbnf).toBe('root ::= [0-9]{3} "-x" [a-z]{2}\n');
  });

  it.each([
    [
      { response_format: { type: 'json_object' }, grammar: 'root ::= "a"' },
      'grammar',
      "'grammar' cannot be combined with 'response_format'",
    ],
    [{ regex: 'a', guided_choice: ['a'] }, 'guided_choice', "'guided_choice' cannot be combined with 'regex'"],
    [{ json_schema: schema, grammar: 'broken' }, 'grammar', "'grammar' cannot be combined with 'json_schema'"],
    [{ structured_outputs: { regex: 'a', choice: ['a'] } }, 'structured_outputs.choice', 'must hold one constraint'],
  ])('conflict %j', (request, param, what) => {
    const error = errorOf(() => toConstraint(request));
    expect(error.param).toBe(param);
    expect(error.code).toBe('conflicting_constraints');
    expect(error.message).toContain(what);
  });

  it.each([
    [{ response_format: { type: 'yaml' } }, 'response_format.type', 'invalid_value'],
    [{ response_format: 'json' }, 'response_format', 'invalid_type'],
    [{ response_format: { type: 'json_schema' } }, 'response_format.json_schema', 'missing_required_parameter'],
    [
      { response_format: { type: 'json_schema', json_schema: { name: 'bad name!', schema } } },
      'response_format.json_schema.name',
      'invalid_value',
    ],
    [
      {
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'x', schema: { type: 'integer', multipleOf: 2 } },
        },
      },
      'response_format',
      'unsupported_schema',
    ],
    [{ json_schema: '{"type":' }, 'json_schema', 'invalid_schema'],
    [{ grammar: 'root ::= x' }, 'grammar', 'invalid_grammar'],
    [{ grammar: 42 }, 'grammar', 'invalid_type'],
    [{ regex: '(?!a)b' }, 'regex', 'unsupported_regex'],
    [{ guided_choice: [] }, 'guided_choice', 'invalid_choice'],
    [{ guided_choice: ['a', 1] }, 'guided_choice', 'invalid_choice'],
    [{ structured_outputs: { structural_tag: {} } }, 'structured_outputs.structural_tag', 'unsupported_parameter'],
    [
      { structured_outputs: { regex: 'a', whitespace_pattern: ' ' } },
      'structured_outputs.whitespace_pattern',
      'unsupported_parameter',
    ],
  ])('refuses %j', (request, param, code) => {
    const error = errorOf(() => toConstraint(request));
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.code).toBe(code);
  });

  it("reports the JSON parser's message for a schema given as text", () => {
    expect(errorOf(() => toConstraint({ guided_json: '{"type":' })).message).toMatch(
      /^Invalid JSON schema in 'guided_json' at #: not valid JSON: /,
    );
  });
});
