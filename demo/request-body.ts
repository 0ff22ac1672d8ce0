import type { CompletionBody } from './request-code';

/** The form's values, as the user typed them. */
export interface SamplingParams {
  prompt: string;
  maxTokens: number;
  temperature: number;
  topP: number;
  /** Stop strings, one per line; `\n` and `\t` typed as escapes. */
  stop: string;
  /** Empty for no seed. */
  seed: string;
  stream: boolean;
}

export const DEFAULT_PARAMS: SamplingParams = {
  prompt: 'abc',
  maxTokens: 32,
  temperature: 0,
  topP: 1,
  stop: '',
  seed: '',
  stream: true,
};

/** Stop strings from the form: one per line, escapes decoded, empty lines dropped. */
export function parseStop(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) =>
      line.replace(/\\([nt\\])/g, (_match, escape: string) => (escape === 'n' ? '\n' : escape === 't' ? '\t' : '\\')),
    );
}

/**
 * The `/v1/completions` body for the form: only what differs from the API's defaults is sent
 * (no `top_p` at 1, no `stop` or `seed` when empty), so it reads like the README's snippet; a
 * stream asks for usage in its last chunk, for the exact counts and the prefill rate.
 */
export function toRequestBody(model: string, params: SamplingParams): CompletionBody {
  return { model, prompt: params.prompt, ...samplingFields(params), stream: params.stream };
}

/** The sampling fields both tabs send after their own, in this order: only what differs from the API's defaults. */
export function samplingFields(params: SamplingParams): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    max_tokens: params.maxTokens,
    temperature: params.temperature,
    stream: params.stream,
  };
  if (params.topP !== 1) fields.top_p = params.topP;
  const stop = parseStop(params.stop);
  if (stop.length === 1) fields.stop = stop[0];
  else if (stop.length > 1) fields.stop = stop;
  if (params.seed.trim() !== '') fields.seed = Number(params.seed);
  if (params.stream) fields.stream_options = { include_usage: true };
  return fields;
}
