/**
 * The Responses API `response` object (`object: 'response'`) around a list of output items,
 * and its usage (`input_tokens`, `output_tokens`, details).
 */
import { randomId } from '../../format/random-id';
import type { ResponsesRequest } from './validate-responses';
import type { TokenCounts } from '../../conversation/neutral-types';
import type { ChatTokenLogprob } from '../../conversation/chat-logprobs';

export type OutputItem =
  | {
      type: 'message';
      id: string;
      status: ItemStatus;
      role: 'assistant';
      content: Array<{ type: 'output_text'; text: string; annotations: []; logprobs: ChatTokenLogprob[] }>;
    }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: ItemStatus }
  | { type: 'reasoning'; id: string; summary: []; content: Array<{ type: 'reasoning_text'; text: string }> };

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';
export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

export interface ResponseMeta {
  id: string;
  created_at: number;
  request: ResponsesRequest;
}

export function responseMeta(request: ResponsesRequest, now = Date.now()): ResponseMeta {
  return { id: randomId('resp_'), created_at: Math.floor(now / 1000), request };
}

export function responseUsage(counts: TokenCounts) {
  return {
    input_tokens: counts.prompt,
    input_tokens_details: { cached_tokens: counts.cached },
    output_tokens: counts.completion,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: counts.prompt + counts.completion,
  };
}

export function responseObject(
  meta: ResponseMeta,
  status: ResponseStatus,
  output: OutputItem[],
  counts: TokenCounts | null,
  error: { code: string; message: string } | null = null,
) {
  const { chat, instructions, max_output_tokens, metadata } = meta.request;
  return {
    id: meta.id,
    object: 'response' as const,
    created_at: meta.created_at,
    status,
    error,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' as const } : null,
    instructions,
    max_output_tokens,
    model: chat.model,
    output,
    parallel_tool_calls: chat.parallel_tool_calls,
    previous_response_id: null,
    reasoning: { effort: chat.reasoning_effort, summary: null },
    store: false,
    temperature: chat.temperature,
    text: { format: textFormat(chat.response_format) },
    tool_choice:
      typeof chat.tool_choice === 'string'
        ? chat.tool_choice
        : { type: 'function' as const, name: chat.tool_choice.function.name },
    tools: chat.tools.map((t) => ({
      type: 'function' as const,
      ...t.function,
      strict: t.function.strict ?? null,
      parameters: t.function.parameters ?? null,
    })),
    top_logprobs: chat.top_logprobs,
    top_p: chat.top_p,
    truncation: 'disabled' as const,
    usage: counts === null ? null : responseUsage(counts),
    user: chat.user,
    metadata,
  };
}

export type ResponseObject = ReturnType<typeof responseObject>;

function textFormat(format: ResponsesRequest['chat']['response_format']) {
  return format.type === 'json_schema' ? { type: 'json_schema' as const, ...format.json_schema } : format;
}
