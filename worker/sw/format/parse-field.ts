/**
 * Edge helpers shared by the chat, responses and embeddings validators: run one valibot schema
 * on one value and turn the first issue into an OpenAI-style 400 naming `param`. The body checks
 * every endpoint shares are core's (`isRecord` in is-record, `rejectUnknownKeys` and `requireKey`
 * in parse-body).
 */
import * as v from 'valibot';
import { InvalidRequestError } from '#core/domain/errors';
import { isRecord } from '#core/util/is-record';
import { describeValue } from '#core/openai/describe-value';

/** Parses `value` with `schema`, or throws `InvalidRequestError(issue.message, param)`. */
export function parseField<S extends v.GenericSchema>(schema: S, value: unknown, param: string): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value, { abortEarly: true });
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const path = v.getDotPath(issue);
  throw new InvalidRequestError(issue.message, path === null ? param : `${param}.${path}`);
}

/** Asserts `value` is a JSON object, else a 400 "Invalid type for 'param'". */
export function expectObject(value: unknown, param: string): Record<string, unknown> {
  if (isRecord(value)) return value;
  throw new InvalidRequestError(
    `Invalid type for '${param}': expected an object, but got ${describeValue(value)} instead.`,
    param,
  );
}
