/**
 * Speculative decoding as a request asks for it (llama-server's `speculative.*` fields): the
 * engine drafts tokens and the model checks them in one batch, keeping those it would have
 * sampled itself, so the output is the same as without it. Only llama.cpp's draft-free mode,
 * `ngram-simple`, is built: a draft is what followed the last occurrence of the context's final
 * n-gram, which pays off when the output repeats its context (code edits, quoting, loops).
 */

export interface SpeculativeParams {
  type: 'ngram-simple';
  /** The n-gram looked up in the context (`speculative.ngram_size_n`). */
  ngram_size_n: number;
  /** The most tokens taken after a match (`speculative.ngram_size_m`). */
  ngram_size_m: number;
  /** The most draft tokens checked at once (`speculative.n_max`). */
  n_max: number;
  /** A shorter draft is not checked (`speculative.n_min`). */
  n_min: number;
}

/**
 * llama.cpp's defaults (common_params_speculative's ngram_simple). llama-server 0.7.0 caps an
 * n-gram draft only by the room left (context, `n_predict`), so `n_max` is `ngram_size_m`.
 */
export const SPECULATIVE_DEFAULTS: Omit<SpeculativeParams, 'type'> = {
  ngram_size_n: 12,
  ngram_size_m: 48,
  n_max: 48,
  n_min: 0,
};

/** Speculative decoding's counts for one choice, as llama-server's `timings` give them. */
export interface DraftCounts {
  /** Draft tokens checked (`draft_n`). */
  drafted: number;
  /** Of them, those the model kept (`draft_n_accepted`). */
  accepted: number;
}
