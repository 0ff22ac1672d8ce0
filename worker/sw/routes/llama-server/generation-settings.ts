/**
 * The sampling settings a request runs with, named and ordered as llama-server's
 * `task_params::to_json` has them in `/completion`'s and `/infill`'s `generation_settings`, and
 * without `stop`, `logit_bias` and `dry_sequence_breakers` (its set for metrics) in `/slots`'
 * `params` and `/props`' `default_generation_settings.params`: the parameter table's values (its
 * defaults for `/props`), `lora` (the scales a request sent, as llama-server lists them; not in
 * `/props`), `max_tokens` and `n_predict` -1 for "up to the context", the seed 4294967295
 * (llama.cpp's "random") when none was given. llama-server's fields that name what is not here
 * (`n_keep`, `n_discard`, `grammar*`, `chat_format`, `reasoning_*`, `speculative.types`,
 * `timings_per_token`, ...) are left out rather than given values that mean nothing.
 */
import { readParameters } from '#core/openai/read-parameters';
import type { SlotSettings } from '#core/domain/slots';

/** llama.cpp's `LLAMA_DEFAULT_SEED`: a random seed per request. */
const RANDOM_SEED = 4294967295;

export function generationSettings({ parameters: p, max_tokens, stop, stream, n_probs, lora = [] }: SlotSettings) {
  const predict = max_tokens ?? -1;
  return {
    seed: p.seed ?? RANDOM_SEED,
    temperature: p.temperature,
    dynatemp_range: p.dynatemp_range,
    dynatemp_exponent: p.dynatemp_exponent,
    top_k: p.top_k,
    top_p: p.top_p,
    min_p: p.min_p,
    top_n_sigma: p.top_n_sigma,
    xtc_probability: p.xtc_probability,
    xtc_threshold: p.xtc_threshold,
    typical_p: p.typical_p,
    repeat_last_n: p.repeat_last_n,
    repeat_penalty: p.repetition_penalty,
    presence_penalty: p.presence_penalty,
    frequency_penalty: p.frequency_penalty,
    dry_multiplier: p.dry_multiplier,
    dry_base: p.dry_base,
    dry_allowed_length: p.dry_allowed_length,
    dry_penalty_last_n: p.dry_penalty_last_n,
    dry_sequence_breakers: p.dry_sequence_breakers,
    mirostat: p.mirostat,
    mirostat_tau: p.mirostat_tau,
    mirostat_eta: p.mirostat_eta,
    adaptive_target: p.adaptive_target,
    adaptive_decay: p.adaptive_decay,
    stop,
    max_tokens: predict,
    n_predict: predict,
    ignore_eos: p.ignore_eos,
    stream,
    // llama-server's `{bias, token}` objects (a text as written: llama-server lists its tokens).
    logit_bias: p.logit_bias.map(([token, bias]) => ({ bias, token })),
    n_probs,
    min_keep: p.min_keep,
    samplers: [...p.samplers],
    lora: lora.map(({ id, scale }) => ({ id, scale })),
  };
}

/** A slot's `params` in `GET /slots`: llama-server's set for metrics (no `stop`, `logit_bias`, `dry_sequence_breakers`). */
export function slotParams(settings: SlotSettings) {
  const { stop: _stop, logit_bias: _bias, dry_sequence_breakers: _breakers, ...params } = generationSettings(settings);
  return params;
}

/** The settings of a request that sets nothing (`/props`' defaults: a slot's `params` without `lora`, as there). */
export function defaultGenerationSettings() {
  const { lora: _lora, ...defaults } = slotParams({
    parameters: readParameters({}),
    max_tokens: null,
    stop: [],
    stream: false,
    n_probs: 0,
  });
  return defaults;
}
