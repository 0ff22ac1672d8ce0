/**
 * A target's failure and whether it moves on to the next target: which `FallbackCause` it is.
 * Unreachable, timed out, 5xx, 429 and an upstream's 401/403/404 (configuration) do; so do the
 * in-page engine's 503s (`model_load_failed`, `webgpu_unavailable`, no engine) and its 404 (the
 * page serves another model). A 4xx the request caused does not: it is the answer.
 */
import { OpenAIError } from '#core/domain/errors';
import type { FallbackCause } from '#core/route-table/route-table-schema';

/** An upstream's failure, with its cause (null: the request's fault, no fallback). */
export class TargetFailure extends Error {
  override name = 'TargetFailure';
  constructor(
    readonly error: OpenAIError,
    readonly fallback: FallbackCause | null,
  ) {
    super(error.message);
  }
}

/** The cause of a status an upstream or the device answered with. */
export function causeOfStatus(status: number, fromDevice: boolean): FallbackCause | null {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  if (fromDevice) return status === 404 ? 'configuration' : null;
  return status === 401 || status === 403 || status === 404 ? 'configuration' : null;
}

/** Anything a target threw, as an error and its cause. */
export function failureOf(error: unknown, fromDevice: boolean): TargetFailure | null {
  if (error instanceof TargetFailure) return error;
  if (error instanceof OpenAIError) return new TargetFailure(error, causeOfStatus(error.status, fromDevice));
  return null;
}
