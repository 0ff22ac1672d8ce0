/**
 * What the chat formatters need to know about a request: ids and model for the envelope,
 * whether to report logprobs and usage, and how to parse the output (see ChatOutputParser).
 */
import { randomId } from '../../format/random-id';
import { promptText, type PromptSegment } from './prompt-segments';
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

/** True when the prompt ends by opening `<think>` (the model continues inside reasoning). */
export function promptOpensReasoning(segments: readonly PromptSegment[]): boolean {
  const last = segments.at(-1);
  return last !== undefined && last.special && promptText(segments).trimEnd().endsWith('<think>');
}

export function chatFormatOptions(request: ChatRequest, prompt: readonly PromptSegment[], now = Date.now()): ChatFormatOptions {
  return {
    id: randomId('chatcmpl-'),
    created: Math.floor(now / 1000),
    model: request.model,
    logprobs: request.logprobs,
    include_usage: request.include_usage,
    continuous_usage: request.continuous_usage,
    parser: {
      reasoning: true,
      startInReasoning: promptOpensReasoning(prompt),
      tools: request.tools.length > 0 && request.tool_choice !== 'none',
    },
  };
}
