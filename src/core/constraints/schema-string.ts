/**
 * `type: string` -> GBNF: plain strings, `minLength`/`maxLength` (JSON characters, an escape
 * counts as one), `pattern` (through the regex converter, JSON-escaped, unanchored ends open),
 * and the formats `uuid`, `date`, `time`, `date-time`. Other formats, or a pattern combined
 * with a length, are 400s (`unsupported_schema`).
 */
import { InvalidRequestError } from '../domain/errors';
import type { SchemaContext } from './schema-context';
import type { SchemaObject } from './schema-keywords';
import type { SchemaPlace } from './schema-error';
import { isKnownFormat, usePrimitive } from './json-primitives';
import { regexExpression } from './regex-to-gbnf';
import { childPlace, invalidSchema, unsupportedSchema } from './schema-error';
import { readCount, readString } from './schema-keywords';

function patternExpression(ctx: SchemaContext, pattern: string, place: SchemaPlace): string {
  try {
    return regexExpression(pattern, place.param, { ...ctx.notation.pattern, fullMatch: false });
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    const at = childPlace(place, 'pattern');
    throw error.code === 'unsupported_regex' ? unsupportedSchema(at, error.message) : invalidSchema(at, error.message);
  }
}

export function stringExpression(ctx: SchemaContext, schema: SchemaObject, place: SchemaPlace): string {
  const minLength = readCount(schema, 'minLength', place);
  const maxLength = readCount(schema, 'maxLength', place);
  const pattern = readString(schema, 'pattern', place);
  const format = readString(schema, 'format', place);
  const hasLength = minLength !== undefined || maxLength !== undefined;
  if (format !== undefined) {
    if (!isKnownFormat(format))
      throw unsupportedSchema(
        place,
        `string format '${format}' is not supported (supported: uuid, date, time, date-time)`,
      );
    if (hasLength || pattern !== undefined)
      throw unsupportedSchema(place, `'format' combined with 'pattern' or a length is not supported`);
    return ctx.notation.format(ctx.rules, format);
  }
  if (pattern !== undefined) {
    if (hasLength) throw unsupportedSchema(place, `'pattern' combined with 'minLength'/'maxLength' is not supported`);
    return marked(ctx, patternExpression(ctx, pattern, place));
  }
  if (!hasLength) return ctx.notation.any(ctx.rules, 'string');
  const min = minLength ?? 0;
  if (maxLength !== undefined && maxLength < min)
    throw invalidSchema(place, `'maxLength' (${maxLength}) is less than 'minLength' (${min})`);
  const char = ctx.notation.char(ctx.rules);
  const repeat =
    maxLength === min ? `{${min}}` : maxLength === undefined && min === 0 ? '*' : `{${min},${maxLength ?? ''}}`;
  return marked(ctx, `${char}${repeat}`);
}

/** `body` between the notation's string marks, then the whitespace after a value. */
function marked(ctx: SchemaContext, body: string): string {
  const { quote, space } = ctx.notation;
  if (space !== '') usePrimitive(ctx.rules, space);
  return [quote, body, quote, space].filter((part) => part !== '').join(' ');
}
