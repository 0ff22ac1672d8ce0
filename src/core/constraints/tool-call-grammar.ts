/**
 * Strict tools -> one GBNF grammar for Hermes/Qwen tool calls, shaped as llama.cpp's server
 * builds it for that format (common/chat.cpp): each call is
 * `"<tool_call>" space {"name": "<fn>", "arguments": <fn's parameters>} "</tool_call>"`,
 * one alternative per tool, repeated when calls may be parallel. A strict tool's arguments
 * follow its `parameters` schema; a non-strict tool's are any JSON object. Lazy (tool_choice
 * `auto`): the grammar applies from the first `<tool_call>` in the output, before which the
 * output is free; otherwise the output is tool calls from its first token.
 *
 * @example
 * toolCallGrammar([{ name: 'f', strict: true, parameters: { type: 'object' }, param: 'tools[0].function.parameters' }],
 *   { parallel: false, lazy: true }); // { gbnf: 'root ::= tool-call\n...', trigger: '<tool_call>' }
 */
import { GbnfRules } from './gbnf-rules';
import { gbnfLiteral } from './gbnf-literal';
import { usePrimitive } from './json-primitives';
import { addSchemaRule } from './json-schema-to-gbnf';

/** One callable tool, already validated. */
export interface ToolSchema {
  readonly name: string;
  readonly parameters?: unknown;
  readonly strict?: boolean;
  /** The request field of its `parameters`, named by schema errors. */
  readonly param: string;
}

export interface ToolCallGrammar {
  readonly gbnf: string;
  /** The text from which the grammar applies (lazy), or null: from the first token. */
  readonly trigger: string | null;
}

export const TOOL_CALL_OPEN = '<tool_call>';
export const TOOL_CALL_CLOSE = '</tool_call>';

/** What a strict function without `parameters` takes: nothing (OpenAI's reading of strict). */
const NO_PARAMETERS = { type: 'object', properties: {}, additionalProperties: false };

export function toolCallGrammar(
  tools: readonly ToolSchema[],
  options: { parallel: boolean; lazy: boolean },
): ToolCallGrammar {
  const rules = new GbnfRules();
  rules.set('root', '');
  const space = usePrimitive(rules, 'space');
  const calls = tools.map((tool) => {
    const args =
      tool.strict === true
        ? addSchemaRule(rules, tool.parameters ?? NO_PARAMETERS, `${tool.name}-args`, tool.param)
        : usePrimitive(rules, 'object');
    const key = (k: string) => `${gbnfLiteral(JSON.stringify(k))} ${space} ":" ${space}`;
    return rules.add(
      `${tool.name}-call`,
      `"{" ${space} ${key('name')} ${gbnfLiteral(JSON.stringify(tool.name))} ${space} "," ${space} ${key('arguments')} ${args} "}" ${space}`,
    );
  });
  const call = rules.add(
    'tool-call',
    `${gbnfLiteral(TOOL_CALL_OPEN)} ${space} ( ${calls.join(' | ')} ) ${gbnfLiteral(TOOL_CALL_CLOSE)}`,
  );
  rules.set('root', options.parallel ? `${call} ( ${space} ${call} )*` : call);
  return { gbnf: rules.format(), trigger: options.lazy ? TOOL_CALL_OPEN : null };
}
