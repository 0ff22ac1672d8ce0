/**
 * One choice's sampler, in the field names the glue reads (native/sampling.cpp, which sets up
 * llama.cpp's common sampler from them, the chain llama-server runs). Every sampler is set
 * explicitly: llama.cpp's own defaults (top_k 40, min_p 0.05) are not OpenAI's. Stop strings
 * and stop ids are not here: the engine's shared layer applies them for every backend.
 */
import type { LogitBias } from '#core/domain/parameters';
import type { ChoiceReasoning, ChoiceRequest } from '../../backend';
import { escapeRegExp } from '#core/util/escape-regexp';

export interface SamplerSpec {
  temperature: number;
  top_k: number;
  top_p: number;
  min_p: number;
  top_n_sigma: number;
  typical_p: number;
  mirostat: number;
  mirostat_tau: number;
  mirostat_eta: number;
  presence_penalty: number;
  frequency_penalty: number;
  repeat_penalty: number;
  penalty_last_n: number;
  dynatemp_range: number;
  dynatemp_exponent: number;
  xtc_probability: number;
  xtc_threshold: number;
  dry_multiplier: number;
  dry_base: number;
  dry_allowed_length: number;
  dry_penalty_last_n: number;
  dry_sequence_breakers: string[];
  adaptive_target: number;
  adaptive_decay: number;
  min_keep: number;
  /** The chain's order, in llama.cpp's canonical names. */
  samplers: string[];
  /** [token id, bias] pairs. */
  logit_bias: Array<[number, number]>;
  /** Absent: a random seed. */
  seed?: number;
  ignore_eos: boolean;
  grammar?: string;
  grammar_lazy?: boolean;
  /** Full-match patterns; the first capture group is where the constrained text starts. */
  trigger_patterns?: string[];
  /** A reasoning budget, in llama-server's sampler fields (native/sampling.cpp): absent, none. */
  reasoning_budget_tokens?: number;
  reasoning_budget_start_tag?: string;
  reasoning_budget_end_tags?: string[];
  reasoning_budget_message?: string;
  reasoning_control?: boolean;
  generation_prompt?: string;
}

/**
 * `request`'s sampler; `tokenize` reads a `logit_bias` text into its tokens (without special
 * tokens, as llama-server's `common_tokenize`).
 */
export function samplerSpec<P>(request: ChoiceRequest<P>, tokenize: (text: string) => number[]): SamplerSpec {
  return {
    temperature: request.temperature,
    top_k: request.top_k,
    top_p: request.top_p,
    min_p: request.min_p,
    top_n_sigma: request.top_n_sigma,
    typical_p: request.typical_p,
    mirostat: request.mirostat,
    mirostat_tau: request.mirostat_tau,
    mirostat_eta: request.mirostat_eta,
    presence_penalty: request.presence_penalty,
    frequency_penalty: request.frequency_penalty,
    repeat_penalty: request.repetition_penalty,
    penalty_last_n: request.repeat_last_n,
    dynatemp_range: request.dynatemp_range,
    dynatemp_exponent: request.dynatemp_exponent,
    xtc_probability: request.xtc_probability,
    xtc_threshold: request.xtc_threshold,
    dry_multiplier: request.dry_multiplier,
    dry_base: request.dry_base,
    dry_allowed_length: request.dry_allowed_length,
    dry_penalty_last_n: request.dry_penalty_last_n,
    dry_sequence_breakers: [...request.dry_sequence_breakers],
    adaptive_target: request.adaptive_target,
    adaptive_decay: request.adaptive_decay,
    min_keep: request.min_keep,
    samplers: [...request.samplers],
    logit_bias: tokenBiases(request.logit_bias, tokenize),
    ...(request.seed === null ? {} : { seed: request.seed >>> 0 }),
    ignore_eos: request.ignore_eos,
    ...(request.grammar === null ? {} : { grammar: request.grammar.gbnf }),
    ...(request.grammar?.trigger === undefined ? {} : lazyGrammar(request.grammar.trigger)),
    ...(request.reasoning ? reasoningBudget(request.reasoning) : {}),
  };
}

/** The budget's fields, as llama-server hands them to its sampler. */
function reasoningBudget(reasoning: ChoiceReasoning): Partial<SamplerSpec> {
  return {
    reasoning_budget_tokens: reasoning.budget,
    reasoning_budget_start_tag: reasoning.start_tag,
    reasoning_budget_end_tags: [...reasoning.end_tags],
    reasoning_budget_message: reasoning.message,
    reasoning_control: reasoning.control,
    generation_prompt: reasoning.generation_prompt,
  };
}

/**
 * A lazy grammar: a full-match pattern whose first capture group is where the constrained text
 * starts. A pattern rather than a word trigger, because llama.cpp refuses a word that is one
 * token unless it is also a preserved token.
 */
function lazyGrammar(trigger: string): Pick<SamplerSpec, 'grammar_lazy' | 'trigger_patterns'> {
  const escaped = escapeRegExp(trigger);
  return { grammar_lazy: true, trigger_patterns: [`[\\s\\S]*?(${escaped})[\\s\\S]*`] };
}

/** The most negative float: JSON has no -Infinity, and a logit this low is never sampled. */
const BAN = -3.4028234663852886e38;

/** `logit_bias` as the glue reads it: [id, bias] for each token of each entry, a ban as `BAN`. */
function tokenBiases(biases: LogitBias, tokenize: (text: string) => number[]): Array<[number, number]> {
  return biases.flatMap(([token, bias]) =>
    (typeof token === 'number' ? [token] : tokenize(token)).map((id): [number, number] => [
      id,
      bias === -Infinity ? BAN : bias,
    ]),
  );
}
