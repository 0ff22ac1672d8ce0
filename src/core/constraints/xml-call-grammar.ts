/**
 * Tools -> one GBNF grammar for XML tool calls (MiniCPM5's), shaped as llama-server 0.7.0's
 * MiniCPM5 parser builds it (common/parsers/minicpm5.cpp): each call is
 * `"<function name=\"NAME\">" args "</function>" space`, one alternative per tool, repeated when
 * calls may be parallel. An argument is `"<param name=\"KEY\">" value "</param>"`: a property that
 * may be a string takes its text (here: without `<`, `&` or a newline, or else inside a
 * `<![CDATA[…]]>`, as the template writes such text; llama-server takes any text up to the closing
 * tag), held to its schema where that holds the text (an enum, a pattern, a length, a format),
 * which llama-server does not; any other its schema's JSON. Where llama-server takes any arguments in any order, here the
 * required ones come first, in any order (up to three), then any optional ones. A tool that is not
 * strict takes text where its property's schema cannot be enforced; a strict one's is a 400 naming
 * it. Lazy: from `<function`, llama-server's trigger.
 *
 * @example
 * xmlCallGrammar({ tools: [{ name: 'f', strict: true, param: 'tools[0].function.parameters',
 *   parameters: { type: 'object', properties: { days: { type: 'integer' } }, required: ['days'] } }],
 *   parallel: false, lazy: false }).gbnf
 * // root ::= tool-call … f ::= "<function name=\"f\">" ( f-arg-days ) "</function>" …
 */
import { XML_TOOL_FORMAT } from '../domain/tool-call-format';
import { GbnfRules } from './gbnf-rules';
import { gbnfLiteral } from './gbnf-literal';
import { usePrimitive } from './json-primitives';
import type { ToolCallGrammar, ToolCallOptions } from './tool-call-grammar';
import { mayBeString } from './schema-kinds';
import { textOrJsonRule, toolArguments } from './tool-arguments';
import { textNotation } from './value-notation';

/** llama-server's trigger word for this format. */
const TRIGGER = '<function';
const PARAM_END = '</param>';
/** A value's text as the template writes it without CDATA: no `<`, `&` or newline. */
const XML_TEXT = textNotation([
  [0x0a, 0x0a],
  [0x26, 0x26],
  [0x3c, 0x3c],
]);

export function xmlCallGrammar({ tools, parallel, lazy }: ToolCallOptions): ToolCallGrammar {
  const { open, close } = XML_TOOL_FORMAT;
  const rules = new GbnfRules();
  rules.set('root', '');
  const space = usePrimitive(rules, 'space');
  const text = textRule(rules);
  const calls = tools.map((tool) => {
    const args = toolArguments(tool, (key, schema) => {
      const value = textOrJsonRule(rules, tool, key, schema, XML_TEXT, mayBeString) ?? text;
      return rules.add(
        `${tool.name}-arg-${key}`,
        `${gbnfLiteral(`<param name="${key}">`)} ${value} ${gbnfLiteral(PARAM_END)}`,
      );
    });
    return rules.add(
      tool.name,
      `${gbnfLiteral(`${open}${tool.name}">`)} ${args} ${gbnfLiteral(close)}`.replace(/ {2,}/g, ' '),
    );
  });
  const call = rules.add('tool-call', `( ${calls.join(' | ')} ) ${space}`);
  rules.set('root', parallel ? `${call}+` : call);
  return { gbnf: rules.format(), trigger: lazy ? TRIGGER : null };
}

/** Text without `<`, `&` or a newline, or a CDATA section (any text up to its first `]]>`). */
function textRule(rules: GbnfRules): string {
  rules.set('xml-cdata', '( [^\\]] | "]" [^\\]] | "]" "]"+ [^\\]>] )* "]" "]"+ ">"');
  return rules.add('xml-text', `[^<&\\n]* | ${gbnfLiteral('<![CDATA[')} xml-cdata`);
}
