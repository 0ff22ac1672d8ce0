/**
 * The sampling settings a request runs with, named as llama-server names them in `/props`'
 * `default_generation_settings.params`, `/slots`' `params` and `/infill`'s
 * `generation_settings`: the parameter table's values (its defaults for `/props`), `lora` (the
 * scales a request sent, as llama-server lists them; not in `/props`), `max_tokens`
 * and `n_predict` -1 for "up to the context", the seed 4294967295 (llama.cpp's "random") when
 * none was given. llama-server's samplers that are not here (DRY, XTC, dynamic temperature) are
 * left out rather than reported at values that mean nothing.
 */
import { readParameters } from '#core/openai/read-parameters';
import type { SlotSettings } from '#core/domain/slots';

/** llama.cpp's `LLAMA_DEFAULT_SEED`: a random seed per request. */
const RANDOM_SEED = 4294967295;

export function generationSettings({ parameters: p, max_tokens, stop, stream, lora = [] }: SlotSettings) {
  const predict = max_tokens ?? -1;
  return {
    seed: p.seed ?? RANDOM_SEED,
    temperature: p.temperature,
    top_k: p.top_k,
    top_p: p.top_p,
    min_p: p.min_p,
    top_n_sigma: p.top_n_sigma,
    typical_p: p.typical_p,
    repeat_penalty: p.repetition_penalty,
    presence_penalty: p.presence_penalty,
    frequency_penalty: p.frequency_penalty,
    mirostat: p.mirostat,
    mirostat_tau: p.mirostat_tau,
    mirostat_eta: p.mirostat_eta,
    stop,
    max_tokens: predict,
    n_predict: predict,
    ignore_eos: p.ignore_eos,
    stream,
    logit_bias: Object.entries(p.logit_bias).map(([id, bias]) => [Number(id), bias]),
    lora: lora.map(({ id, scale }) => ({ id, scale })),
  };
}

/** A slot's `params` in `GET /slots`: llama-server's set for metrics, without `stop` and `logit_bias`. */
export function slotParams(settings: SlotSettings) {
  const { stop: _stop, logit_bias: _bias, ...params } = generationSettings(settings);
  return params;
}

/** The settings of a request that sets nothing (`/props`' defaults: a slot's `params` without `lora`, as there). */
export function defaultGenerationSettings() {
  const { lora: _lora, ...defaults } = slotParams({
    parameters: readParameters({}),
    max_tokens: null,
    stop: [],
    stream: false,
  });
  return defaults;
}
