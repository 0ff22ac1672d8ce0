import type { LegacyLogprobs } from './types';

/** An alternative at a token position. */
export interface Candidate {
  text: string;
  logprob: number;
}

/** One token as the legacy shape reports it. */
export interface LogprobEntry {
  text: string;
  logprob: number | null;
  top: Candidate[] | null;
  /** Offset of the token in the choice's text, in code points. */
  offset: number;
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
export function toLegacyLogprobs(entries: LogprobEntry[], count: number): LegacyLogprobs {
  const out = emptyLogprobs();
  for (const entry of entries) {
    out.tokens.push(entry.text);
    out.token_logprobs.push(entry.logprob);
    out.text_offset.push(entry.offset);
    if (entry.top === null) {
      out.top_logprobs.push(null);
      continue;
    }
    const top: Record<string, number> = {};
    for (const candidate of entry.top.slice(0, count)) {
      const seen = top[candidate.text];
      if (seen === undefined || candidate.logprob > seen) top[candidate.text] = candidate.logprob;
    }
    // As vLLM does: the sampled token is always among its position's top logprobs.
    if (entry.logprob !== null && top[entry.text] === undefined) top[entry.text] = entry.logprob;
    out.top_logprobs.push(top);
  }
  return out;
}

/** Appends `more` to `into` (non-stream responses accumulate a choice's pieces). */
export function appendLogprobs(into: LegacyLogprobs, more: LegacyLogprobs): void {
  into.tokens.push(...more.tokens);
  into.token_logprobs.push(...more.token_logprobs);
  into.top_logprobs.push(...more.top_logprobs);
  into.text_offset.push(...more.text_offset);
}

/** Length in code points (offsets are counted as peers written in Python count them). */
export function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
