/** The legacy completions shapes (`text_completion`) from the engine's neutral events: SSE chunks and the JSON body. */
import type { TokenCounts } from '#core/domain/generation';
import type { CompletionRequest, Usage } from '#core/openai/types';
import type { EngineOutput, JsonFormatter, StreamFormatter } from '../../engine-response';
import { SSE_DONE, sseFrame } from '../../sse';
import { toUsage } from '../../usage';
import { ChoiceAccumulator } from './choice-accumulator';
import { completionObject, usageChunk, type CompletionMeta } from './completion-builder';
import { toLegacyLogprobs } from './legacy-logprobs';

type Progress = Exclude<EngineOutput, { type: 'generation.done' }>;

/**
 * A chunk's `usage`: the running counts (vLLM's `continuous_usage_stats`) when the engine sent
 * them; else `null` when usage was asked (OpenAI: with `include_usage` every chunk but the last
 * has `"usage": null`), and no field otherwise.
 */
function chunkUsage(request: CompletionRequest, counts: TokenCounts | undefined): Usage | null | undefined {
  if (counts) return toUsage(counts);
  return request.include_usage || request.continuous_usage ? null : undefined;
}

/** One `text_completion` chunk per piece and per choice end; a usage chunk when asked; `[DONE]`. */
export function completionStream(meta: CompletionMeta, request: CompletionRequest): StreamFormatter {
  return {
    frames(event: Progress) {
      if (event.type === 'generation.prompt') return [];
      if (event.type === 'generation.piece') {
        const logprobs =
          event.tokens && request.logprobs !== null ? toLegacyLogprobs(event.tokens, request.logprobs) : null;
        return [
          sseFrame(
            completionObject(
              meta,
              [{ text: event.text, index: event.index, logprobs, finish_reason: null }],
              chunkUsage(request, event.counts),
            ),
          ),
        ];
      }
      const choice = {
        text: '',
        index: event.index,
        logprobs: null,
        finish_reason: event.finish_reason,
        ...(event.matched_stop === null ? {} : { matched_stop: event.matched_stop }),
      };
      return [sseFrame(completionObject(meta, [choice], chunkUsage(request, event.counts)))];
    },
    done(counts) {
      return [...(request.include_usage ? [sseFrame(usageChunk(meta, toUsage(counts)))] : []), SSE_DONE];
    },
  };
}

/** The whole `text_completion` object. */
export function completionJson(meta: CompletionMeta, request: CompletionRequest): JsonFormatter {
  const choices = new ChoiceAccumulator(request.logprobs);
  return {
    add(event: Progress) {
      if (event.type === 'generation.piece') choices.add(event.index, event.text, event.tokens);
      else if (event.type === 'generation.choice-end') {
        // Ended inside a character: llama-server's text ends with it (as U+FFFD), with no logprobs.
        if (event.tail) choices.add(event.index, event.tail, null);
        choices.end(event.index, event.finish_reason, event.matched_stop);
      }
    },
    body(counts) {
      return completionObject(meta, choices.list(), toUsage(counts));
    },
  };
}
