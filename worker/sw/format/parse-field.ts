/**
 * Edge helpers shared by the chat, responses and embeddings validators: run one valibot schema
 * on one value and turn the first issue into an OpenAI-style 400 naming `param`.
 */
import * as v from 'valibot';
import { InvalidRequestError } from '../../../src/core/errors';
import { describeValue } from '../../../src/core/openai/describe-value';

/** Parses `value` with `schema`, or throws `InvalidRequestError(issue.message, param)`. */
export function parseField<S extends v.GenericSchema>(schema: S, value: unknown, param: string): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value, { abortEarly: true });
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const path = v.getDotPath(issue);
  throw new InvalidRequestError(issue.message, path === null ? param : `${param}.${path}`);
}

/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Asserts `value` is a JSON object, else a 400 "Invalid type for 'param'". */
export function expectObject(value: unknown, param: string): Record<string, unknown> {
  if (isRecord(value)) return value;
  throw new InvalidRequestError(
    `Invalid type for '${param}': expected an object, but got ${describeValue(value)} instead.`,
    param,
  );
}

/** Rejects any key of `value` not in `known` with OpenAI's "Unrecognized request argument". */
export function rejectUnknownKeys(value: Record<string, unknown>, known: ReadonlySet<string>, prefix = ''): void {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) {
      const param = `${prefix}${key}`;
      throw new InvalidRequestError(`Unrecognized request argument supplied: ${param}`, param, 'unknown_parameter');
    }
  }
}

/** Throws OpenAI's "Missing required parameter" when `value[key]` is null or absent. */
export function requireKey(value: Record<string, unknown>, key: string, prefix = ''): unknown {
  const found = value[key];
  if (found == null) {
    const param = `${prefix}${key}`;
    throw new InvalidRequestError(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
  }
  return found;
}
