/** Test helper: feeds an output parser (ChatOutputParser, HarmonyOutputParser) pieces, and checks that how the text is cut does not matter. */
import { expect } from 'vitest';
import type { ParsedDelta } from '../../../../../worker/sw/conversation/chat-output-parser';

export interface OutputParser {
  push(text: string): ParsedDelta;
  finish(): ParsedDelta;
}

/** Feeds `pieces` to a new parser and concatenates every delta. */
export function runParser(make: () => OutputParser, pieces: readonly string[]) {
  const parser = make();
  const total = { reasoning: '', content: '', toolCalls: [] as Array<{ id: string; name: string; arguments: string }> };
  for (const delta of [...pieces.map((p) => parser.push(p)), parser.finish()]) {
    total.reasoning += delta.reasoning;
    total.content += delta.content;
    for (const call of delta.toolCalls) {
      const known = total.toolCalls[call.index];
      if (known) known.arguments += call.arguments;
      else total.toolCalls.push({ id: call.id ?? '?', name: call.name ?? '?', arguments: call.arguments });
    }
  }
  return total;
}

/** Every way of cutting `text` in two, and one character at a time, must agree with one piece; returns that reading. */
export function splitInvariant(make: () => OutputParser, text: string) {
  const whole = runParser(make, [text]);
  for (let i = 0; i <= text.length; i++)
    expect(runParser(make, [text.slice(0, i), text.slice(i)])).toStrictEqual(whole);
  expect(runParser(make, [...text])).toStrictEqual(whole);
  return whole;
}
