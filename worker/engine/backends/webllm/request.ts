import type { CompletionCreateParamsStreaming } from '@mlc-ai/web-llm';
import { unsupportedOn } from '../../../../src/core/parameters';
import type { ChoiceRequest } from '../../backend';

/**
 * What the `webllm` backend cannot honour (a 400 naming it): the parameter table's rows marked
 * for webllm (its sampler is temperature + top-p only, its logprobs carry no token ids, it has
 * no minimum length), plus token-id prompts (its completions take one string), prompt scoring
 * fill-in-the-middle, conversations (WebLLM's chat API, with its own conversation
 * templates, is not wired to the engine's neutral request yet), and embeddings (WebLLM embeds
 * only with its embedding-model builds, which this backend does not load).
 */
export const WEBLLM_UNSUPPORTED: readonly string[] = [
  ...unsupportedOn('webllm'),
  'token_ids',
  'prompt_logprobs',
  'suffix',
  'chat',
  'embeddings',
  'grammar',
];

/**
 * WebLLM does not expose its tokenizer's longest token; real BPE vocabularies stay well under
 * this, so a prompt refused by the bound (bytes / this >= context) cannot fit.
 */
export const WEBLLM_MAX_TOKEN_BYTES = 256;

/**
 * Maps one choice to WebLLM's streamed `completions.create` request. Only keys WebLLM accepts
 * (it rejects `suffix`, `user`, `best_of` even when undefined, and `n > 1` with `stream`);
 * stop strings are applied by the engine's shared layer. WebLLM records logprobs only when
 * `top_logprobs > 0`, so at least one alternative is asked for whenever tokens are wanted.
 */
export function toWebLLMParams(request: ChoiceRequest, prompt: string, model: string): CompletionCreateParamsStreaming {
  const params: CompletionCreateParamsStreaming = {
    model,
    prompt,
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
  if (Object.keys(request.logit_bias).length > 0) params.logit_bias = request.logit_bias;
  if (request.seed !== null) params.seed = request.seed >>> 0;
  if (request.token_info !== null) {
    params.logprobs = true;
    params.top_logprobs = Math.max(1, request.token_info);
  }
  return params;
}
