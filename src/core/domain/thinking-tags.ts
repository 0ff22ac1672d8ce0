/**
 * The tags a chat template writes its reasoning between, and how llama-server 0.7.0 reads what is
 * between and around them: DeepSeek's and Qwen's `<think>` and `</think>` (its template analysis),
 * Ministral's and Magistral's `[THINK]` and `[/THINK]` (its Ministral 3 parser,
 * common/parsers/ministral3.cpp) and Gemma 4's `<|channel>thought` and `<channel|>` (its Gemma 4
 * parser). The engine finds them in the template; the SW's parser splits the reasoning out at them.
 */
export interface ThinkingTags {
  readonly start: string;
  readonly end: string;
  /** The whitespace dropped after `start`: up to that many newlines, or all of it (`space`). */
  readonly afterStart: number | 'space';
  /** The whitespace dropped after `end`. */
  readonly afterEnd: number | 'space';
  /**
   * Where a reasoning may start: `first`, as the output's first text after any whitespace;
   * `exact`, at the output's very start (and the content's leading whitespace is dropped);
   * `anywhere`, each block in the output (their reasonings and contents each joined).
   */
  readonly at: 'first' | 'exact' | 'anywhere';
}

export const THINK_TAGS: ThinkingTags = { start: '<think>', end: '</think>', afterStart: 1, afterEnd: 2, at: 'first' };

export const MINISTRAL_THINK_TAGS: ThinkingTags = {
  start: '[THINK]',
  end: '[/THINK]',
  afterStart: 0,
  afterEnd: 'space',
  at: 'exact',
};

export const GEMMA_THINK_TAGS: ThinkingTags = {
  start: '<|channel>thought',
  end: '<channel|>',
  afterStart: 'space',
  afterEnd: 0,
  at: 'anywhere',
};

/** The tags a template's source writes its reasoning between, where it writes both of a pair known here. */
export function thinkingTagsIn(source: string): ThinkingTags | null {
  return (
    [THINK_TAGS, MINISTRAL_THINK_TAGS, GEMMA_THINK_TAGS].find(
      ({ start, end }) => source.includes(start) && source.includes(end),
    ) ?? null
  );
}
