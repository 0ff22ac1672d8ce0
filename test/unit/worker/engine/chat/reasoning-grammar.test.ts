/** Room for the reasoning before a constrained output (llama-server's response_format grammar on a thinking template). */
import { THINK_TAGS } from '../../../../../src/core/domain/thinking-tags';
import { describe, expect, it } from 'vitest';
import {
  grammarAfterReasoning,
  reasoningGrammar,
  renameRule,
} from '../../../../../worker/engine/chat/reasoning-grammar';
import { untilTag } from '../../../../../src/core/constraints/until-tag';
import type { OutputGrammar } from '../../../../../src/core/domain/generation';

const THINKS = { source: "{{ '<think>' }}{{ '</think>' }}", bos_token: '', eos_token: '', origin: 'gguf' as const };
const PLAIN = { source: '{{ messages }}', bos_token: '', eos_token: '', origin: 'gguf' as const };
/** A prompt its render says opened the reasoning. */
const opened = (text: string) => ({ text, opensReasoning: true });
const json: OutputGrammar = {
  gbnf: 'root ::= "{" space "}"\nspace ::= " "?',
  param: 'response_format',
  afterReasoning: true,
};

/**
 * Runs `untilTag`'s rules (each alternative `[^cs] next` or `"c" next`) on `text`: the offsets
 * at which they reach `then`.
 */
function reachesThen(rules: string[], text: string): number[] {
  const table = new Map<string, Array<{ test: (char: string) => boolean; next: string }>>();
  for (const rule of rules) {
    const [name = '', body = ''] = rule.split(' ::= ');
    const alternatives = body.split(' | ').map((alternative) => {
      const negated = /^\[\^(.+)\] (\S+)$/.exec(alternative);
      if (negated) {
        const excluded = (negated[1] ?? '').replaceAll('\\', '');
        return { test: (char: string) => !excluded.includes(char), next: negated[2] ?? '' };
      }
      const literal = /^("(?:[^"\\]|\\.)+") (.+)$/.exec(alternative);
      if (!literal) throw new Error(`unexpected alternative: ${alternative}`);
      const char = JSON.parse(literal[1] ?? '') as string;
      return { test: (c: string) => c === char, next: literal[2] ?? '' };
    });
    table.set(name, alternatives);
  }
  const reached: number[] = [];
  let states = new Set(['r']);
  for (const [offset, char] of [...text].entries()) {
    const next = new Set<string>();
    for (const state of states) for (const { test, next: to } of table.get(state) ?? []) if (test(char)) next.add(to);
    if (next.has('THEN')) reached.push(offset + 1);
    next.delete('THEN');
    states = next;
  }
  return reached;
}

describe('untilTag', () => {
  const rules = untilTag('r', '</think>', 'THEN');

  it('reaches what follows at the first `</think>` and nowhere else', () => {
    const alphabet = ['<', '/', 't', 'h', 'i', 'n', 'k', '>', 'a', '</think>', '</th', '<<'];
    let seed = 7;
    for (let run = 0; run < 2000; run++) {
      let text = '';
      for (let i = 0; i < 12; i++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        text += alphabet[seed % alphabet.length];
      }
      const first = text.indexOf('</think>');
      expect(reachesThen(rules, text), text).toEqual(first < 0 ? [] : [first + '</think>'.length]);
    }
  });

  it('is one rule a state, each right-recursive', () => {
    expect(rules).toHaveLength(8);
    expect(rules[7]).toBe('r-7 ::= [^><] r | "<" r-1 | ">" THEN');
  });

  it('refuses a tag whose first character comes again', () => {
    expect(() => untilTag('r', '<a<', 'x')).toThrow(/repeats/);
  });
});

describe('renameRule', () => {
  it('renames the rule and its references, not text inside literals, classes or comments', () => {
    const gbnf = 'root ::= "root" [root] item # root\nitem ::= "(" root ")" | "\\"root"';
    expect(renameRule(gbnf, 'root', 'answer')).toBe(
      'answer ::= "root" [root] item # root\nitem ::= "(" answer ")" | "\\"root"',
    );
  });

  it('leaves names that only contain it', () => {
    expect(renameRule('root ::= root-item\nroot-item ::= "x"', 'root', 'a')).toBe('a ::= root-item\nroot-item ::= "x"');
  });
});

describe('reasoningGrammar', () => {
  it('opens with the reasoning where the prompt opened it', () => {
    const { gbnf } = reasoningGrammar(THINKS, json, opened('<|im_start|>assistant\n<think>\n'));
    expect(gbnf.split('\n')[0]).toBe('root ::= reasoning');
    expect(gbnf).toContain('reasoning-7 ::= [^><] reasoning | "<" reasoning-1 | ">" "\\n"{0,2} answer-root');
    expect(gbnf).toContain('answer-root ::= "{" space "}"');
  });

  it('lets the model open one where the template writes the tags', () => {
    expect(reasoningGrammar(THINKS, json, { text: 'assistant\n', opensReasoning: false }).gbnf.split('\n')[0]).toBe(
      'root ::= "<think>" reasoning | answer-root',
    );
  });

  it('leaves the grammar where the prompt closed the reasoning, the template has none, it is lazy or the client wrote it', () => {
    expect(reasoningGrammar(THINKS, json, { text: '<think>\n\n</think>\n\n', opensReasoning: false })).toBe(json);
    expect(reasoningGrammar(PLAIN, json, opened('<think>\n'))).toBe(json);
    expect(reasoningGrammar(null, json, opened('<think>\n'))).toBe(json);
    const lazy = { ...json, trigger: '<tool_call>' };
    expect(reasoningGrammar(THINKS, lazy, opened('<think>\n'))).toBe(lazy);
    const own: OutputGrammar = { gbnf: 'root ::= "ab"', param: 'grammar' };
    expect(reasoningGrammar(THINKS, own, opened('<think>\n'))).toBe(own);
  });

  it('keeps the rest of the grammar as it was', () => {
    const wrapped = grammarAfterReasoning(json, true, THINK_TAGS);
    expect(wrapped.param).toBe('response_format');
    expect(wrapped.gbnf.endsWith('answer-root ::= "{" space "}"\nspace ::= " "?')).toBe(true);
  });
});
