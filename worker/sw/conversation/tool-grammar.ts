/**
 * Function tools -> the request's output grammar (shared by chat, Messages and Responses), as
 * llama-server 0.7.0 builds it whenever tools are given: each callable tool's calls are constrained
 * to its `parameters` schema, in the model's format (Hermes/Qwen's `<tool_call>` unless its
 * template writes another). With tool_choice `required` or a named function the output is tool
 * calls from its first token (after a thinking model's reasoning); with `auto` the grammar is lazy,
 * from the format's opening text (`<tool_call>`) outside the reasoning. A `strict: true` tool's
 * schema is enforced or the request is a 400 naming it; a tool that is not strict takes any JSON
 * object where its schema cannot be enforced. llama.cpp runs one grammar per request: another
 * output constraint (response_format, grammar, ...) wins over tools that are not strict, and with
 * a strict one is a 400 `conflicting_constraints`.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { toolCallGrammar } from '#core/constraints/tool-call-grammar';
import type { ChatRequest } from './chat-types';

/** `at(i)`: the request field of tool i's parameters (`tools[i].function.parameters` in chat). */
export function withToolGrammar(chat: ChatRequest, at: (i: number) => string): ChatRequest {
  const choice = chat.tool_choice;
  if (choice === 'none') return chat;
  const callable = chat.tools
    .map((tool, i) => ({ ...tool.function, param: at(i) }))
    .filter((fn) => typeof choice === 'string' || fn.name === choice.function.name);
  if (callable.length === 0) return chat;
  if (chat.grammar !== null) {
    if (!callable.some((fn) => fn.strict === true)) return chat;
    throw new InvalidRequestError(
      `'${chat.grammar.param}' cannot be combined with strict function tools: one output constraint is allowed per request (set 'strict' to false, or drop '${chat.grammar.param}').`,
      chat.grammar.param,
      'conflicting_constraints',
    );
  }
  const tools = { tools: callable, parallel: chat.parallel_tool_calls, lazy: choice === 'auto' };
  // Built here in Hermes's format, so a schema it cannot enforce is a 400 before the engine is
  // woken; the engine builds it again in the model's format (`tools`) where that is another.
  const built = toolCallGrammar(tools);
  if (built === null) return chat;
  const { gbnf, trigger } = built;
  const grammar =
    trigger === null
      ? { gbnf, param: 'tools', afterReasoning: true as const, tools }
      : { gbnf, param: 'tools', trigger, tools };
  return { ...chat, grammar };
}
