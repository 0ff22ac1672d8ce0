/**
 * A JSON constraint on a chat answer, as llama-server 0.7.0's chat parser builds its grammar
 * (`chat-auto-parser-generator.cpp`, for every template it reads): the JSON alone, or the JSON
 * in a ```` ```json ```` fence, with whitespace around either:
 * `space ("```json" space JSON space "```" | space JSON space)`, where JSON is the schema's
 * grammar (which ends in `space` itself). The content is the JSON alone: the SW's parser leaves
 * the fence and the whitespace out, as llama-server's does. Where the template is one llama-server
 * reads with a parser of its own that wants the fence (Gemma 4's, common/parsers/gemma4.cpp;
 * Ministral 3's and Devstral's, common/parsers/ministral3.cpp: `jsonFence`), the fence is required:
 * `space "```json" space JSON space "```"`. On gpt-oss's template (harmony), the JSON is the body of
 * the final message, after any analysis messages, as its parser builds it (common/parsers/gpt-oss.cpp):
 * `<|channel|>final`, any constraint (` <|constrain|>json`), `<|message|>`, JSON. Text prompts
 * (`/v1/completions`, `/completion`) keep the schema's grammar, as there.
 */
import type { OutputGrammar } from '#core/domain/generation';
import { gbnfLiteral } from '#core/constraints/gbnf-literal';
import { primitiveBody } from '#core/constraints/json-primitives';
import { renameRule } from './reasoning-grammar';
import { harmonyConstraint, harmonyMessages } from '#core/constraints/harmony-call-grammar';
import { GbnfRules } from '#core/constraints/gbnf-rules';
import { isGemma4Template, isHarmonyTemplate, isMinistral3Template } from './tool-call-format';

/** What goes round a chat's JSON: a fence or not (`optional`), the fence (`fenced`), harmony's final message. */
export type JsonFrame = 'optional' | 'fenced' | 'harmony';

/** `grammar` as a chat answer's, where it is a JSON constraint (it has a schema); else as it is. */
export function chatJsonGrammar(grammar: OutputGrammar, frame: JsonFrame = 'optional'): OutputGrammar {
  if (grammar.schema === undefined || grammar.trigger !== undefined) return grammar;
  const defines = (name: string) => new RegExp(`^${name} ::=`, 'm').test(grammar.gbnf);
  let json = 'json-answer';
  for (let i = 1; defines(json); i++) json = `json-answer-${i}`;
  const fence = `${gbnfLiteral('```json')} space ${json} space ${gbnfLiteral('```')}`;
  const root =
    frame === 'harmony'
      ? harmonyRoot(json, defines)
      : frame === 'fenced'
        ? `root ::= space ${fence}`
        : `root ::= space (${fence} | space ${json} space)`;
  const rules = [
    root,
    renameRule(grammar.gbnf, 'root', json),
    ...(defines('space') ? [] : [`space ::= ${primitiveBody('space')}`]),
  ];
  return { ...grammar, gbnf: rules.join('\n') };
}

/** Harmony's frame round `json`: any analysis messages, then the final message with it; its rules without `space`, which the caller adds. */
function harmonyRoot(json: string, defines: (name: string) => boolean): string {
  const rules = new GbnfRules();
  rules.set('root', '');
  const constraint = harmonyConstraint(rules);
  rules.set('root', harmonyMessages(rules, `"<|channel|>final" ${constraint} "<|message|>" ${json}`, false));
  let frame = rules.format().trimEnd();
  // A rule name the schema's grammar has too goes by another name here.
  for (const rule of frame.split('\n')) {
    const name = rule.slice(0, rule.indexOf(' ::='));
    if (name !== 'root' && name !== 'space' && defines(name)) frame = renameRule(frame, name, `${name}-frame`);
  }
  return frame
    .split('\n')
    .filter((rule) => !rule.startsWith('space ::='))
    .join('\n');
}

/**
 * What llama-server's parser for `source` wants round a chat's JSON: the fence on Gemma 4's and
 * Ministral 3's, harmony's final message on gpt-oss's, found as its common/chat.cpp finds them;
 * else a fence or none.
 */
export function jsonFrame(source: string): JsonFrame {
  if (isHarmonyTemplate(source)) return 'harmony';
  return isGemma4Template(source) || isMinistral3Template(source) ? 'fenced' : 'optional';
}
