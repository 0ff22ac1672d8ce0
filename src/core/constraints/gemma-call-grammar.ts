/**
 * Tools -> one GBNF grammar for Gemma 4's tool calls, as llama-server 0.7.0's Gemma 4 parser builds
 * it (common/parsers/gemma4.cpp): `"<|tool_call>call:" NAME dict "<tool_call|>"`, one alternative
 * per tool, repeated when calls may be parallel. A tool that is not strict takes any dict in Gemma's
 * notation (`{key:value,…}`, strings between `<|"|>` marks, lists, JSON's numbers, `true`, `false`
 * and `null`), as there; a strict one's arguments follow its schema, written in that notation (keys
 * bare and sorted, as the template writes them; value-notation.ts), which llama-server does not do.
 * Lazy: from `<|tool_call>`.
 *
 * @example
 * gemmaCallGrammar({ tools: [{ name: 'f', param: 'tools[0].function.parameters' }], parallel: false, lazy: true })
 * // { gbnf: 'root ::= tool-call\n…', trigger: '<|tool_call>' }
 */
import { GEMMA_TOOL_FORMAT } from '../domain/tool-call-format';
import { GbnfRules } from './gbnf-rules';
import { gbnfLiteral } from './gbnf-literal';
import { addSchemaRule } from './json-schema-to-gbnf';
import { NO_PARAMETERS, type ToolCallGrammar, type ToolCallOptions } from './tool-call-grammar';
import { GEMMA_NOTATION } from './value-notation';

/** llama-server's trigger word for this format: the call block's token. */
const TRIGGER = '<|tool_call>';

export function gemmaCallGrammar({ tools, parallel, lazy }: ToolCallOptions): ToolCallGrammar {
  const { open, close } = GEMMA_TOOL_FORMAT;
  const rules = new GbnfRules();
  rules.set('root', '');
  const calls = tools.map((tool) => {
    const args =
      tool.strict === true
        ? addSchemaRule(rules, tool.parameters ?? NO_PARAMETERS, `${tool.name}-args`, tool.param, {
            notation: GEMMA_NOTATION,
          })
        : GEMMA_NOTATION.any(rules, 'object');
    return rules.add(`${tool.name}-call`, `${gbnfLiteral(tool.name)} ${args}`);
  });
  const call = rules.add('tool-call', `${gbnfLiteral(open)} ( ${calls.join(' | ')} ) ${gbnfLiteral(close)}`);
  rules.set('root', parallel ? `${call}+` : call);
  return { gbnf: rules.format(), trigger: lazy ? TRIGGER : null };
}
