/**
 * A follower tab's readiness: its engine runs in another tab, so it asks the SW's readiness path
 * (`probe-endpoint.ts`: the leader's engine answers, no upstream is asked) until that engine
 * answers, retrying while no page serves the model yet (the leader is starting, or a closed
 * leader's successor is loading). Resolves with the spec the leader serves: with
 * `backend: 'auto'` it may be the fallback.
 */
import { OpenAIError } from '../core/domain/errors';
import type { ModelSpec } from '../core/domain/model-spec';
import { probeEndpoint } from './probe-endpoint';
import type { ResolvedModels } from './resolve-backend';

/** The answers that mean "no engine serves the model yet, ask again". */
const NOT_YET = new Set(['engine_not_loaded', 'engine_gone']);
const RETRY_MS = 100;

/** `probeEndpoint`, retried on `NOT_YET` answers until one succeeds or `timeoutMs` passed. */
export async function probeUntilServed(
  prefix: string,
  model: string,
  apiKey: string | null,
  timeoutMs: number,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      return await probeEndpoint(prefix, model, apiKey, timeoutMs);
    } catch (error) {
      const again = error instanceof OpenAIError && error.code !== null && NOT_YET.has(error.code);
      if (!again || performance.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

/** `probeUntilServed` on the primary model, then once on the fallback (if any) when that failed. */
export async function probeLeader(
  prefix: string,
  models: ResolvedModels,
  apiKey: string | null,
  timeoutMs: number,
): Promise<ModelSpec> {
  try {
    await probeUntilServed(prefix, models.primary.id, apiKey, timeoutMs);
    return models.primary;
  } catch (error) {
    if (!models.fallback) throw error;
    await probeEndpoint(prefix, models.fallback.id, apiKey, timeoutMs).catch(() => Promise.reject(error));
    return models.fallback;
  }
}
