/**
 * Tools -> one GBNF grammar for tagged tool calls (Qwen3-Coder's and Qwen3.5's), shaped as
 * llama-server 0.7.0's Qwen3-Coder parser builds it (common/parsers/qwen3-coder.cpp): each call is
 * `"<tool_call>\n" "<function=NAME>\n" args "</function>\n" "</tool_call>" space`, one alternative
 * per tool, repeated when calls may be parallel. An argument is `"<parameter=KEY>\n" value
 * "\n</parameter>\n"`: a property that may be a string takes text (here: text without a line
 * that starts with `<`, where llama-server takes any text up to the closing tag; one line held to
 * its schema where that holds the text: an enum, a pattern, a length, a format), any other its
 * schema's JSON. The required arguments come in any order (up to three of them; more, in the
 * schema's order), then any optional ones. A tool that is not strict takes text where its
 * property's schema cannot be enforced; a strict one's is a 400 naming it. Lazy: from `<tool_call>`.
 *
 * @example
 * taggedCallGrammar({ tools: [{ name: 'f', strict: true, param: 'tools[0].function.parameters',
 *   parameters: { type: 'object', properties: { days: { type: 'integer' } }, required: ['days'] } }],
 *   parallel: false, lazy: false }).gbnf
 * // root ::= tool-call … f ::= "<function=f>\n" f-args "</function>\n" …
 */
import { GbnfRules } from './gbnf-rules';
import { gbnfLiteral } from './gbnf-literal';
import { usePrimitive } from './json-primitives';
import type { ToolCallGrammar, ToolCallOptions } from './tool-call-grammar';
import { valueTypes } from './schema-kinds';
import { textOrJsonRule, toolArguments } from './tool-arguments';
import { textNotation } from './value-notation';

const VALUE_END = '\n</parameter>\n';
/** A value's text held to its schema: one line. */
const LINE = textNotation([[0x0a, 0x0a]]);

/** Whether a value may be a string, as llama-server's Qwen3-Coder grammar asks (its value types). */
const hasStringType = (schema: unknown, root: unknown) => valueTypes(schema, root).has('string');

export function taggedCallGrammar({ tools, parallel, lazy }: ToolCallOptions): ToolCallGrammar {
  const rules = new GbnfRules();
  rules.set('root', '');
  const space = usePrimitive(rules, 'space');
  const text = rules.add('xml-arg-string', `( [^\\n] | "\\n" [^<] )* ${gbnfLiteral(VALUE_END)}`);
  const calls = tools.map((tool) => {
    const args = toolArguments(tool, (key, schema) => {
      const rule = textOrJsonRule(rules, tool, key, schema, LINE, hasStringType);
      const value = rule === null ? text : `${rule} ${gbnfLiteral(VALUE_END)}`;
      return rules.add(`${tool.name}-arg-${key}`, `${gbnfLiteral(`<parameter=${key}>\n`)} ${value}`);
    });
    return rules.add(
      tool.name,
      `${gbnfLiteral(`<function=${tool.name}>\n`)} ${args} ${gbnfLiteral('</function>\n')}`.replace(/ {2,}/g, ' '),
    );
  });
  const call = rules.add(
    'tool-call',
    `${gbnfLiteral('<tool_call>\n')} ( ${calls.join(' | ')} ) ${gbnfLiteral('</tool_call>')} ${space}`,
  );
  rules.set('root', parallel ? `${call}+` : call);
  return { gbnf: rules.format(), trigger: lazy ? '<tool_call>' : null };
}
