/**
 * A route's parameter policy, applied to the request body before any target sees it: a denied
 * field is a 400 naming it, then `defaults` fill what the request left out and `overrides`
 * replace what it said. `model` and `provider` are the router's and are never touched.
 */
import { InvalidRequestError } from '#core/domain/errors';
import type { ParamPolicy } from '#core/route-table/route-table-schema';

const RESERVED = new Set(['model', 'provider']);

export function applyParamPolicy(
  body: Record<string, unknown>,
  policy: ParamPolicy | undefined,
): Record<string, unknown> {
  if (!policy) return body;
  const denied = policy.deny?.find((field) => Object.hasOwn(body, field) && body[field] !== undefined);
  if (denied !== undefined)
    throw new InvalidRequestError(`'${denied}' is not allowed on this route.`, denied, 'parameter_denied');
  const out = { ...body };
  for (const [field, value] of Object.entries(policy.defaults ?? {}))
    if (!RESERVED.has(field) && !Object.hasOwn(out, field)) out[field] = value;
  for (const [field, value] of Object.entries(policy.overrides ?? {})) if (!RESERVED.has(field)) out[field] = value;
  return out;
}
