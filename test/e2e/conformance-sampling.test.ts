import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { create } from './conformance-helpers';
import { usePage } from './page-fixture';

const fixture = usePage();

const next = (c: string, k: number) => String.fromCharCode(((c.charCodeAt(0) - 97 + k) % 26) + 97);

/** Each step of a lowercase run moves forward by one of `allowed` letters. */
function steps(prompt: string, text: string): number[] {
  const all = prompt.at(-1) + text;
  return [...text].map((c, i) => (c.charCodeAt(0) - (all[i] ?? 'a').charCodeAt(0) + 26) % 26);
}

describe('conformance: sampling', () => {
  test('the same seed at temperature 1 gives the same text; different seeds differ over a few tries', async () => {
    const a = await create(fixture.page, { prompt: 'a', max_tokens: 30, seed: 42 });
    const b = await create(fixture.page, { prompt: 'a', max_tokens: 30, seed: 42 });
    assert.equal(a.choices[0]?.text, b.choices[0]?.text);
    const others = new Set<string>();
    for (const seed of [1, 2, 3, 4])
      others.add((await create(fixture.page, { prompt: 'a', max_tokens: 30, seed })).choices[0]?.text ?? '');
    assert.ok(others.size > 1);
    assert.ok(
      [...steps('a', a.choices[0]?.text ?? '')].some((step) => step !== 1),
      'temperature 1 leaves the top token sometimes',
    );
  });

  test('top_k 1 and temperature 0 equal greedy', async () => {
    const greedy = await create(fixture.page, { prompt: 'q', max_tokens: 20, temperature: 0 });
    const topK = await create(fixture.page, { prompt: 'q', max_tokens: 20, top_k: 1, seed: 9 });
    assert.equal(topK.choices[0]?.text, greedy.choices[0]?.text);
    assert.equal(greedy.choices[0]?.text, [...Array(20)].map((_, i) => next('q', i + 1)).join(''));
  });

  test('top_p 0.6 never leaves the top token; min_p 0.3 allows only the top two', async () => {
    const topP = await create(fixture.page, { prompt: 'a', max_tokens: 60, top_p: 0.6, seed: 5 });
    assert.ok(steps('a', topP.choices[0]?.text ?? '').every((step) => step === 1));
    const minP = await create(fixture.page, { prompt: 'a', max_tokens: 80, min_p: 0.3, seed: 5 });
    const seen = new Set(steps('a', minP.choices[0]?.text ?? ''));
    assert.ok(
      [...seen].every((step) => step === 1 || step === 2),
      JSON.stringify([...seen]),
    );
    assert.ok(seen.has(2), 'the second token is still possible');
  });

  test('top_n_sigma keeps the tokens within n standard deviations of the top logit', async () => {
    // The logits after a letter are 2, 1, 0 for its next three successors and about -20 for the
    // other 255 tokens: their standard deviation is 2.27, so n = 0.3 keeps only the top token,
    // n = 0.6 the top two (1 below the top is within 0.6 x 2.27), never the third (2 below).
    const one = await create(fixture.page, { prompt: 'a', max_tokens: 60, seed: 5, top_n_sigma: 0.3 });
    assert.ok(
      steps('a', one.choices[0]?.text ?? '').every((step) => step === 1),
      one.choices[0]?.text,
    );
    const two = await create(fixture.page, { prompt: 'a', max_tokens: 80, seed: 5, top_n_sigma: 0.6 });
    const seen = new Set(steps('a', two.choices[0]?.text ?? ''));
    assert.deepEqual([...seen].sort(), [1, 2], two.choices[0]?.text);
    const off = await create(fixture.page, { prompt: 'a', max_tokens: 80, seed: 5, top_n_sigma: -1 });
    const free = await create(fixture.page, { prompt: 'a', max_tokens: 80, seed: 5 });
    assert.equal(off.choices[0]?.text, free.choices[0]?.text);
  });

  test('logit_bias -100 bans a token, +100 forces one', async () => {
    const banned = await create(fixture.page, {
      prompt: 'abc',
      max_tokens: 5,
      temperature: 0,
      logit_bias: { '100': -100 },
    });
    assert.equal(banned.choices[0]?.text, 'efghi');
    const forced = await create(fixture.page, {
      prompt: 'abc',
      max_tokens: 5,
      temperature: 0,
      logit_bias: { '120': 100 },
    });
    assert.equal(forced.choices[0]?.text, 'xxxxx');
  });

  test('penalties change the greedy choice exactly as their formulas say', async () => {
    // After "ababa" the logits are b 2, c 1, d 0, and "b" occurred twice.
    const plain = await create(fixture.page, { prompt: 'ababa', max_tokens: 1, temperature: 0 });
    assert.equal(plain.choices[0]?.text, 'b');
    // frequency: b 2 - 2*2 = -2 < c 1.
    const frequency = await create(fixture.page, {
      prompt: 'ababa',
      max_tokens: 1,
      temperature: 0,
      frequency_penalty: 2,
    });
    assert.equal(frequency.choices[0]?.text, 'c');
    // presence: b 2 - 1.5 = 0.5 < c 1.
    const presence = await create(fixture.page, {
      prompt: 'ababa',
      max_tokens: 1,
      temperature: 0,
      presence_penalty: 1.5,
    });
    assert.equal(presence.choices[0]?.text, 'c');
    // repetition: b 2 / 3 = 0.67 < c 1; and 1.5 leaves b (1.33) on top.
    const strong = await create(fixture.page, {
      prompt: 'ababa',
      max_tokens: 1,
      temperature: 0,
      repetition_penalty: 3,
    });
    assert.equal(strong.choices[0]?.text, 'c');
    const mild = await create(fixture.page, { prompt: 'ababa', max_tokens: 1, temperature: 0, repeat_penalty: 1.5 });
    assert.equal(mild.choices[0]?.text, 'b');
  });

  test('typical_p 0.5 and mirostat with a small tau keep only the top token at temperature 1', async () => {
    // Entropy of (0.665, 0.245, 0.090) is 0.833 nats; the top token's surprisal (0.408) is the
    // closest to it and its mass alone exceeds 0.5, so typical sampling keeps just it. Mirostat
    // 2 with tau 0.1 truncates everything above a surprise of 0.2 bits, which leaves the top one.
    const free = await create(fixture.page, { prompt: 'a', max_tokens: 60, seed: 5 });
    assert.ok(
      steps('a', free.choices[0]?.text ?? '').some((step) => step !== 1),
      'without them the seed leaves the top token',
    );
    for (const params of [
      { typical_p: 0.5 },
      { mirostat: 2, mirostat_tau: 0.1 },
      { mirostat_mode: 2, mirostat_tau: 0.1 },
    ]) {
      const result = await create(fixture.page, { prompt: 'a', max_tokens: 60, seed: 5, ...params });
      assert.ok(
        steps('a', result.choices[0]?.text ?? '').every((step) => step === 1),
        `${JSON.stringify(params)}: ${result.choices[0]?.text}`,
      );
    }
  });
});
