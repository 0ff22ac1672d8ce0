/**
 * Tools -> one GBNF grammar for gpt-oss's harmony calls, as llama-server 0.7.0's gpt-oss parser
 * builds it (common/parsers/gpt-oss.cpp). The prompt ends `<|start|>assistant`; a call is a
 * message to `functions.NAME`, named in the role (` to=functions.NAME<|channel|>commentary json`)
 * or in the channel (`<|channel|>commentary to=functions.NAME json`), then `<|message|>` and the
 * arguments' JSON. One call a turn, as there.
 * - Lazy (`auto`): from ` to=functions.`, which both headers write: the name, the channel where
 *   it comes after, the `json` constraint or none, then the arguments.
 * - Else (`required`, a named tool): first any analysis (reasoning) or commentary (preamble)
 *   messages, each up to `<|end|>` and the next `<|start|>assistant`, then the call.
 * Arguments follow the tool's schema, as there (a strict one's always; one that is not, where a
 * grammar can hold it: jsonArguments).
 *
 * @example
 * harmonyCallGrammar({ tools: [{ name: 'f', param: 'tools[0].function.parameters' }], parallel: false, lazy: true })
 * // { gbnf: 'root ::= " to=functions." ( f-call )\n…', trigger: ' to=functions.' }
 */
import { HARMONY_TOOL_FORMAT } from '../domain/tool-call-format';
import { GbnfRules } from './gbnf-rules';
import { gbnfLiteral } from './gbnf-literal';
import { usePrimitive } from './json-primitives';
import { jsonArguments, type ToolCallGrammar, type ToolCallOptions } from './tool-call-grammar';
import { untilTag } from './until-tag';

/** The channels a call may be on. */
const CHANNEL = '"<|channel|>" ( "commentary" | "analysis" )';

export function harmonyCallGrammar({ tools, lazy }: ToolCallOptions): ToolCallGrammar {
  const to = gbnfLiteral(HARMONY_TOOL_FORMAT.open);
  const rules = new GbnfRules();
  rules.set('root', '');
  const constraint = harmonyConstraint(rules);
  const calls = tools.map((tool) => {
    const args = jsonArguments(rules, tool);
    const name = gbnfLiteral(tool.name);
    const message = `${constraint} "<|message|>" ${args}`;
    // From the trigger the channel may come after the name or may have come before it.
    if (lazy) return rules.add(`${tool.name}-call`, `${name} ( ${CHANNEL} )? ${message}`);
    return rules.add(`${tool.name}-call`, `${to} ${name} ${CHANNEL} ${message} | ${CHANNEL} ${to} ${name} ${message}`);
  });
  const call = `( ${calls.join(' | ')} )`;
  if (lazy) {
    rules.set('root', `${to} ${call}`);
    return { gbnf: rules.format(), trigger: HARMONY_TOOL_FORMAT.open };
  }
  rules.set('root', harmonyMessages(rules, call, true));
  return { gbnf: rules.format(), trigger: null };
}

/**
 * The rule of what the model writes after `<|start|>assistant` up to `answer`: any analysis
 * messages (and with `preambles`, commentary messages), each up to `<|end|>` and the next
 * `<|start|>assistant`, then `answer` (a call; the final message of a JSON answer).
 */
export function harmonyMessages(rules: GbnfRules, answer: string, preambles: boolean): string {
  const message = rules.reserve('harmony-message');
  for (const rule of untilTag('harmony-body', '<|end|>', `${gbnfLiteral('<|start|>assistant')} ${message}`)) {
    const at = rule.indexOf(' ::= ');
    rules.set(rule.slice(0, at), rule.slice(at + ' ::= '.length));
  }
  const analysis = `${STRAY} "<|channel|>analysis<|message|>" harmony-body`;
  const preamble = preambles ? ` | "<|channel|>commentary<|message|>" harmony-body` : '';
  rules.set(message, `${analysis}${preamble} | ${answer}`);
  return message;
}

/** gpt-oss-20b's stray `<|channel|>commentary` (and ` to=assistant`) before the analysis channel, which llama-server takes. */
const STRAY = '( "<|channel|>commentary" ( " to=assistant" )? )?';

/**
 * A message's constraint after its channel or recipient: ` json`, ` <|constrain|>json`, or none.
 * llama-server takes any word of `[A-Za-z0-9_-]` there, with no bound: a model may write it on and
 * on and never reach the arguments (measured: its byte model wrote `analysistuvwxyzabc…` to the
 * token limit). The template writes `json`, and the arguments are JSON: that word alone here.
 */
export function harmonyConstraint(rules: GbnfRules): string {
  const space = usePrimitive(rules, 'space');
  return rules.add('harmony-constraint', `( ${space} "<|constrain|>"? "json" )?`);
}
