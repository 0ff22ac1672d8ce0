/** llama-server's `completion_probabilities` entries, and the check that two runs gave the same ones. */
import assert from 'node:assert/strict';

export interface Probability {
  id: number;
  logprob: number;
  top_logprobs: Array<{ id: number; logprob: number }>;
}

/** The same tokens and candidates at each position, logprobs within 1e-4. */
export function assertSameProbabilities(actual: Probability[], expected: Probability[]): void {
  assert.equal(actual.length, expected.length);
  actual.forEach((token, i) => {
    const want = expected[i];
    assert.ok(want);
    assert.equal(token.id, want.id, `token ${i}`);
    assert.ok(Math.abs(token.logprob - want.logprob) < 1e-4, `token ${i}: ${token.logprob} vs ${want.logprob}`);
    assert.deepEqual(
      token.top_logprobs.map((top) => top.id),
      want.top_logprobs.map((top) => top.id),
      `token ${i}`,
    );
    token.top_logprobs.forEach((top, j) => {
      const other = want.top_logprobs[j]?.logprob ?? NaN;
      assert.ok(Math.abs(top.logprob - other) < 1e-4, `token ${i}, top ${j}: ${top.logprob} vs ${other}`);
    });
  });
}

/** What the specs compare of two `/completion` answers. */
export interface NativeOutput {
  content: string;
  tokens: number[];
  stop_type: string;
  completion_probabilities: Probability[];
}

/** The same text, tokens and stop, and each position's logprobs within 1e-4. */
export function assertSameOutput(actual: NativeOutput, expected: NativeOutput, label = ''): void {
  assert.equal(actual.content, expected.content, label);
  assert.deepEqual(actual.tokens, expected.tokens, label);
  assert.equal(actual.stop_type, expected.stop_type, label);
  assertSameProbabilities(actual.completion_probabilities, expected.completion_probabilities);
}
