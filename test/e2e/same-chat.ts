/**
 * A greedy chat answer compared with native llama-server's: the same text and token counts, and
 * each token's logprob within 1e-3 (the media tests' tolerance: docs/multimodal.md).
 */
import assert from 'node:assert/strict';

/** The part of a chat completion the comparison reads. */
export interface ChatAnswer {
  choices: Array<{
    message: { content: string };
    logprobs: { content: Array<{ logprob: number }> } | null;
  }>;
  usage: { prompt_tokens: number; completion_tokens: number };
}

export function assertSameChat(actual: ChatAnswer, expected: ChatAnswer, label: string): void {
  const [mine, theirs] = [actual.choices[0], expected.choices[0]];
  assert.equal(mine?.message.content, theirs?.message.content, label);
  assert.equal(actual.usage.prompt_tokens, expected.usage.prompt_tokens, `${label}: prompt tokens`);
  assert.equal(actual.usage.completion_tokens, expected.usage.completion_tokens, `${label}: completion tokens`);
  const want = theirs?.logprobs?.content ?? [];
  const got = mine?.logprobs?.content ?? [];
  assert.equal(got.length, want.length, `${label}: logprobs`);
  got.forEach((entry, i) => {
    const other = want[i]?.logprob ?? NaN;
    assert.ok(Math.abs(entry.logprob - other) < 1e-3, `${label}, token ${i}: ${entry.logprob} vs ${other}`);
  });
}
