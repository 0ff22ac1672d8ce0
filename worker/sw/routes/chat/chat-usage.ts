/** Neutral token counts as chat `usage` (also the base of the Responses API's usage). */
import type { TokenCounts } from '../../conversation/neutral-types';

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

export function chatUsage(counts: TokenCounts): ChatUsage {
  return {
    prompt_tokens: counts.prompt,
    completion_tokens: counts.completion,
    total_tokens: counts.prompt + counts.completion,
    prompt_tokens_details: { cached_tokens: counts.cached },
  };
}
