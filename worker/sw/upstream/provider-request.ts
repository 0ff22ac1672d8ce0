/**
 * A request's `provider` (NanoGPT's shape): a target name (only that one), or
 * `{ order, only, ignore, allow_fallbacks, require_parameters }` over the route's target names.
 * A name the route does not have is a 400 `provider_unknown_provider` naming the known ones.
 */
import * as v from 'valibot';
import { InvalidRequestError } from '#core/domain/errors';

export interface ProviderRequest {
  order?: string[] | undefined;
  only?: string[] | undefined;
  ignore?: string[] | undefined;
  allow_fallbacks?: boolean | undefined;
  require_parameters?: boolean | undefined;
}

const names = v.optional(v.array(v.string()));
const providerSchema = v.union([
  v.string(),
  v.strictObject({
    order: names,
    only: names,
    ignore: names,
    allow_fallbacks: v.optional(v.boolean()),
    require_parameters: v.optional(v.boolean()),
  }),
]);

/** The request's provider preferences (absent: none), checked against the route's `targets`. */
export function readProvider(value: unknown, targets: readonly string[]): ProviderRequest {
  if (value === undefined || value === null) return {};
  const parsed = v.safeParse(providerSchema, value);
  if (!parsed.success) {
    throw new InvalidRequestError(
      "'provider' must be a target name or an object with order, only, ignore (arrays of target names), allow_fallbacks and require_parameters (booleans).",
      'provider',
      'invalid_value',
    );
  }
  const provider: ProviderRequest = typeof parsed.output === 'string' ? { only: [parsed.output] } : parsed.output;
  for (const field of ['only', 'order', 'ignore'] as const) {
    const unknown = provider[field]?.find((name) => !targets.includes(name));
    if (unknown !== undefined) {
      const param = typeof parsed.output === 'string' ? 'provider' : `provider.${field}`;
      throw new InvalidRequestError(
        `Unknown provider '${unknown}' in '${param}': this route's providers are ${targets.join(', ')}.`,
        param,
        'provider_unknown_provider',
      );
    }
  }
  return provider;
}
