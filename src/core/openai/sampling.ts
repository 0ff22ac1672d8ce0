import type { SamplingParams } from './types';

/** Every sampler off, greedy: the baseline for internal one-token requests (scoring, counting). */
export const GREEDY: SamplingParams = {
  temperature: 0,
  top_p: 1,
  top_k: 0,
  min_p: 0,
  typical_p: 1,
  mirostat: 0,
  mirostat_tau: 5,
  mirostat_eta: 0.1,
  presence_penalty: 0,
  frequency_penalty: 0,
  repetition_penalty: 1,
  logit_bias: {},
  seed: null,
};

const KEYS = Object.keys(GREEDY) as Array<keyof SamplingParams>;

/** The sampling parameters of a larger object (a request), and nothing else. */
export function pickSampling(source: SamplingParams): SamplingParams {
  const out: SamplingParams = { ...GREEDY };
  for (const key of KEYS) Object.assign(out, { [key]: source[key] });
  return out;
}
