/**
 * Anthropic's `message` object (`type: "message"`): content blocks, `stop_reason` and `usage`.
 * Usage follows llama.cpp's server: `input_tokens` plus `cache_read_input_tokens` is the
 * prompt's token count, and `output_tokens` counts the end-of-turn token.
 */
import { parseJsonObject } from '#core/util/parse-json-object';
import { randomId } from '../../format/random-id';
import type { ChatFinishReason } from '../../conversation/chat-choice';
import type { TokenCounts } from '../../conversation/neutral-types';

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use';

export interface MessageUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export interface MessageMeta {
  id: string;
  model: string;
}

export function messageMeta(model: string): MessageMeta {
  return { id: randomId('msg_'), model };
}

export function messageUsage(counts: TokenCounts | null): MessageUsage {
  const prompt = counts?.prompt ?? 0;
  const cached = counts?.cached ?? 0;
  return {
    input_tokens: prompt - cached,
    output_tokens: counts?.completion ?? 0,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
  };
}

/** Why the message ended: a matched stop sequence is `stop_sequence` (Anthropic's rule; llama-server says `end_turn`). */
export function stopReason(
  finish: ChatFinishReason | null,
  matched: string | number | null,
): { stop_reason: StopReason; stop_sequence: string | null } {
  if (finish === 'length') return { stop_reason: 'max_tokens', stop_sequence: null };
  if (finish === 'tool_calls') return { stop_reason: 'tool_use', stop_sequence: null };
  if (typeof matched === 'string') return { stop_reason: 'stop_sequence', stop_sequence: matched };
  return { stop_reason: 'end_turn', stop_sequence: null };
}

export function messageObject(
  meta: MessageMeta,
  content: ContentBlock[],
  stop: { stop_reason: StopReason | null; stop_sequence: string | null },
  counts: TokenCounts | null,
) {
  return {
    id: meta.id,
    type: 'message' as const,
    role: 'assistant' as const,
    model: meta.model,
    content,
    ...stop,
    usage: messageUsage(counts),
  };
}

/** A tool call's arguments as `input` (an object; text that is no JSON object stays visible under `arguments`). */
export function toolInput(args: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  // The model wrote no JSON object: its text.
  return parseJsonObject(args) ?? { arguments: args };
}
