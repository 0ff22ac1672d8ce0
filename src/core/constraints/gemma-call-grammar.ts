/**
 * Tools -> one GBNF grammar for Gemma 4's tool calls, as llama-server 0.7.0's Gemma 4 parser builds
 * it (common/parsers/gemma4.cpp): `"<|tool_call>call:" NAME dict "<tool_call|>"`, one alternative
 * per tool, repeated when calls may be parallel; the arguments are any dict in Gemma's notation
 * (`{key:value,…}`, strings between `<|"|>` marks, lists, JSON's numbers, `true`, `false` and
 * `null`), not held to the tool's schema, as there. So a strict tool, whose arguments must follow
 * its schema, is a 400 naming it: this format's grammar cannot hold them. Lazy: from `<|tool_call>`.
 *
 * @example
 * gemmaCallGrammar({ tools: [{ name: 'f', param: 'tools[0].function.parameters' }], parallel: false, lazy: true })
 * // { gbnf: 'root ::= tool-call\n…', trigger: '<|tool_call>' }
 */
import { InvalidRequestError } from '../domain/errors';
import { GEMMA_TOOL_FORMAT } from '../domain/tool-call-format';
import { GEMMA_QUOTE } from '../util/gemma-value';
import { GbnfRules } from './gbnf-rules';
import { untilTag } from './until-tag';
import { gbnfLiteral } from './gbnf-literal';
import { usePrimitive } from './json-primitives';
import type { ToolCallGrammar, ToolCallOptions } from './tool-call-grammar';

/** llama-server's trigger word for this format: the call block's token. */
const TRIGGER = '<|tool_call>';

export function gemmaCallGrammar({ tools, parallel, lazy }: ToolCallOptions): ToolCallGrammar {
  const strict = tools.find((tool) => tool.strict === true);
  if (strict !== undefined) {
    throw new InvalidRequestError(
      `This model's tool calls (Gemma 4's notation) cannot be held to a schema, so tool '${strict.name}' cannot be strict; send it with strict: false.`,
      strict.param.replace(/parameters$/, 'strict'),
      'unsupported_parameter',
    );
  }
  const { open, close } = GEMMA_TOOL_FORMAT;
  const rules = new GbnfRules();
  rules.set('root', '');
  const space = usePrimitive(rules, 'space');
  const number = usePrimitive(rules, 'number');
  const boolean = usePrimitive(rules, 'boolean');
  const nul = usePrimitive(rules, 'null');
  // A string: its opening mark, then any text up to the closing one.
  rules.set('gemma4-string', `${gbnfLiteral(GEMMA_QUOTE)} gemma4-string-text`);
  for (const rule of untilTag('gemma4-string-text', GEMMA_QUOTE, '')) {
    const [name = '', body = ''] = rule.split(' ::= ');
    rules.set(name, body);
  }
  rules.set(
    'gemma4-dict',
    `"{" ${space} ( [^:}]+ ":" ${space} gemma4-value ( "," ${space} [^:}]+ ":" ${space} gemma4-value )* )? "}"`,
  );
  rules.set('gemma4-array', `"[" ${space} ( gemma4-value ( "," ${space} gemma4-value )* )? "]"`);
  rules.set('gemma4-value', `gemma4-string | gemma4-dict | gemma4-array | ${number} | ${boolean} | ${nul}`);
  const calls = tools.map((tool) => rules.add(`${tool.name}-call`, `${gbnfLiteral(tool.name)} gemma4-dict`));
  const call = rules.add('tool-call', `${gbnfLiteral(open)} ( ${calls.join(' | ')} ) ${gbnfLiteral(close)}`);
  rules.set('root', parallel ? `${call}+` : call);
  return { gbnf: rules.format(), trigger: lazy ? TRIGGER : null };
}
