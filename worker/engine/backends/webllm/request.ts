import type { CompletionCreateParamsStreaming } from '@mlc-ai/web-llm';
import type { CapabilityName } from '#core/domain/capability-name';
import { unsupportedOn } from '#core/domain/parameters';
import type { ChoiceRequest } from '../../backend';

/**
 * What the `webllm` backend cannot honour (a 400 naming it): the parameter table's rows marked
 * for webllm (its sampler is temperature + top-p only, its logprobs carry no token ids, it has
 * no minimum length), plus token-id prompts (its completions take one string), texts in
 * `logit_bias` (llama-server's form: this backend does not tokenize them), prompt scoring,
 * fill-in-the-middle, embeddings (WebLLM embeds only with its embedding-model builds, which
 * this backend does not load), constraints on text prompts (WebLLM ignores `response_format`
 * for completions), GBNF-only constraints (grammar, regex, choice: see `chat-request.ts`), and
 * in conversations tools (WebLLM calls functions only with a few Hermes models, through its own
 * system prompt), template variables and reasoning effort (its conversation templates take none).
 */
export const WEBLLM_UNSUPPORTED: readonly CapabilityName[] = [
  ...unsupportedOn('webllm'),
  'token_ids',
  'prompt_logprobs',
  'logit_bias_text',
  'suffix',
  'embeddings',
  'rerank',
  'prompt_constraint',
  'gbnf_constraint',
  'tools',
  'chat_template_kwargs',
  'reasoning_effort',
  'reasoning_budget',
  'speculative',
];

/**
 * WebLLM does not expose its tokenizer's longest token; real BPE vocabularies stay well under
 * this, so a prompt refused by the bound (bytes / this >= context) cannot fit.
 */
export const WEBLLM_MAX_TOKEN_BYTES = 256;

/** The request fields WebLLM's completions and chat completions share. */
export type WebLLMSampling = Pick<
  CompletionCreateParamsStreaming,
  | 'stream'
  | 'stream_options'
  | 'temperature'
  | 'top_p'
  | 'presence_penalty'
  | 'frequency_penalty'
  | 'repetition_penalty'
  | 'ignore_eos'
  | 'max_tokens'
  | 'logit_bias'
  | 'seed'
  | 'logprobs'
  | 'top_logprobs'
>;

/**
 * One choice's sampling, limits and logprobs as WebLLM's streamed request fields (usage
 * included). Stop strings are applied by the engine's shared layer. WebLLM records logprobs
 * only when `top_logprobs > 0`, so at least one alternative is asked for whenever tokens are wanted.
 */
export function webllmSampling<P>(request: ChoiceRequest<P>): WebLLMSampling {
  const params: WebLLMSampling = {
    stream: true,
    stream_options: { include_usage: true },
    temperature: request.temperature,
    top_p: request.top_p,
    presence_penalty: request.presence_penalty,
    frequency_penalty: request.frequency_penalty,
    repetition_penalty: request.repetition_penalty,
    ignore_eos: request.ignore_eos,
  };
  if (request.max_tokens !== null) params.max_tokens = request.max_tokens;
  // Token ids only (a text is refused before: `logit_bias_text`); a ban as OpenAI's -100.
  if (request.logit_bias.length > 0)
    params.logit_bias = Object.fromEntries(
      request.logit_bias.map(([token, bias]) => [String(token), Math.max(-100, bias)]),
    );
  if (request.seed !== null) params.seed = request.seed >>> 0;
  if (request.token_info !== null) {
    params.logprobs = true;
    params.top_logprobs = Math.max(1, request.token_info);
  }
  return params;
}

/**
 * Maps one choice to WebLLM's streamed `completions.create` request. Only keys WebLLM accepts
 * (it rejects `suffix`, `user`, `best_of` even when undefined, and `n > 1` with `stream`).
 */
export function toWebLLMParams(request: ChoiceRequest, prompt: string, model: string): CompletionCreateParamsStreaming {
  return { model, prompt, ...webllmSampling(request), stream: true };
}
