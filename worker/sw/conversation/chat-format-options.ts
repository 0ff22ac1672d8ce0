/**
 * What the chat formatters need to know about a request: ids and model for the envelope,
 * whether to report logprobs and usage, and how to parse the output (see ChatOutputParser).
 */
import { randomId } from '../format/random-id';
import type { ParserOptions } from './chat-output-parser';
import { continuedText } from './continuation';
import type { ToolProperties } from './tagged-call-reader';
import { isRecord } from '#core/util/is-record';
import type { ChatRequest } from './chat-types';
import type { ThinkingTags } from '#core/domain/thinking-tags';
import type { ToolCallFormat } from '#core/domain/tool-call-format';

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
      toolProperties: toolProperties(request),
      json: request.grammar?.schema !== undefined,
      unstreamed: !request.stream,
      ...prefill(request),
    },
  };
}

/** The continued message's own text ('' where it has none), where one is continued. */
function prefill(request: ChatRequest): Pick<ParserOptions, 'prefill'> {
  const continued = request.continue_final_message;
  if (continued === null || request.messages.at(-1)?.role !== 'assistant') return {};
  return { prefill: { text: continuedText(request.messages, continued), reasoning: continued === 'reasoning' } };
}

/** The prompt's fields the parsers read (an engine's `generation.prompt`). */
export interface PromptEvent {
  opens_reasoning: boolean;
  reasoning_opener?: string;
  tool_format?: ToolCallFormat;
  thinking_tags?: ThinkingTags;
}

/** How the model's template writes tool calls and reasoning, as parser options (none: Hermes's calls, `<think>`). */
export function promptFormat(event: PromptEvent): Pick<ParserOptions, 'toolFormat' | 'thinking'> {
  return {
    ...(event.tool_format === undefined ? {} : { toolFormat: event.tool_format }),
    ...(event.thinking_tags === undefined ? {} : { thinking: event.thinking_tags }),
  };
}

/**
 * `parser` once the engine took the prompt (its `generation.prompt`): whether it opened the reasoning,
 * with what text, and how the model's template writes tool calls and reasoning.
 */
export function parserForPrompt(parser: ParserOptions, event: PromptEvent): ParserOptions {
  return {
    ...parser,
    startInReasoning: event.opens_reasoning,
    ...(event.reasoning_opener === undefined ? {} : { opener: event.reasoning_opener }),
    ...promptFormat(event),
  };
}

/** Each tool's parameters, by name (a tagged or XML call's values are typed by them). */
function toolProperties(request: ChatRequest): ToolProperties {
  return new Map(
    request.tools.map(({ function: fn }) => {
      const properties: unknown = isRecord(fn.parameters) ? fn.parameters['properties'] : undefined;
      return [fn.name, { properties: isRecord(properties) ? properties : {}, root: fn.parameters }];
    }),
  );
}
