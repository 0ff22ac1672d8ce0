/**
 * Speculative decoding as a request asks for it (llama-server's `speculative.*` fields): tokens
 * are drafted cheaply and the model checks them in one batch, keeping those it would have
 * sampled itself, so the output is the same as without it. Two of llama.cpp's types are built:
 * `ngram-simple` (draft-free: what followed the last occurrence of the context's final n-gram,
 * which pays off when the output repeats its context) and `draft-simple` (a smaller model of the
 * same vocabulary, loaded beside the model: `draftModel`, llama-server's `--model-draft`).
 */
import { InvalidRequestError } from './errors';

/** The types built here (common_speculative_type names). */
export type SpeculativeType = 'ngram-simple' | 'draft-simple';

/**
 * What a request asked for, each field null where it was not given. `type` null: the model's
 * default, as llama-server's command line sets it: `draft-simple` where the model has a draft
 * model, else none.
 */
export interface SpeculativeRequest {
  type: SpeculativeType | 'none' | null;
  ngram_size_n: number | null;
  ngram_size_m: number | null;
  n_max: number | null;
  n_min: number | null;
  p_min: number | null;
}

/** Speculative decoding as a choice runs it (`resolveSpeculative`). */
export interface SpeculativeParams {
  type: SpeculativeType;
  /** The n-gram looked up in the context (`speculative.ngram_size_n`). */
  ngram_size_n: number;
  /** The most tokens taken after a match (`speculative.ngram_size_m`). */
  ngram_size_m: number;
  /** The most draft tokens checked at once (`speculative.n_max`). */
  n_max: number;
  /** A shorter draft is not checked (`speculative.n_min`). */
  n_min: number;
  /** A draft model's token is drafted only with at least this probability among its top 10 (`speculative.p_min`). */
  p_min: number;
}

/**
 * llama.cpp's defaults (common_params_speculative). llama-server 0.7.0 caps an n-gram draft only
 * by the room left (context, `n_predict`), so its `n_max` is `ngram_size_m`; a draft model's is
 * `--spec-draft-n-max` (3), with `--spec-draft-n-min` 0 and `--spec-draft-p-min` 0.
 */
export const SPECULATIVE_DEFAULTS: Omit<SpeculativeParams, 'type'> = {
  ngram_size_n: 12,
  ngram_size_m: 48,
  n_max: 48,
  n_min: 0,
  p_min: 0,
};
export const DRAFT_MODEL_N_MAX = 3;

/**
 * The speculative decoding a choice runs, or null (off): `request`'s fields over the defaults of
 * its type, the model's default type where it names none. A 400 for a draft model's type or
 * `p_min` without one, and for `n_min` above `n_max`.
 */
export function resolveSpeculative(
  request: SpeculativeRequest | null,
  hasDraftModel: boolean,
): SpeculativeParams | null {
  const type = request?.type ?? (hasDraftModel ? 'draft-simple' : 'none');
  const pMin = request?.p_min ?? 0;
  if (type === 'draft-simple' && !hasDraftModel)
    throw new InvalidRequestError(
      "'speculative.type' 'draft-simple' needs a draft model, and this model has none (startInpage's `draftModel`).",
      'speculative.type',
      'unsupported_parameter',
    );
  if (type !== 'draft-simple' && pMin !== 0)
    throw new InvalidRequestError(
      "'speculative.p_min' applies to a draft model's tokens, and this request uses no draft model.",
      'speculative.p_min',
      'unsupported_parameter',
    );
  if (type === 'none') return null;
  const params: SpeculativeParams = {
    type,
    ngram_size_n: request?.ngram_size_n ?? SPECULATIVE_DEFAULTS.ngram_size_n,
    ngram_size_m: request?.ngram_size_m ?? SPECULATIVE_DEFAULTS.ngram_size_m,
    n_max: request?.n_max ?? (type === 'draft-simple' ? DRAFT_MODEL_N_MAX : SPECULATIVE_DEFAULTS.n_max),
    n_min: request?.n_min ?? SPECULATIVE_DEFAULTS.n_min,
    p_min: pMin,
  };
  if (params.n_min > params.n_max)
    throw new InvalidRequestError(
      "'speculative.n_min' must not exceed 'speculative.n_max'.",
      'speculative.n_min',
      'invalid_value',
    );
  return params;
}

/** Speculative decoding's counts for one choice, as llama-server's `timings` give them. */
export interface DraftCounts {
  /** Draft tokens checked (`draft_n`). */
  drafted: number;
  /** Of them, those the model kept (`draft_n_accepted`). */
  accepted: number;
  /** Drafts checked, each in one batch (llama-server's `/metrics` `spec_decode_num_drafts_total`). */
  checks: number;
  /**
   * Drafts whose token at position i (from 0) was kept, for i below the request's `n_max`
   * (llama-server's `spec_decode_num_accepted_tokens_per_pos_total`); absent before the first check.
   */
  accepted_per_pos?: number[];
}
