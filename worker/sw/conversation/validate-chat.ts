/**
 * Validates a parsed JSON body for `POST /v1/chat/completions` and applies defaults. Throws
 * `InvalidRequestError` (400) naming the offending parameter, like `validateCompletion`.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { parseBody } from '#core/openai/parse-body';
import { readGrammar, CONSTRAINT_KEYS } from '#core/openai/read-grammar';
import { readParameters } from '#core/openai/read-parameters';
import { readLlamaServerFields } from '#core/openai/llama-server-fields';
import { PARAMETER_ALIASES } from '#core/openai/resolve-aliases';
import { MAX_TOP_LOGPROBS, chatSchema, type ChatBody } from './chat-schema';
import { validateChatMessages } from './validate-chat-messages';
import { collectedMedia, newChatMedia } from './chat-media';
import { validateChatTools, validateToolChoice } from './validate-chat-tools';
import { validateResponseFormat } from './validate-response-format';
import { withToolGrammar } from './tool-grammar';
import type { ChatRequest } from './chat-types';
import { readContinuation } from './continuation';

/** Every key a chat body may have (its schema's, the parameter aliases, the constraint fields). */
export const CHAT_KEYS: ReadonlySet<string> = new Set([
  ...Object.keys(chatSchema.entries),
  ...PARAMETER_ALIASES,
  ...CONSTRAINT_KEYS,
]);

export function validateChat(raw: unknown): ChatRequest {
  const { body, output } = parseBody(chatSchema, raw, {
    known: CHAT_KEYS,
    required: ['model', 'messages'],
    objects: ['stream_options', 'chat_template_kwargs'],
  });
  const media = newChatMedia();
  const messages = validateChatMessages(body.messages, media);
  const tools = validateChatTools(body.tools);
  const toolChoice = validateToolChoice(
    body.tool_choice,
    tools.map((t) => t.function.name),
  );
  const shaped = {
    messages,
    media: collectedMedia(media),
    tools,
    tool_choice: toolChoice,
    response_format: validateResponseFormat(body.response_format),
  };
  return withToolGrammar(
    { ...toRequest(output, shaped), grammar: readGrammar(body) },
    (i) => `tools[${i}].function.parameters`,
  );
}

function alias<T>(a: T | null | undefined, b: T | null | undefined, names: [string, string]): T | undefined {
  if (a != null && b != null && a !== b) {
    throw new InvalidRequestError(`'${names[0]}' and '${names[1]}' are the same parameter and disagree.`, names[1]);
  }
  return a ?? b ?? undefined;
}

type Shaped = Pick<ChatRequest, 'messages' | 'media' | 'tools' | 'tool_choice' | 'response_format'>;

function toRequest(input: ChatBody, shaped: Shaped): Omit<ChatRequest, 'grammar'> {
  const stream = input.stream ?? false;
  if (input.stream_options != null && !stream) {
    throw new InvalidRequestError("'stream_options' is only allowed when 'stream' is true.", 'stream_options');
  }
  if (input.top_logprobs != null && input.top_logprobs > 0 && input.logprobs !== true) {
    throw new InvalidRequestError("'top_logprobs' requires 'logprobs' to be true.", 'top_logprobs');
  }
  const native = readLlamaServerFields(input);
  if (native.n_probs !== undefined && native.n_probs > MAX_TOP_LOGPROBS)
    throw new InvalidRequestError(`Invalid value for 'n_probs': expected a value <= ${MAX_TOP_LOGPROBS}.`, 'n_probs');
  const n = alias(input.n, native.n, ['n', 'n_cmpl']);
  const max = alias(input.max_tokens, input.max_completion_tokens, ['max_tokens', 'max_completion_tokens']);
  // llama-server's n_predict wins over max_tokens, as there.
  const maxTokens = native.max_tokens !== undefined ? native.max_tokens : max === undefined || max === -1 ? null : max;
  const table = readParameters(input);
  const minTokens = table.min_tokens;
  if (maxTokens !== null && minTokens > maxTokens) {
    throw new InvalidRequestError("'min_tokens' must not exceed 'max_tokens'.", 'min_tokens');
  }
  const stop = input.stop == null ? [] : typeof input.stop === 'string' ? [input.stop] : input.stop;
  return {
    model: input.model,
    ...shaped,
    parallel_tool_calls: input.parallel_tool_calls ?? true,
    chat_template_kwargs: input.chat_template_kwargs ?? {},
    reasoning_effort: input.reasoning_effort ?? null,
    continue_final_message: readContinuation(shaped.messages, input),
    reasoning_format: input.reasoning_format ?? 'auto',
    stream,
    include_usage: input.stream_options?.include_usage ?? false,
    continuous_usage: input.stream_options?.continuous_usage_stats ?? false,
    n: n ?? 1,
    max_tokens: maxTokens,
    ...table,
    stop: stop.filter((s) => s.length > 0),
    logprobs: native.n_probs !== undefined || (input.logprobs ?? false),
    top_logprobs: native.n_probs ?? input.top_logprobs ?? 0,
    cache_prompt: input.cache_prompt ?? true,
    speculative: native.speculative,
    lora: native.lora,
    ...(native.id_slot === undefined ? {} : { id_slot: native.id_slot }),
    ...readReasoningBudget(input),
    user: input.user ?? null,
  };
}

/**
 * llama-server's reasoning budget fields: `reasoning_budget_tokens` (over its older name
 * `thinking_budget_tokens`, as llama-server reads them), the message, the control. Absent where
 * none is given.
 */
function readReasoningBudget(input: ChatBody): Pick<ChatRequest, 'reasoning_budget'> {
  const tokens = input.reasoning_budget_tokens ?? input.thinking_budget_tokens ?? -1;
  const control = input.reasoning_control ?? false;
  const message = input.reasoning_budget_message ?? undefined;
  if (tokens < 0 && !control && message === undefined) return {};
  return { reasoning_budget: { tokens, control, ...(message === undefined ? {} : { message }) } };
}
