/**
 * Validates a `/v1/messages` (or `/v1/messages/count_tokens`) body as Anthropic defines it and
 * maps it onto a `ChatRequest`, so rendering, generation and output parsing are chat's:
 * `max_tokens` is required (not for count_tokens), `temperature` is 0..1, `stop_sequences`
 * become `stop`, `thinking` turns the template's reasoning on (`enabled`, `adaptive`) or off
 * (`disabled`; absent: the template's default, as llama.cpp's server leaves it), `metadata.user_id`
 * is the user. `temperature`, `top_p` and `top_k` are read as llama.cpp's server reads them (the
 * current Anthropic SDK no longer types them, but passes them through). Unknown keys are a 400,
 * as Anthropic answers them.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { isRecord } from '#core/util/is-record';
import { rejectUnknownKeys, requireKey } from '#core/openai/parse-body';
import { typeError } from '../../conversation/validate-chat-tools';
import { validateChat } from '../../conversation/validate-chat';
import { withToolGrammar } from '../../conversation/tool-grammar';
import { collectedMedia, newChatMedia } from '../../conversation/chat-media';
import type { ChatRequest } from '../../conversation/chat-types';
import { conversationMessages, systemMessages } from './messages-input';
import { forcedStrict, messagesToolChoice, messagesTools } from './messages-tools';

export interface MessagesRequest {
  chat: ChatRequest;
  /** Whether the caller asked for thinking (`thinking.type` is not 'disabled'). */
  thinking: boolean;
}

/** Fields of the current API that cannot change the text here (prompt caching, routing, speed tier). */
const ADVISORY = ['cache_control', 'service_tier', 'inference_geo', 'speed'];
const COMMON = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking'];
const MESSAGES_KEYS = new Set([
  ...COMMON,
  'max_tokens',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'metadata',
  // Cannot change the text: accepted.
  ...ADVISORY,
]);
const COUNT_KEYS = new Set([...COMMON, ...ADVISORY]);

/** `count`: the body of `/v1/messages/count_tokens` (no `max_tokens`, no samplers). */
export function validateMessages(body: unknown, count = false): MessagesRequest {
  if (!isRecord(body)) throw new InvalidRequestError('The request body must be a JSON object.', null, 'invalid_json');
  rejectUnknownKeys(body, count ? COUNT_KEYS : MESSAGES_KEYS);
  const model = requireKey(body, 'model');
  const media = newChatMedia();
  const messages = [...systemMessages(body.system), ...conversationMessages(requireKey(body, 'messages'), media)];
  const maxTokens = count ? 1 : requireKey(body, 'max_tokens');
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)
    throw new InvalidRequestError('max_tokens: Input should be an integer of at least 1.', 'max_tokens');
  const temperature = body.temperature;
  if (typeof temperature === 'number' && (temperature < 0 || temperature > 1))
    throw new InvalidRequestError('temperature: Input should be between 0 and 1.', 'temperature');
  const tools = messagesTools(body.tools);
  const { choice, parallel } = messagesToolChoice(body.tool_choice, tools);
  const thinking = readThinking(body.thinking, count ? null : maxTokens);
  const chat = validateChat({
    model,
    messages,
    max_tokens: maxTokens,
    temperature,
    top_p: body.top_p,
    top_k: body.top_k,
    stop: stopSequences(body.stop_sequences),
    stream: body.stream,
    user: userId(body.metadata),
    reasoning_effort: thinking.on === false ? 'none' : undefined,
  });
  const withTools = {
    ...chat,
    // Kept where the engine can keep it (llama-server passes it on as thinking_budget_tokens).
    ...(thinking.budget === null
      ? {}
      : { reasoning_budget: { tokens: thinking.budget, control: false, advisory: true } }),
    media: collectedMedia(media),
    tools: forcedStrict(tools, choice),
    tool_choice: choice,
    parallel_tool_calls: parallel,
  };
  return { chat: withToolGrammar(withTools, (i) => `tools[${i}].input_schema`), thinking: thinking.on !== false };
}

/**
 * `on`: true for enabled or adaptive, false for disabled, null when not said (the template's
 * default); `budget`: enabled's `budget_tokens`.
 */
function readThinking(value: unknown, maxTokens: number | null): { on: boolean | null; budget: number | null } {
  if (value == null) return { on: null, budget: null };
  if (!isRecord(value)) throw typeError('thinking', 'an object', value);
  const { type } = value;
  if (type === 'disabled' || type === 'adaptive') {
    rejectUnknownKeys(value, new Set(['type']), 'thinking.');
    return { on: type === 'adaptive', budget: null };
  }
  if (type !== 'enabled')
    throw new InvalidRequestError(
      `thinking.type: expected 'enabled', 'disabled' or 'adaptive', but got ${JSON.stringify(type ?? null)}.`,
      'thinking.type',
    );
  rejectUnknownKeys(value, new Set(['type', 'budget_tokens']), 'thinking.');
  const budget = requireKey(value, 'budget_tokens', 'thinking.');
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1024)
    throw new InvalidRequestError(
      'thinking.budget_tokens: Input should be an integer of at least 1024.',
      'thinking.budget_tokens',
    );
  if (maxTokens !== null && budget >= maxTokens)
    throw new InvalidRequestError('max_tokens must be greater than thinking.budget_tokens.', 'thinking.budget_tokens');
  return { on: true, budget };
}

function stopSequences(value: unknown): string[] | undefined {
  if (value == null) return undefined;
  if (!Array.isArray(value) || !value.every((s): s is string => typeof s === 'string'))
    throw typeError('stop_sequences', 'an array of strings', value);
  return value;
}

function userId(metadata: unknown): string | undefined {
  if (metadata == null) return undefined;
  if (!isRecord(metadata)) throw typeError('metadata', 'an object', metadata);
  rejectUnknownKeys(metadata, new Set(['user_id']), 'metadata.');
  const id = metadata.user_id;
  if (id != null && typeof id !== 'string') throw typeError('metadata.user_id', 'a string', id);
  return id ?? undefined;
}
