/**
 * Validates `response_format` ({type:'text'|'json_object'|'json_schema', json_schema?}) and passes
 * it through opaque: constrained decoding is the engine's business.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { isRecord } from '#core/util/is-record';
import { rejectUnknownKeys, requireKey } from '#core/openai/parse-body';
import { typeError } from './validate-chat-tools';
import type { ResponseFormat } from './chat-types';

const SCHEMA_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** `param` names the field in messages ('response_format', or 'text.format' for Responses). */
export function validateResponseFormat(format: unknown, param = 'response_format'): ResponseFormat {
  if (format == null) return { type: 'text' };
  if (!isRecord(format)) throw typeError(param, 'an object', format);
  switch (format.type) {
    case 'text':
    case 'json_object':
      rejectUnknownKeys(format, new Set(['type']), `${param}.`);
      return { type: format.type };
    case 'json_schema': {
      rejectUnknownKeys(format, new Set(['type', 'json_schema']), `${param}.`);
      const spec = requireKey(format, 'json_schema', `${param}.`);
      if (!isRecord(spec)) throw typeError(`${param}.json_schema`, 'an object', spec);
      return { type: 'json_schema', json_schema: validateJsonSchemaSpec(spec, `${param}.json_schema.`) };
    }
    default:
      throw new InvalidRequestError(
        `Invalid value for '${param}.type': expected one of 'text', 'json_object', 'json_schema', but got ${JSON.stringify(format.type ?? null)}.`,
        `${param}.type`,
      );
  }
}

/** `{name, description?, schema?, strict?}`: the json_schema spec (flat in Responses' text.format). */
export function validateJsonSchemaSpec(spec: Record<string, unknown>, at: string, extra: readonly string[] = []) {
  rejectUnknownKeys(spec, new Set(['name', 'description', 'schema', 'strict', ...extra]), at);
  const name = requireKey(spec, 'name', at);
  if (typeof name !== 'string' || !SCHEMA_NAME.test(name)) {
    throw new InvalidRequestError(
      `Invalid value for '${at}name': expected 1 to 64 letters, digits, underscores or dashes.`,
      `${at}name`,
    );
  }
  const { description, schema, strict } = spec;
  if (description != null && typeof description !== 'string')
    throw typeError(`${at}description`, 'a string', description);
  if (schema != null && !isRecord(schema)) throw typeError(`${at}schema`, 'an object (a JSON schema)', schema);
  if (strict != null && typeof strict !== 'boolean') throw typeError(`${at}strict`, 'a boolean', strict);
  return {
    name,
    ...(description == null ? {} : { description }),
    ...(schema == null ? {} : { schema }),
    ...(strict == null ? {} : { strict }),
  };
}
