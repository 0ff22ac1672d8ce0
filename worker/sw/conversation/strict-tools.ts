/**
 * `strict` function tools -> the request's output grammar (shared by chat and responses). When
 * a tool that may be called has `strict: true`, its calls are constrained as llama.cpp's server
 * constrains Hermes/Qwen tool calls: with tool_choice `required` or a named function the output
 * is tool calls from its first token (after a thinking model's reasoning); with `auto` the grammar
 * is lazy, from the first `<tool_call>` outside the reasoning. Another output constraint
 * (response_format, grammar, ...) with strict tools is a 400 `conflicting_constraints`: llama.cpp
 * runs one grammar per request.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { toolCallGrammar } from '#core/constraints/tool-call-grammar';
import type { ChatRequest } from './chat-types';

/** `at(i)`: the request field of tool i's parameters (`tools[i].function.parameters` in chat). */
export function withStrictTools(chat: ChatRequest, at: (i: number) => string): ChatRequest {
  const choice = chat.tool_choice;
  if (choice === 'none') return chat;
  const callable = chat.tools
    .map((tool, i) => ({ ...tool.function, param: at(i) }))
    .filter((fn) => typeof choice === 'string' || fn.name === choice.function.name);
  if (!callable.some((fn) => fn.strict === true)) return chat;
  if (chat.grammar !== null) {
    throw new InvalidRequestError(
      `'${chat.grammar.param}' cannot be combined with strict function tools: one output constraint is allowed per request (set 'strict' to false, or drop '${chat.grammar.param}').`,
      chat.grammar.param,
      'conflicting_constraints',
    );
  }
  const { gbnf, trigger } = toolCallGrammar(callable, {
    parallel: chat.parallel_tool_calls,
    lazy: choice === 'auto',
  });
  const grammar =
    trigger === null ? { gbnf, param: 'tools', afterReasoning: true as const } : { gbnf, param: 'tools', trigger };
  return { ...chat, grammar };
}
