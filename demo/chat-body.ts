/**
 * The Chat tab's conversation as request bodies: `/v1/chat/completions` (what the tab sends), and
 * the same conversation for `/v1/responses`, Anthropic's `/v1/messages` and `/v1/embeddings`
 * (what the code panel offers).
 * The sampling fields come from the form shared with the completions tab (request-body.ts).
 * A user turn with attachments goes as a content array (chat-attachment.ts); other turns as text.
 */
import { chatParts, messagesParts, responsesParts, type ChatAttachment, type ChatContentPart } from './chat-attachment';
import { samplingFields, type SamplingParams } from './request-body';
import type { EndpointBody } from './request-code';

/** One turn of the conversation as the transcript shows it. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
  /** The assistant's `reasoning_content`, when the model sent one. */
  reasoning?: string;
  /** Images and sounds sent with a user turn. */
  attachments?: ChatAttachment[];
}

/** What the Chat tab holds: the optional system prompt, the turns so far. */
export interface Conversation {
  system: string;
  turns: ChatTurn[];
}

/** A message as the tab sends it: a user turn with attachments as parts. */
export type ChatMessage =
  { role: 'system' | 'assistant'; content: string } | { role: 'user'; content: string | ChatContentPart[] };

/** The `/v1/chat/completions` body as the tab builds it. */
export type ChatBody = EndpointBody & { messages: ChatMessage[]; stream: boolean };

/** Messages in API order: the system prompt (when set) first; past reasoning is not sent back. */
export function toMessages(conversation: Conversation): ChatMessage[] {
  const turns = conversation.turns.map(({ role, content, attachments }): ChatMessage =>
    role === 'user' && attachments?.length ? { role, content: chatParts(content, attachments) } : { role, content },
  );
  return conversation.system.trim() === '' ? turns : [{ role: 'system', content: conversation.system }, ...turns];
}

/** The `/v1/chat/completions` body: only what differs from the API's defaults, as for completions. */
export function toChatBody(model: string, params: SamplingParams, conversation: Conversation): ChatBody {
  return { model, messages: toMessages(conversation), ...samplingFields(params), stream: params.stream };
}

/** A turn's content for an endpoint whose parts `toParts` makes: text alone (or nothing else it takes) stays a string. */
function withParts(
  { role, content, attachments }: ChatTurn,
  toParts: (text: string, attachments: ChatAttachment[]) => Record<string, unknown>[],
): { role: ChatTurn['role']; content: string | Record<string, unknown>[] } {
  const parts = role === 'user' && attachments?.length ? toParts(content, attachments) : [];
  return { role, content: parts.some((part) => part.type !== 'text' && part.type !== 'input_text') ? parts : content };
}

/**
 * The same request for `/v1/responses` (stateless: the whole conversation goes in `input`, the
 * system prompt in `instructions`; a lone user turn is a plain string). It has no `stop` or `seed`.
 * Images go as `input_image` parts, sounds as `input_audio` parts.
 */
export function toResponsesBody(model: string, params: SamplingParams, conversation: Conversation): EndpointBody {
  const turns = conversation.turns.map((turn) => withParts(turn, responsesParts));
  const only = turns.length === 1 ? turns[0] : undefined;
  const body: EndpointBody = { model };
  if (conversation.system.trim() !== '') body.instructions = conversation.system;
  body.input = only?.role === 'user' && typeof only.content === 'string' ? only.content : turns;
  body.max_output_tokens = params.maxTokens;
  body.temperature = params.temperature;
  if (params.topP !== 1) body.top_p = params.topP;
  body.stream = params.stream;
  return body;
}

/**
 * The same request for Anthropic's `/v1/messages`: the system prompt in `system`, the turns in
 * `messages`, `max_tokens` (required there), `stop_sequences` for `stop`; no `seed` or
 * `stream_options` (usage comes with `message_start` and `message_delta`). Images go as base64
 * `image` blocks; it has no audio block, so sounds are left out.
 */
export function toMessagesBody(model: string, params: SamplingParams, conversation: Conversation): EndpointBody {
  const { stop, seed: _seed, stream_options: _options, ...fields } = samplingFields(params);
  const body: EndpointBody = { model };
  if (conversation.system.trim() !== '') body.system = conversation.system;
  body.messages = conversation.turns.map((turn) => withParts(turn, messagesParts));
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
 * The conversation of the request the tab is about: with a draft (text or attachments), the turns
 * so far plus the draft (what Send will send); without one, the turns up to the last user turn
 * (what was just sent).
 */
export function pendingConversation(
  conversation: Conversation,
  draft: string,
  attachments: ChatAttachment[] = [],
): Conversation {
  const { system, turns } = conversation;
  if (attachments.length > 0) return { system, turns: [...turns, { role: 'user', content: draft, attachments }] };
  if (draft.trim() !== '') return { system, turns: [...turns, { role: 'user', content: draft }] };
  return { system, turns: turns.slice(0, lastUserIndex(turns) + 1) };
}

/** The index of the last user turn, or -1. */
function lastUserIndex(turns: ChatTurn[]): number {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i]?.role === 'user') return i;
  return -1;
}
