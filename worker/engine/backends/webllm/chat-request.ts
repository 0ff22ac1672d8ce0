import type { ChatCompletionMessageParam, ChatCompletionRequestStreaming, ResponseFormat } from '@mlc-ai/web-llm';
import type { ChatMessage, ChatPrompt } from '#core/domain/chat-prompt';
import { InvalidRequestError } from '#core/domain/errors';
import type { OutputGrammar } from '#core/domain/generation';
import type { ChoiceRequest } from '../../backend';
import { webllmSampling } from './request';

/** WebLLM's most alternatives per token (`top_logprobs` 0..5). */
export const WEBLLM_MAX_TOP_LOGPROBS = 5;

const refuse = (message: string, param: string) => new InvalidRequestError(message, param, 'unsupported_parameter');

/**
 * A conversation as WebLLM's messages, which it renders with its own conversation template.
 * WebLLM takes one system message, first: the leading system and developer messages become
 * it (joined by a blank line), and one later is a 400. The last message must be the user's or a
 * tool result (WebLLM cannot continue an assistant message). Names are dropped (WebLLM would
 * print a user's name in place of the role); assistant reasoning in the history is dropped, as
 * chat templates do; assistant tool calls are a 400 (tools are unsupported on this backend).
 */
export function toWebLLMMessages(chat: ChatPrompt): ChatCompletionMessageParam[] {
  const lead = chat.messages.findIndex((message) => message.role !== 'system' && message.role !== 'developer');
  const system = chat.messages.slice(0, lead < 0 ? chat.messages.length : lead);
  const rest = chat.messages.slice(system.length);
  const out: ChatCompletionMessageParam[] = [];
  if (system.length > 0) out.push({ role: 'system', content: system.map((message) => message.content).join('\n\n') });
  for (const [offset, message] of rest.entries()) out.push(toWebLLMMessage(message, system.length + offset));
  const last = out.at(-1);
  if (!last || (last.role !== 'user' && last.role !== 'tool')) {
    throw refuse(
      "On the webllm backend the last message must be the user's or a tool result (WebLLM cannot continue an assistant message).",
      'messages',
    );
  }
  return out;
}

function toWebLLMMessage(message: ChatMessage, index: number): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'developer':
      throw refuse(
        `On the webllm backend ${message.role} messages must come first (WebLLM takes one system message); messages[${index}] is one.`,
        `messages[${index}].role`,
      );
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant':
      if (message.tool_calls && message.tool_calls.length > 0)
        throw refuse(
          "Assistant tool calls are not supported by the webllm backend (it has no 'tools').",
          `messages[${index}].tool_calls`,
        );
      return { role: 'assistant', content: message.content ?? '' };
    case 'tool':
      return { role: 'tool', content: message.content, tool_call_id: message.tool_call_id };
  }
}

/**
 * A JSON constraint as WebLLM's `response_format`: xgrammar compiles the JSON schema itself
 * (`json_object` is sent as the schema `{type:'object'}`, the meaning OpenAI gives it). A
 * constraint that exists only as GBNF (grammar, regex, choice) is a 400: see docs/constrained-output.md.
 */
export function toResponseFormat(grammar: OutputGrammar): ResponseFormat {
  if (grammar.schema === undefined) {
    throw refuse(
      `'${grammar.param}' (constrained output) is not supported by this model's backend as a grammar (only JSON and JSON-schema constraints are).`,
      grammar.param,
    );
  }
  return { type: 'json_object', schema: JSON.stringify(grammar.schema) };
}

/** Maps one choice of a conversation to WebLLM's streamed `chat.completions.create` request. */
export function toWebLLMChatParams(request: ChoiceRequest<ChatPrompt>, model: string): ChatCompletionRequestStreaming {
  if (request.token_info !== null && request.token_info > WEBLLM_MAX_TOP_LOGPROBS) {
    throw new InvalidRequestError(
      `'top_logprobs' above ${WEBLLM_MAX_TOP_LOGPROBS} is not supported by the webllm backend.`,
      'top_logprobs',
      'unsupported_parameter',
    );
  }
  const params: ChatCompletionRequestStreaming = {
    model,
    messages: toWebLLMMessages(request.prompt),
    ...webllmSampling(request),
    stream: true,
  };
  if (request.grammar !== null) params.response_format = toResponseFormat(request.grammar);
  return params;
}
