/**
 * The checks every endpoint's body goes through before its own: a JSON object, no unknown keys
 * (OpenAI's "Unrecognized request argument"), the required keys present, object parameters
 * that are not arrays, then the endpoint's valibot schema, whose first issue is a 400 naming its
 * top-level parameter. Shared by the completions validator (core) and the SW's chat validator.
 */
import * as v from 'valibot';
import { InvalidRequestError } from '../domain/errors';
import { isRecord } from '../util/is-record';
import { resolveAliases } from './resolve-aliases';

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

/** What a body must have besides passing its schema. */
export interface BodyShape {
  /** Every accepted key (the schema's, the aliases, the constraint fields). */
  known: ReadonlySet<string>;
  required: readonly string[];
  /** Parameters that are objects: valibot's record() and strictObject() take an array as one with index keys. */
  objects: readonly string[];
}

/**
 * The parameter a schema issue names: the top-level field (its own key, which may hold dots, as
 * llama-server's `speculative.n_max` does), or the whole path inside `stream_options`.
 */
function paramOf(issue: v.BaseIssue<unknown>): string | null {
  const top = issue.path?.[0]?.key;
  if (typeof top !== 'string') return null;
  return top === 'stream_options' ? v.getDotPath(issue) : top;
}

/** Checks `body` against `shape` and parses it (aliases resolved) with `schema`; throws a 400 naming the parameter. */
export function parseBody<S extends v.GenericSchema>(
  schema: S,
  body: unknown,
  shape: BodyShape,
): { body: Record<string, unknown>; output: v.InferOutput<S> } {
  if (!isRecord(body)) throw new InvalidRequestError('The request body must be a JSON object.', null, 'invalid_json');
  rejectUnknownKeys(body, shape.known);
  for (const key of shape.required) requireKey(body, key);
  for (const param of shape.objects) {
    if (Array.isArray(body[param])) {
      throw new InvalidRequestError(
        `Invalid type for '${param}': expected an object, but got an array instead.`,
        param,
      );
    }
  }
  const parsed = v.safeParse(schema, resolveAliases(body), { abortEarly: true });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new InvalidRequestError(issue.message, paramOf(issue));
  }
  return { body, output: parsed.output };
}
