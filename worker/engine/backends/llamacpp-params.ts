import type { RawCompletionParams } from '@wllama/wllama';
import type { CompletionRequest } from '../../../src/core/openai/types';

/** llama-server request fields wllama passes through but does not declare in its typings. */
interface ServerExtras {
  cache_prompt: boolean;
  stream_options: { include_usage: boolean };
}

/**
 * Maps a validated request to llama-server's completion parameters (wllama embeds its request
 * handling). Only names llama-server really reads: its typings also list `temp`,
 * `penalty_repeat`... which it ignores.
 */
export function toLlamaCppParams(request: CompletionRequest, signal: AbortSignal): RawCompletionParams & ServerExtras & { stream: true } {
  return {
    prompt: request.prompt,
    max_tokens: request.max_tokens,
    temperature: request.temperature,
    top_p: request.top_p,
    stop: request.stop,
    ...(request.seed === null ? {} : { seed: request.seed }),
    stream: true,
    abortSignal: signal,
    cache_prompt: true,
    stream_options: { include_usage: true },
  };
}
