/** The legacy completions logprobs shape, built at the edge from the engine's neutral tokens. */
import type { Candidate, TokenLogprob } from '#core/domain/generation';
import type { LegacyLogprobs } from '#core/openai/types';

/** What the legacy shape reads of a token (an engine `TokenLogprob` is one). */
export interface LogprobEntry extends Pick<TokenLogprob, 'text' | 'logprob' | 'offset'> {
  top: Array<Pick<Candidate, 'text' | 'logprob'>> | null;
}

/** An empty legacy logprobs object. */
export function emptyLogprobs(): LegacyLogprobs {
  return { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] };
}

/**
 * Builds the legacy `{tokens, token_logprobs, top_logprobs, text_offset}` shape. `top` keeps
 * `count` alternatives plus the sampled token; two candidates with the same text keep the
 * higher logprob (a JSON object cannot hold both).
 */
export function toLegacyLogprobs(tokens: readonly LogprobEntry[], count: number): LegacyLogprobs {
  const out = emptyLogprobs();
  for (const token of tokens) {
    out.tokens.push(token.text);
    out.token_logprobs.push(token.logprob);
    out.text_offset.push(token.offset);
    if (token.top === null) {
      out.top_logprobs.push(null);
      continue;
    }
    const top: Record<string, number> = {};
    for (const candidate of token.top.slice(0, count)) {
      const seen = top[candidate.text];
      if (seen === undefined || candidate.logprob > seen) top[candidate.text] = candidate.logprob;
    }
    // As vLLM does: the sampled token is always among its position's top logprobs.
    if (token.logprob !== null && top[token.text] === undefined) top[token.text] = token.logprob;
    out.top_logprobs.push(top);
  }
  return out;
}

/** Appends `more` to `into` (non-stream responses accumulate a choice's pieces). */
export function appendLogprobs(into: LegacyLogprobs, more: LegacyLogprobs): void {
  appendAll(into.tokens, more.tokens);
  appendAll(into.token_logprobs, more.token_logprobs);
  appendAll(into.top_logprobs, more.top_logprobs);
  appendAll(into.text_offset, more.text_offset);
}

/** One push per item, not `push(...more)`: an echoed long prompt would overflow the call stack. */
function appendAll<T>(into: T[], more: readonly T[]): void {
  for (const item of more) into.push(item);
}
