/**
 * The tags a chat template writes its reasoning between: DeepSeek's and Qwen's `<think>` and
 * `</think>` (llama-server's template analysis), or Ministral's and Magistral's `[THINK]` and
 * `[/THINK]` (its Ministral 3 parser, common/parsers/ministral3.cpp). The engine finds them in the
 * template (worker/engine/chat/reasoning-tags.ts); the SW's parser splits the reasoning out at them.
 */
export interface ThinkingTags {
  readonly start: string;
  readonly end: string;
  /**
   * Whitespace as llama-server's Ministral 3 parser leaves it: the reasoning only where the output
   * starts with `start`, kept with all its whitespace, and the content's leading whitespace dropped
   * (absent: as its template analysis leaves `<think>`'s: see ChatOutputParser).
   */
  readonly trimmed?: true;
}

export const THINK_TAGS: ThinkingTags = { start: '<think>', end: '</think>' };

export const MINISTRAL_THINK_TAGS: ThinkingTags = { start: '[THINK]', end: '[/THINK]', trimmed: true };
