/**
 * The request fields that constrain output, one row each, in the order they are read: the
 * OpenAI ones (`response_format`, Responses' `text.format`), llama.cpp's (`json_schema`,
 * `grammar`), SGLang's (`regex`, `ebnf`), vLLM's up to 0.11 (`guided_json`, `guided_regex`,
 * `guided_choice`, `guided_grammar`) and from 0.12 (`structured_outputs`).
 */
import type { GrammarConstraint } from './constraint';
import { InvalidRequestError } from '../domain/errors';
import { choiceConstraint, grammarConstraint, regexConstraint, schemaConstraint } from './constraint-readers';
import { readFormat } from './response-format';

/** A row: the request field and how its (non-null) value becomes a constraint (null: none). */
export interface ConstraintField {
  readonly param: string;
  readonly read: (value: unknown, param: string) => GrammarConstraint | null;
}

/** vLLM >= 0.12: `structured_outputs: {json | regex | choice | grammar | json_object}`, exactly one. */
function structuredOutputs(value: unknown, param: string): GrammarConstraint | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidRequestError(`'${param}' must be an object`, param, 'invalid_type');
  const readers: Record<string, ConstraintField['read']> = {
    json: schemaConstraint,
    regex: regexConstraint,
    choice: choiceConstraint,
    grammar: grammarConstraint,
    json_object: (flag, at) => (flag === true ? readFormat({ type: 'json_object' }, at) : null),
  };
  const present = Object.entries(value).filter(([, v]) => v !== undefined && v !== null);
  const unknown = present.find(([key]) => !(key in readers) && key !== 'whitespace_pattern');
  if (unknown)
    throw new InvalidRequestError(
      `'${param}.${unknown[0]}' is not supported`,
      `${param}.${unknown[0]}`,
      'unsupported_parameter',
    );
  const given = present.filter(([key]) => key in readers);
  if (given.length > 1)
    throw new InvalidRequestError(
      `'${param}' must hold one constraint; '${param}.${given[1]?.[0]}' cannot be combined with '${param}.${given[0]?.[0]}'`,
      `${param}.${given[1]?.[0]}`,
      'conflicting_constraints',
    );
  if (present.some(([key]) => key === 'whitespace_pattern'))
    throw new InvalidRequestError(
      `'${param}.whitespace_pattern' is not supported`,
      `${param}.whitespace_pattern`,
      'unsupported_parameter',
    );
  const [key, inner] = given[0] ?? [];
  return key === undefined ? null : (readers[key] as ConstraintField['read'])(inner, `${param}.${key}`);
}

export const CONSTRAINT_FIELDS: readonly ConstraintField[] = [
  { param: 'response_format', read: readFormat },
  { param: 'text.format', read: readFormat },
  { param: 'json_schema', read: schemaConstraint },
  { param: 'grammar', read: grammarConstraint },
  { param: 'regex', read: regexConstraint },
  { param: 'ebnf', read: grammarConstraint },
  { param: 'guided_json', read: schemaConstraint },
  { param: 'guided_regex', read: regexConstraint },
  { param: 'guided_choice', read: choiceConstraint },
  { param: 'guided_grammar', read: grammarConstraint },
  { param: 'structured_outputs', read: structuredOutputs },
];
