/**
 * Validates a parsed JSON body for `POST /v1/chat/completions` and applies defaults. Throws
 * `InvalidRequestError` (400) naming the offending parameter, like `validateCompletion`.
 */
import * as v from 'valibot';
import { InvalidRequestError } from '../../../../src/core/errors';
import { readGrammar, CONSTRAINT_KEYS } from '../../../../src/core/openai/read-grammar';
import { readParameters } from '../../../../src/core/openai/read-parameters';
import { PARAMETER_ALIASES, resolveAliases } from '../../../../src/core/openai/resolve-aliases';
import { isRecord, rejectUnknownKeys, requireKey } from '../../format/parse-field';
import { chatSchema, type ChatBody } from './chat-schema';
import { validateChatMessages } from './validate-chat-messages';
import { validateChatTools, validateToolChoice } from './validate-chat-tools';
import { validateResponseFormat } from './validate-response-format';
import { withStrictTools } from './strict-tools';
import type { ChatRequest } from './chat-types';

const knownKeys: ReadonlySet<string> = new Set([
  ...Object.keys(chatSchema.entries),
  ...PARAMETER_ALIASES,
  ...CONSTRAINT_KEYS,
]);

export function validateChat(body: unknown): ChatRequest {
  if (!isRecord(body)) throw new InvalidRequestError('The request body must be a JSON object.', null, 'invalid_json');
  rejectUnknownKeys(body, knownKeys);
  requireKey(body, 'model');
  requireKey(body, 'messages');
  // valibot's record() and strictObject() take an array as an object with index keys.
  for (const param of ['logit_bias', 'stream_options', 'chat_template_kwargs']) {
    if (Array.isArray(body[param])) {
      throw new InvalidRequestError(
        `Invalid type for '${param}': expected an object, but got an array instead.`,
        param,
      );
    }
  }
  const parsed = v.safeParse(chatSchema, resolveAliases(body), { abortEarly: true });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = v.getDotPath(issue);
    throw new InvalidRequestError(
      issue.message,
      path?.startsWith('stream_options') ? path : (path?.split('.')[0] ?? null),
    );
  }
  const messages = validateChatMessages(body.messages);
  const tools = validateChatTools(body.tools);
  const toolChoice = validateToolChoice(
    body.tool_choice,
    tools.map((t) => t.function.name),
  );
  const shaped = {
    messages,
    tools,
    tool_choice: toolChoice,
    response_format: validateResponseFormat(body.response_format),
  };
  return withStrictTools(
    { ...toRequest(parsed.output, shaped), grammar: readGrammar(body) },
    (i) => `tools[${i}].function.parameters`,
  );
}

function alias<T>(a: T | null | undefined, b: T | null | undefined, names: [string, string]): T | undefined {
  if (a != null && b != null && a !== b) {
    throw new InvalidRequestError(`'${names[0]}' and '${names[1]}' are the same parameter and disagree.`, names[1]);
  }
  return a ?? b ?? undefined;
}

type Shaped = Pick<ChatRequest, 'messages' | 'tools' | 'tool_choice' | 'response_format'>;

function toRequest(input: ChatBody, shaped: Shaped): Omit<ChatRequest, 'grammar'> {
  const stream = input.stream ?? false;
  if (input.stream_options != null && !stream) {
    throw new InvalidRequestError("'stream_options' is only allowed when 'stream' is true.", 'stream_options');
  }
  if (input.top_logprobs != null && input.top_logprobs > 0 && input.logprobs !== true) {
    throw new InvalidRequestError("'top_logprobs' requires 'logprobs' to be true.", 'top_logprobs');
  }
  const max = alias(input.max_tokens, input.max_completion_tokens, ['max_tokens', 'max_completion_tokens']);
  const maxTokens = max === undefined || max === -1 ? null : max;
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
    stream,
    include_usage: input.stream_options?.include_usage ?? false,
    continuous_usage: input.stream_options?.continuous_usage_stats ?? false,
    n: input.n ?? 1,
    max_tokens: maxTokens,
    ...table,
    stop: stop.filter((s) => s.length > 0),
    logprobs: input.logprobs ?? false,
    top_logprobs: input.top_logprobs ?? 0,
    cache_prompt: input.cache_prompt ?? true,
    user: input.user ?? null,
  };
}
