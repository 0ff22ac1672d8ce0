/**
 * The prompt cache across page loads (`startInpage({ promptCache })`): after a request the
 * llama.cpp engine saves its context's KV state (the prompt and the answer so far) to the
 * origin's storage, and a request on a later load that starts with the same tokens restores it
 * instead of reading the prefix again. `false` turns it off; `{ maxMiB, maxAgeDays }` bound what
 * it keeps (oldest-used states go first). Requests with `cache_prompt: false` never read or
 * write it. Bad values are a 400 naming the field.
 */
import { InvalidRequestError } from './errors';

export interface PromptCacheSettings {
  /** Off: nothing is saved or restored. */
  enabled: boolean;
  /** The most storage the saved states take, in MiB. */
  maxMiB: number;
  /** States not used for this many days are deleted. */
  maxAgeDays: number;
}

/** What a page may pass. */
export type PromptCacheOption = boolean | { maxMiB?: number; maxAgeDays?: number };

export const DEFAULT_PROMPT_CACHE: PromptCacheSettings = { enabled: true, maxMiB: 1024, maxAgeDays: 7 };

function positive(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  throw new InvalidRequestError(`${field}: ${JSON.stringify(value)} is not a positive number.`, field, 'invalid_value');
}

/** `value` as settings; throws a 400 naming the field for anything else. */
export function readPromptCache(value: unknown, field = 'promptCache'): PromptCacheSettings {
  if (value === undefined || value === true) return DEFAULT_PROMPT_CACHE;
  if (value === false) return { ...DEFAULT_PROMPT_CACHE, enabled: false };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidRequestError(
      `${field}: ${JSON.stringify(value)} is not a prompt cache setting: use true, false or { maxMiB, maxAgeDays }.`,
      field,
      'invalid_type',
    );
  const fields = new Map<string, unknown>(Object.entries(value));
  const extra = [...fields.keys()].find((key) => key !== 'maxMiB' && key !== 'maxAgeDays');
  if (extra !== undefined)
    throw new InvalidRequestError(`${field}.${extra} is not a prompt cache setting: use maxMiB and maxAgeDays.`, field);
  return {
    enabled: true,
    maxMiB: positive(fields.get('maxMiB'), `${field}.maxMiB`, DEFAULT_PROMPT_CACHE.maxMiB),
    maxAgeDays: positive(fields.get('maxAgeDays'), `${field}.maxAgeDays`, DEFAULT_PROMPT_CACHE.maxAgeDays),
  };
}
