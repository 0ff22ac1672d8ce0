/**
 * GBNF for "any text up to a tag": the reasoning up to `</think>` (engine: reasoning-grammar.ts),
 * a Gemma 4 string up to its closing `<|"|>` mark (gemma-call-grammar.ts).
 */
import { gbnfLiteral } from './gbnf-literal';

/**
 * Rules `name`, `name-1`, ...: any text that does not hold `tag`, then `tag`, then `then` (a DFA,
 * one rule per state, right-recursive so the grammar's stacks stay flat). `tag`'s first
 * character must not come again in it (true of `</think>`): then a mismatch goes back to the
 * start, or to state 1 on that character.
 */
export function untilTag(name: string, tag: string, then: string): string[] {
  const chars = [...tag];
  const first = chars[0] ?? '';
  if (chars.length < 2 || chars.slice(1).includes(first))
    throw new Error(`untilTag: '${tag}' repeats its first character`);
  const state = (i: number) => (i === 0 ? name : `${name}-${i}`);
  const rules = [`${state(0)} ::= [^${classChar(first)}] ${state(0)} | ${gbnfLiteral(first)} ${state(1)}`];
  for (let i = 1; i < chars.length; i++) {
    const next = chars[i] ?? '';
    const onNext = i === chars.length - 1 ? `${gbnfLiteral(next)} ${then}` : `${gbnfLiteral(next)} ${state(i + 1)}`;
    rules.push(
      `${state(i)} ::= [^${classChar(next)}${classChar(first)}] ${state(0)} | ${gbnfLiteral(first)} ${state(1)} | ${onNext}`,
    );
  }
  return rules;
}

/** `char` inside a GBNF character class. */
const classChar = (char: string) => (/[\\\]^-]/.test(char) ? `\\${char}` : char);
