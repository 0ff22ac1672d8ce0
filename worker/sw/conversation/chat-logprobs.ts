/**
 * Neutral token logprobs in the chat shape: `{token, logprob, bytes, top_logprobs:[{token, logprob, bytes}]}`.
 * A null logprob (none computed) is reported as -9999, OpenAI's value for "vanishingly unlikely".
 */
import type { TokenLogprob } from './neutral-types';

export interface ChatTopLogprob {
  token: string;
  logprob: number;
  bytes: number[];
}

export interface ChatTokenLogprob extends ChatTopLogprob {
  top_logprobs: ChatTopLogprob[];
}

export interface ChatLogprobs {
  content: ChatTokenLogprob[];
  refusal: null;
}

export function chatTokenLogprobs(tokens: readonly TokenLogprob[]): ChatTokenLogprob[] {
  return tokens.map((t) => ({
    token: t.text,
    logprob: t.logprob ?? -9999,
    bytes: t.bytes,
    top_logprobs: (t.top ?? []).map((c) => ({ token: c.text, logprob: c.logprob, bytes: c.bytes })),
  }));
}
