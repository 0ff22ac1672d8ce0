/**
 * Readers from one request value to a constraint, by kind: a JSON schema (object or JSON
 * text), a GBNF grammar (checked), a regular expression, a list of choices.
 */
import type { GrammarConstraint } from './constraint';
import { InvalidRequestError } from '../domain/errors';
import { checkWellFormed } from '../domain/lone-surrogate';
import { choiceToGbnf } from './choice-to-gbnf';
import { checkGbnf } from './gbnf-check';
import { jsonSchemaToGbnf } from './json-schema-to-gbnf';
import { regexToGbnf } from './regex-to-gbnf';
import { invalidSchema } from './schema-error';

/** A JSON schema given as an object or as JSON text (SGLang, vLLM accept both). */
export function schemaConstraint(value: unknown, param: string): GrammarConstraint {
  let schema = value;
  if (typeof value === 'string') {
    try {
      schema = JSON.parse(value);
    } catch (error) {
      throw invalidSchema(
        { param, path: '#' },
        `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    checkWellFormed(schema, value, param);
  }
  if (typeof schema !== 'object' && typeof schema !== 'boolean')
    throw invalidSchema({ param, path: '#' }, 'a schema must be an object or a boolean');
  const gbnf = jsonSchemaToGbnf(schema, param);
  return { gbnf, kind: 'json_schema', param, schema: typeof schema === 'object' && schema !== null ? schema : {} };
}

export function grammarConstraint(value: unknown, param: string): GrammarConstraint {
  if (typeof value !== 'string')
    throw new InvalidRequestError(`'${param}' must be a string (a GBNF grammar)`, param, 'invalid_type');
  checkGbnf(value, param);
  return { gbnf: value, kind: 'grammar', param };
}

export function regexConstraint(value: unknown, param: string): GrammarConstraint {
  if (typeof value !== 'string')
    throw new InvalidRequestError(`'${param}' must be a string (a regular expression)`, param, 'invalid_type');
  return { gbnf: regexToGbnf(value, param), kind: 'regex', param };
}

export function choiceConstraint(value: unknown, param: string): GrammarConstraint {
  return { gbnf: choiceToGbnf(value, param), kind: 'choice', param };
}
