/**
 * The parameter table's values of a validated request body: every row read, with the table's
 * default where the request left it out (or sent null). Shared by every endpoint's validator.
 */
import { LIMITS, SAMPLING_DEFAULTS, type SamplingParams } from '../parameters';

/** The table's rows as a validated body holds them (absent or null = the default). */
export type ParameterInput = {
  [K in keyof SamplingParams]?: (K extends 'mirostat' ? number : SamplingParams[K]) | null;
} & {
  min_tokens?: number | null;
  ignore_eos?: boolean | null;
  stop_token_ids?: number[] | null;
  include_stop_str_in_output?: boolean | null;
};

/** The values of the table's rows (the sampling parameters and the limits). */
export type ParameterValues = SamplingParams & {
  min_tokens: number;
  ignore_eos: boolean;
  stop_token_ids: number[];
  include_stop_str_in_output: boolean;
};

export function readParameters(input: ParameterInput): ParameterValues {
  const topK = input.top_k ?? SAMPLING_DEFAULTS.top_k;
  const mirostat = input.mirostat ?? SAMPLING_DEFAULTS.mirostat;
  return {
    temperature: input.temperature ?? SAMPLING_DEFAULTS.temperature,
    top_p: input.top_p ?? SAMPLING_DEFAULTS.top_p,
    // -1 reads as off, as vLLM does.
    top_k: topK < 0 ? 0 : topK,
    min_p: input.min_p ?? SAMPLING_DEFAULTS.min_p,
    typical_p: input.typical_p ?? SAMPLING_DEFAULTS.typical_p,
    mirostat: mirostat === 1 || mirostat === 2 ? mirostat : 0,
    mirostat_tau: input.mirostat_tau ?? SAMPLING_DEFAULTS.mirostat_tau,
    mirostat_eta: input.mirostat_eta ?? SAMPLING_DEFAULTS.mirostat_eta,
    presence_penalty: input.presence_penalty ?? SAMPLING_DEFAULTS.presence_penalty,
    frequency_penalty: input.frequency_penalty ?? SAMPLING_DEFAULTS.frequency_penalty,
    repetition_penalty: input.repetition_penalty ?? SAMPLING_DEFAULTS.repetition_penalty,
    logit_bias: input.logit_bias ?? SAMPLING_DEFAULTS.logit_bias,
    seed: input.seed ?? SAMPLING_DEFAULTS.seed,
    min_tokens: input.min_tokens ?? LIMITS.min_tokens.default,
    ignore_eos: input.ignore_eos ?? LIMITS.ignore_eos.default,
    stop_token_ids: input.stop_token_ids ?? LIMITS.stop_token_ids.default,
    include_stop_str_in_output: input.include_stop_str_in_output ?? LIMITS.include_stop_str_in_output.default,
  };
}
