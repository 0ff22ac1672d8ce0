/**
 * Room for the reasoning before a constrained output, as llama-server leaves it: on a template
 * that writes `<think>` and `</think>`, its `response_format` (and tool-call) grammar starts with
 * the template's reasoning (optional, or already open where the prompt opened it), so a thinking
 * model reasons freely and the constrained text follows `</think>` as the answer. A grammar the
 * client wrote (`grammar`, `ebnf`, ...) is left as it is and applies from the first token, as
 * llama-server applies its `grammar`. The tags are matched as text, as llama-server's grammar
 * matches them (a special token's text included).
 */
import type { OutputGrammar } from '#core/domain/generation';
import { gbnfLiteral } from '#core/constraints/gbnf-literal';
import { untilTag } from '#core/constraints/until-tag';
import type { ChatTemplate } from '#gguf/chat-template';
import type { ThinkingTags } from '#core/domain/thinking-tags';
import { thinkingTags } from './reasoning-tags';

/** The rule the constrained output starts from once the reasoning is over. */
const ANSWER_ROOT = 'answer-root';

/**
 * The grammar a conversation on `template`, rendered as `prompt` (whose render says whether it
 * opened the reasoning), runs with: `grammar` after the reasoning where it leaves room for one,
 * the template writes the tags and the prompt did not close them (llama-server's grammar reads the
 * generation prompt first, so a closed reasoning there leaves it none); else `grammar` itself. A
 * lazy grammar is left as it is: the sampler keeps it out of the reasoning (run-generation's
 * `reasoningFor`).
 */
export function reasoningGrammar(
  template: ChatTemplate | null,
  grammar: OutputGrammar,
  prompt: { text: string; opensReasoning: boolean },
): OutputGrammar {
  const tags = thinkingTags(template);
  if (!grammar.afterReasoning || grammar.trigger !== undefined || tags === null) return grammar;
  // The prompt closed the reasoning (thinking off: `<think>\n\n</think>`): the answer is next.
  if (prompt.text.trimEnd().endsWith(tags.end)) return grammar;
  return grammarAfterReasoning(grammar, prompt.opensReasoning, tags);
}

/**
 * `grammar` after the reasoning: `<think>` (unless the prompt opened it), any text without
 * `</think>`, `</think>` and up to two newlines, then the grammar; optional unless the prompt
 * opened the reasoning.
 */
export function grammarAfterReasoning(grammar: OutputGrammar, opens: boolean, tags: ThinkingTags): OutputGrammar {
  const root = opens ? `root ::= reasoning` : `root ::= ${gbnfLiteral(tags.start)} reasoning | ${ANSWER_ROOT}`;
  const rules = [root, ...untilTag('reasoning', tags.end, `"\\n"{0,2} ${ANSWER_ROOT}`)];
  return { ...grammar, gbnf: `${rules.join('\n')}\n${renameRule(grammar.gbnf, 'root', ANSWER_ROOT)}` };
}

/** A rule name, read where it starts (sticky). */
const NAME = /[A-Za-z0-9-]+/y;

/**
 * `gbnf` with rule `from` named `to`, where it is defined and wherever it is referred to (names
 * inside string literals, character classes and comments are text, not names).
 */
export function renameRule(gbnf: string, from: string, to: string): string {
  let out = '';
  let i = 0;
  while (i < gbnf.length) {
    const char = gbnf.charAt(i);
    const close = char === '"' ? '"' : char === '[' ? ']' : char === '#' ? '\n' : null;
    if (close !== null) {
      let j = i + 1;
      while (j < gbnf.length && gbnf.charAt(j) !== close) j += gbnf.charAt(j) === '\\' && close !== '\n' ? 2 : 1;
      out += gbnf.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    NAME.lastIndex = i;
    const name = NAME.exec(gbnf)?.[0];
    if (name !== undefined) {
      out += name === from ? to : name;
      i += name.length;
      continue;
    }
    out += char;
    i += 1;
  }
  return out;
}
