/**
 * The Chat tab's conversation as request bodies: `/v1/chat/completions` (what the tab sends), and
 * the same conversation for `/v1/responses`, Anthropic's `/v1/messages` and `/v1/embeddings`
 * (what the code panel offers).
 * The sampling fields come from the form shared with the completions tab (request-body.ts).
 */
import { samplingFields, type SamplingParams } from './request-body';
import type { EndpointBody } from './request-code';

/** One turn of the conversation as the transcript shows it. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
  /** The assistant's `reasoning_content`, when the model sent one. */
  reasoning?: string;
}

/** What the Chat tab holds: the optional system prompt, the turns so far. */
export interface Conversation {
  system: string;
  turns: ChatTurn[];
}

/** A message as the tab sends it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The `/v1/chat/completions` body as the tab builds it. */
export type ChatBody = EndpointBody & { messages: ChatMessage[]; stream: boolean };

/** Messages in API order: the system prompt (when set) first; past reasoning is not sent back. */
export function toMessages(conversation: Conversation): ChatMessage[] {
  const turns = conversation.turns.map(({ role, content }): ChatMessage => ({ role, content }));
  return conversation.system.trim() === '' ? turns : [{ role: 'system', content: conversation.system }, ...turns];
}

/** The `/v1/chat/completions` body: only what differs from the API's defaults, as for completions. */
export function toChatBody(model: string, params: SamplingParams, conversation: Conversation): ChatBody {
  return { model, messages: toMessages(conversation), ...samplingFields(params), stream: params.stream };
}

/**
 * The same request for `/v1/responses` (stateless: the whole conversation goes in `input`, the
 * system prompt in `instructions`; a lone user turn is a plain string). It has no `stop` or `seed`.
 */
export function toResponsesBody(model: string, params: SamplingParams, conversation: Conversation): EndpointBody {
  const turns = conversation.turns.map(({ role, content }) => ({ role, content }));
  const only = turns.length === 1 ? turns[0] : undefined;
  const body: EndpointBody = { model };
  if (conversation.system.trim() !== '') body.instructions = conversation.system;
  body.input = only?.role === 'user' ? only.content : turns;
  body.max_output_tokens = params.maxTokens;
  body.temperature = params.temperature;
  if (params.topP !== 1) body.top_p = params.topP;
  body.stream = params.stream;
  return body;
}

/**
 * The same request for Anthropic's `/v1/messages`: the system prompt in `system`, the turns in
 * `messages`, `max_tokens` (required there), `stop_sequences` for `stop`; no `seed` or
 * `stream_options` (usage comes with `message_start` and `message_delta`).
 */
export function toMessagesBody(model: string, params: SamplingParams, conversation: Conversation): EndpointBody {
  const { stop, seed: _seed, stream_options: _options, ...fields } = samplingFields(params);
  const body: EndpointBody = { model };
  if (conversation.system.trim() !== '') body.system = conversation.system;
  body.messages = conversation.turns.map(({ role, content }) => ({ role, content }));
  Object.assign(body, fields);
  if (stop !== undefined) body.stop_sequences = typeof stop === 'string' ? [stop] : stop;
  return body;
}

/** `/v1/embeddings` of the text the tab is about: the last user turn (or `fallback`, the prompt). */
export function toEmbeddingsBody(model: string, conversation: Conversation, fallback: string): EndpointBody {
  const last = conversation.turns[lastUserIndex(conversation.turns)];
  return { model, input: last?.content ?? fallback };
}

/**
 * The conversation of the request the tab is about: with a draft, the turns so far plus the draft
 * (what Send will send); without one, the turns up to the last user turn (what was just sent).
 */
export function pendingConversation(conversation: Conversation, draft: string): Conversation {
  const { system, turns } = conversation;
  if (draft.trim() !== '') return { system, turns: [...turns, { role: 'user', content: draft }] };
  return { system, turns: turns.slice(0, lastUserIndex(turns) + 1) };
}

/** The index of the last user turn, or -1. */
function lastUserIndex(turns: ChatTurn[]): number {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i]?.role === 'user') return i;
  return -1;
}
