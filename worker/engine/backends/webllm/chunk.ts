import type { ChatCompletionChunk, ChatCompletionTokenLogprob, Completion, CompletionUsage } from '@mlc-ai/web-llm';
import type { FinishReason } from '#core/openai/types';
import type { GenerationEvent, TokenCandidate, TokenInfo } from '../../backend';

const encoder = new TextEncoder();

/** WebLLM's logprobs carry no token ids: -1 (so `stop_token_ids` is refused on this backend). */
const NO_ID = -1;

function candidate(raw: { token: string; bytes?: number[] | null; logprob: number }): TokenCandidate {
  return {
    id: NO_ID,
    text: raw.token,
    bytes: raw.bytes ?? Array.from(encoder.encode(raw.token)),
    logprob: raw.logprob,
  };
}

/**
 * WebLLM's chat-shaped logprobs (`{token, logprob, bytes, top_logprobs}`) as `TokenInfo`, with
 * bytes that spell exactly `text`. WebLLM's token bytes are those of the token decoded alone
 * (a byte-fallback piece of a character becomes U+FFFD), and a stream chunk carries only the
 * last token of the steps it covers; so when the bytes do not add up to the chunk's text, the
 * last token takes the rest of the text's bytes.
 */
export function toTokenInfo(text: string, content: ChatCompletionTokenLogprob[]): TokenInfo[] {
  if (text === '') return [];
  const tokens: TokenInfo[] = content.map((raw) => ({ ...candidate(raw), top: raw.top_logprobs.map(candidate) }));
  const want = Array.from(encoder.encode(text));
  const have = tokens.flatMap((token) => token.bytes);
  if (have.length === want.length && have.every((byte, i) => byte === want[i])) return tokens;
  const last = tokens.at(-1);
  if (!last) return [{ id: NO_ID, text, bytes: want, logprob: 0, top: [] }];
  const before = tokens.slice(0, -1).flatMap((token) => token.bytes);
  const prefix = before.every((byte, i) => byte === want[i]) && before.length <= want.length;
  if (!prefix) for (const token of tokens) token.bytes = [];
  last.bytes = want.slice(prefix ? before.length : 0);
  return tokens;
}

/** Where one WebLLM stream stands: its finish reason, until the usage chunk ends it. */
export interface ChunkState {
  finish: FinishReason | null;
}

/** One choice of a WebLLM stream chunk, whichever endpoint: its text, logprobs and finish reason. */
interface ChunkChoice {
  text: string;
  logprobs: ChatCompletionTokenLogprob[];
  finish: string | null;
}

/** What one WebLLM completion stream chunk says, as engine events (pure; unit-tested). */
export function webllmChunkEvents(chunk: Completion, wantTokens: boolean, state: ChunkState): GenerationEvent[] {
  const choices = chunk.choices.map((choice) => ({
    text: choice.text,
    logprobs: choice.logprobs?.content ?? [],
    finish: choice.finish_reason,
  }));
  return chunkEvents(choices, chunk.usage, wantTokens, state);
}

/** What one WebLLM chat stream chunk says (its `delta.content`), as engine events (pure; unit-tested). */
export function webllmChatChunkEvents(
  chunk: ChatCompletionChunk,
  wantTokens: boolean,
  state: ChunkState,
): GenerationEvent[] {
  const choices = chunk.choices.map((choice) => ({
    text: choice.delta.content ?? '',
    logprobs: choice.logprobs?.content ?? [],
    finish: choice.finish_reason,
  }));
  return chunkEvents(choices, chunk.usage, wantTokens, state);
}

function chunkEvents(
  choices: ChunkChoice[],
  usage: CompletionUsage | undefined,
  wantTokens: boolean,
  state: ChunkState,
): GenerationEvent[] {
  const events: GenerationEvent[] = [];
  for (const { text, logprobs, finish } of choices) {
    if (wantTokens) {
      const tokens = toTokenInfo(text, logprobs);
      if (tokens.length > 0) events.push({ type: 'text', text, tokens });
    } else if (text) {
      events.push({ type: 'text', text, tokens: null });
    }
    // WebLLM ends an interrupted generation with 'abort'; only 'length' means the limit.
    if (finish) state.finish = finish === 'length' ? 'length' : 'stop';
  }
  if (usage && state.finish) {
    events.push({
      type: 'end',
      finishReason: state.finish,
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      cachedTokens: 0,
    });
  }
  return events;
}
