/**
 * A JSON constraint on a chat answer, as llama-server 0.7.0's chat parser builds its grammar
 * (`chat-auto-parser-generator.cpp`, for every template it reads): the JSON alone, or the JSON
 * in a ```` ```json ```` fence, with whitespace around either:
 * `space ("```json" space JSON space "```" | space JSON space)`, where JSON is the schema's
 * grammar (which ends in `space` itself). The content is the JSON alone: the SW's parser leaves
 * the fence and the whitespace out, as llama-server's does. Where the template is one llama-server
 * reads with a parser of its own that wants the fence (Gemma 4's, common/parsers/gemma4.cpp;
 * Ministral 3's and Devstral's, common/parsers/ministral3.cpp: `jsonFence`), the fence is required:
 * `space "```json" space JSON space "```"`. Text prompts (`/v1/completions`, `/completion`) keep
 * the schema's grammar, as there.
 */
import type { OutputGrammar } from '#core/domain/generation';
import { gbnfLiteral } from '#core/constraints/gbnf-literal';
import { primitiveBody } from '#core/constraints/json-primitives';
import { renameRule } from './reasoning-grammar';
import { isGemma4Template } from './tool-call-format';

/** `grammar` as a chat answer's, where it is a JSON constraint (it has a schema); else as it is. `fenced`: the fence is required. */
export function chatJsonGrammar(grammar: OutputGrammar, fenced = false): OutputGrammar {
  if (grammar.schema === undefined || grammar.trigger !== undefined) return grammar;
  const defines = (name: string) => new RegExp(`^${name} ::=`, 'm').test(grammar.gbnf);
  let json = 'json-answer';
  for (let i = 1; defines(json); i++) json = `json-answer-${i}`;
  const rules = [
    fenced
      ? `root ::= space ${gbnfLiteral('```json')} space ${json} space ${gbnfLiteral('```')}`
      : `root ::= space (${gbnfLiteral('```json')} space ${json} space ${gbnfLiteral('```')} | space ${json} space)`,
    renameRule(grammar.gbnf, 'root', json),
    ...(defines('space') ? [] : [`space ::= ${primitiveBody('space')}`]),
  ];
  return { ...grammar, gbnf: rules.join('\n') };
}

/**
 * Whether llama-server reads `source`'s answers with a parser that wants JSON in a fence: Gemma 4's
 * (its call's opening text) and Ministral 3's (`[SYSTEM_PROMPT]`, `[TOOL_CALLS]` and `[ARGS]`,
 * without Mistral Small 3.2's `[CALL_ID]`), found as its common/chat.cpp finds them.
 */
export function jsonFence(source: string): boolean {
  if (isGemma4Template(source)) return true;
  return (
    ['[SYSTEM_PROMPT]', '[TOOL_CALLS]', '[ARGS]'].every((tag) => source.includes(tag)) && !source.includes('[CALL_ID]')
  );
}
