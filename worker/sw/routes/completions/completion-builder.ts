/** The `text_completion` object and its id. */
import type { Completion, CompletionChoice, Usage } from '#core/openai/types';

/** What every chunk and the whole response of one request share. */
export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

/** A fresh `cmpl-...` id and `created` (seconds) for one request. */
export function completionMeta(model: string, now = Date.now()): CompletionMeta {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const id = `cmpl-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  return { id, created: Math.floor(now / 1000), model };
}

/** One `text_completion` object (a streamed chunk, or the whole answer); `usage: null` is written out. */
export function completionObject(meta: CompletionMeta, choices: CompletionChoice[], usage?: Usage | null): Completion {
  const completion: Completion = {
    id: meta.id,
    object: 'text_completion',
    created: meta.created,
    model: meta.model,
    choices,
  };
  if (usage !== undefined) completion.usage = usage;
  return completion;
}

/** The final chunk of `stream_options.include_usage`: no choices, only usage. */
export function usageChunk(meta: CompletionMeta, usage: Usage): Completion {
  return completionObject(meta, [], usage);
}
