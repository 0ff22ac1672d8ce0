/**
 * Function tools -> one GBNF grammar for tool calls in the model's format (`ToolCallFormat`: Hermes's
 * `<tool_call>` blocks unless the template writes another), shaped as llama.cpp's server builds it
 * (common/chat.cpp, chat-auto-parser-generator.cpp): each call is
 * `open space {"name": "<fn>", "<args>": <fn's parameters>} close` (Hermes: `"<tool_call>" space
 * {"name": …, "arguments": …} "</tool_call>"`), one alternative per tool, repeated when calls may be
 * parallel; where the format puts the calls in one array, `open "[" call ("," call)* "]" close`;
 * where it writes the name before the arguments (Mistral's `named` syntax), `open NAME args {...}`. A
 * tool's arguments follow its `parameters` schema, as llama-server constrains every tool's; one
 * that is not strict takes any JSON object where its schema cannot be enforced (a strict one's
 * is a 400 naming it).
 * Lazy (tool_choice `auto`): the grammar applies from the format's opening text, before which the
 * output is free (a format without one has no lazy grammar, as on llama-server); otherwise the
 * output is tool calls from its first token.
 *
 * @example
 * toolCallGrammar([{ name: 'f', strict: true, parameters: { type: 'object' }, param: 'tools[0].function.parameters' }],
 *   { parallel: false, lazy: true }); // { gbnf: 'root ::= tool-call\n...', trigger: '<tool_call>' }
 */
import { GbnfRules } from './gbnf-rules';
import { gbnfLiteral } from './gbnf-literal';
import { usePrimitive } from './json-primitives';
import { addSchemaRule } from './json-schema-to-gbnf';
import { HERMES_TOOL_FORMAT, type ToolCallFormat } from '../domain/tool-call-format';

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

/** What a request's strict tools ask of the output, kept for the engine to build in the model's format. */
export interface ToolCallOptions {
  readonly tools: readonly ToolSchema[];
  readonly parallel: boolean;
  readonly lazy: boolean;
}

/** What a strict function without `parameters` takes: nothing (OpenAI's reading of strict). */
export const NO_PARAMETERS = { type: 'object', properties: {}, additionalProperties: false };

/** The grammar, or null where the format has no opening text for a lazy grammar to wait for. */
export function toolCallGrammar(
  { tools, parallel, lazy }: ToolCallOptions,
  format: ToolCallFormat = HERMES_TOOL_FORMAT,
): ToolCallGrammar | null {
  if (lazy && format.open === '') return null;
  const rules = new GbnfRules();
  rules.set('root', '');
  const space = usePrimitive(rules, 'space');
  const calls = tools.map((tool) => {
    const args = jsonArguments(rules, tool);
    // Mistral's `NAME[ARGS]{...}`, else the JSON object `{"name": NAME, "<args>": {...}}`.
    if (format.syntax === 'named')
      return rules.add(`${tool.name}-call`, `${gbnfLiteral(tool.name + format.args)} ${args}`);
    const key = (k: string) => `${gbnfLiteral(JSON.stringify(k))} ${space} ":" ${space}`;
    return rules.add(
      `${tool.name}-call`,
      `"{" ${space} ${key('name')} ${gbnfLiteral(JSON.stringify(tool.name))} ${space} "," ${space} ${key(format.args)} ${args} "}" ${space}`,
    );
  });
  const one = `( ${calls.join(' | ')} )`;
  const open = format.open === '' ? '' : `${gbnfLiteral(format.open)} ${space} `;
  const close = format.close === '' ? '' : ` ${gbnfLiteral(format.close)}`;
  if (format.array) {
    const more = parallel ? ` ( "," ${space} ${one} )*` : '';
    rules.set('root', rules.add('tool-calls', `${open}"[" ${space} ${one}${more} "]"${close}`));
  } else {
    const call = rules.add('tool-call', `${open}${one}${close}`);
    rules.set('root', parallel ? `${call} ( ${space} ${call} )*` : call);
  }
  return { gbnf: rules.format(), trigger: lazy ? format.open : null };
}

/**
 * The rule of a tool's arguments as one JSON object: a strict tool's schema (nothing where it has no
 * `parameters`); one that is not strict, its schema where a grammar can enforce it, else any object.
 */
export function jsonArguments(rules: GbnfRules, tool: ToolSchema): string {
  if (tool.strict === true)
    return addSchemaRule(rules, tool.parameters ?? NO_PARAMETERS, `${tool.name}-args`, tool.param);
  return looseArgs(rules, tool);
}

/** A tool that is not strict: its schema where a grammar can enforce it, else any JSON object. */
function looseArgs(rules: GbnfRules, tool: ToolSchema): string {
  if (tool.parameters === undefined) return usePrimitive(rules, 'object');
  try {
    addSchemaRule(new GbnfRules(), tool.parameters, `${tool.name}-args`, tool.param);
  } catch {
    return usePrimitive(rules, 'object');
  }
  return addSchemaRule(rules, tool.parameters, `${tool.name}-args`, tool.param);
}
