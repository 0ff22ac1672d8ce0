/**
 * OpenAI's `response_format` (Chat, Completions) and `text.format` (Responses) ->
 * constraint: `text` is none, `json_object` any JSON object (or llama.cpp's
 * `{type:'json_object', schema}`), `json_schema` the schema in `json_schema.schema` (Chat) or
 * in `schema` beside `type` (Responses). `strict` does not change the grammar.
 */
import type { GrammarConstraint } from './constraint';
import { InvalidRequestError } from '../domain/errors';
import { isRecord } from '../util/is-record';
import { schemaConstraint } from './constraint-readers';
import { jsonObjectGbnf } from './json-schema-to-gbnf';

export function readFormat(value: unknown, param: string): GrammarConstraint | null {
  if (!isRecord(value)) throw new InvalidRequestError(`'${param}' must be an object`, param, 'invalid_type');
  const type = value['type'];
  if (type === 'text') return null;
  if (type === 'json_object') {
    if (value['schema'] !== undefined && value['schema'] !== null)
      return schemaConstraint(value['schema'], `${param}.schema`);
    return { gbnf: jsonObjectGbnf(), kind: 'json', param, schema: { type: 'object' } };
  }
  if (type === 'json_schema') {
    const holder = param === 'text.format' || !isRecord(value['json_schema']) ? value : value['json_schema'];
    const where = holder === value ? param : `${param}.json_schema`;
    if (param !== 'text.format' && holder === value && value['schema'] === undefined) {
      throw new InvalidRequestError(
        `'${param}.json_schema' is required when '${param}.type' is 'json_schema'`,
        `${param}.json_schema`,
        'missing_required_parameter',
      );
    }
    const name = holder['name'];
    if (name !== undefined && (typeof name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(name))) {
      throw new InvalidRequestError(
        `'${where}.name' must be 1-64 characters of a-z, A-Z, 0-9, '_' or '-'`,
        `${where}.name`,
        'invalid_value',
      );
    }
    const schema = holder['schema'];
    return { ...schemaConstraint(schema === undefined || schema === null ? {} : schema, param), param };
  }
  throw new InvalidRequestError(
    `'${param}.type' must be 'text', 'json_object' or 'json_schema' (got ${JSON.stringify(type)})`,
    `${param}.type`,
    'invalid_value',
  );
}
