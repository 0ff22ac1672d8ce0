/** OpenAI's `usage` object from the engine's neutral token counts (shared by every endpoint). */
import type { TokenCounts } from '#core/domain/generation';
import type { Usage } from '#core/openai/types';

/** `prompt_tokens_details.cached_tokens` appears only where prefix reuse happened. */
export function toUsage(counts: TokenCounts): Usage {
  const usage: Usage = {
    prompt_tokens: counts.prompt,
    completion_tokens: counts.completion,
    total_tokens: counts.prompt + counts.completion,
  };
  if (counts.cached > 0) usage.prompt_tokens_details = { cached_tokens: counts.cached };
  return usage;
}
