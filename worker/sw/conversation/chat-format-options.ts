/**
 * What the chat formatters need to know about a request: ids and model for the envelope,
 * whether to report logprobs and usage, and how to parse the output (see ChatOutputParser).
 */
import { randomId } from '../format/random-id';
import type { ParserOptions } from './chat-output-parser';
import type { ChatRequest } from './chat-types';

export interface ChatFormatOptions {
  id: string;
  created: number;
  model: string;
  logprobs: boolean;
  include_usage: boolean;
  continuous_usage: boolean;
  parser: ParserOptions;
}

/**
 * The options of one request. Whether the output starts inside reasoning is known once the
 * engine rendered the prompt: its `generation.prompt` event sets `parser.startInReasoning`.
 */
export function chatFormatOptions(request: ChatRequest, now = Date.now()): ChatFormatOptions {
  return {
    id: randomId('chatcmpl-'),
    created: Math.floor(now / 1000),
    model: request.model,
    logprobs: request.logprobs,
    include_usage: request.include_usage,
    continuous_usage: request.continuous_usage,
    parser: {
      reasoning: request.reasoning_format !== 'none',
      startInReasoning: false,
      tools: request.tools.length > 0 && request.tool_choice !== 'none',
      json: request.grammar?.schema !== undefined,
      unstreamed: !request.stream,
    },
  };
}

/** `parser` once the engine took the prompt (its `generation.prompt`): whether it opened `<think>`, with what text. */
export function parserForPrompt(
  parser: ParserOptions,
  event: { opens_reasoning: boolean; reasoning_opener?: string },
): ParserOptions {
  return {
    ...parser,
    startInReasoning: event.opens_reasoning,
    ...(event.reasoning_opener === undefined ? {} : { opener: event.reasoning_opener }),
  };
}
