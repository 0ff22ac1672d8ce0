/**
 * Tools -> one GBNF grammar for Python-style tool calls (LFM2's and LFM2.5's), shaped as
 * llama-server 0.7.0's LFM2 parser builds it (common/parsers/lfm2.cpp, `python_style_tool_calls`):
 * `"<|tool_call_start|>[" call ( ", " call )* "]<|tool_call_end|>"`, more than one call only when
 * calls may be parallel; a call is `NAME(` arguments `)`, one alternative per tool. An argument is
 * `KEY=VALUE`: a property that is a plain string takes a string in single quotes (as the template
 * writes one) or double; any other its schema's JSON (which Python-style parsers read: LFM2's takes
 * JSON's `true`, `false` and `null`). Where llama-server takes any property in any order and any
 * value, here the required arguments come first, in any order (up to three), then optional ones,
 * each value held to its schema. A tool that is not strict takes any value where its property's
 * schema cannot be enforced; a strict one's is a 400 naming it. Lazy: from `<|tool_call_start|>`.
 *
 * @example
 * pythonCallGrammar({ tools: [{ name: 'f', strict: true, param: 'tools[0].function.parameters',
 *   parameters: { type: 'object', properties: { days: { type: 'integer' } }, required: ['days'] } }],
 *   parallel: false, lazy: false }).gbnf
 * // root ::= tool-calls … f ::= "f(" ( f-arg-days ) ")" …
 */
import { isRecord } from '../util/is-record';
import { GbnfRules } from './gbnf-rules';
import { gbnfLiteral } from './gbnf-literal';
import { usePrimitive } from './json-primitives';
import { propertyRule, toolArguments } from './tool-arguments';
import type { ToolCallGrammar, ToolCallOptions, ToolSchema } from './tool-call-grammar';
import { PYTHON_TOOL_FORMAT } from '../domain/tool-call-format';

/** The keys a plain string's schema may have besides `type` (none of them constrains it). */
const NOTES = new Set(['type', 'description', 'title', 'examples', 'default']);

export function pythonCallGrammar({ tools, parallel, lazy }: ToolCallOptions): ToolCallGrammar {
  const { open, close } = PYTHON_TOOL_FORMAT;
  const rules = new GbnfRules();
  rules.set('root', '');
  const space = usePrimitive(rules, 'space');
  const calls = tools.map((tool) => {
    const args = toolArguments(
      tool,
      (key, schema) =>
        rules.add(`${tool.name}-arg-${key}`, `${gbnfLiteral(`${key}=`)} ${valueRule(rules, tool, key, schema)}`),
      '", "',
    );
    return rules.add(tool.name, `${gbnfLiteral(`${tool.name}(`)} ${args} ")"`.replace(/ {2,}/g, ' '));
  });
  const one = `( ${calls.join(' | ')} )`;
  const more = parallel ? ` ( ", " ${one} )*` : '';
  rules.set(
    'root',
    rules.add('tool-calls', `${gbnfLiteral(`${open}[`)} ${one}${more} ${gbnfLiteral(`]${close}`)} ${space}`),
  );
  return { gbnf: rules.format(), trigger: lazy ? open : null };
}

/** A property's value: a string in either quotes where it is a plain string, else its schema's JSON (any value where a tool that is not strict has one a grammar cannot enforce). */
function valueRule(rules: GbnfRules, tool: ToolSchema, key: string, schema: unknown): string {
  if (isRecord(schema) && schema['type'] === 'string' && Object.keys(schema).every((k) => NOTES.has(k))) {
    return quoted(rules);
  }
  return (
    propertyRule(rules, tool, key, schema) ??
    rules.add('python-value', `${quoted(rules)} | ${usePrimitive(rules, 'value')}`)
  );
}

/** A string in single quotes (Python's, with its escapes) or in double quotes (JSON's). */
function quoted(rules: GbnfRules): string {
  if (rules.has('python-string')) return 'python-string';
  const json = usePrimitive(rules, 'string');
  return rules.add('python-string', `"'" ( [^'\\\\\\n] | "\\\\" [^\\n] )* "'" | ${json}`);
}
