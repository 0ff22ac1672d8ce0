import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { close, create, createStreamed, LOGPROB } from './conformance-helpers';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const fixture = usePage();

describe('conformance: logprobs against the known distribution', () => {
  test('greedy after "a": "b" with ln(e²/Z) = -0.408; top-3 are b, c, d with their exact logprobs', async () => {
    const result = await create(fixture.page, { prompt: 'a', max_tokens: 1, temperature: 0, logprobs: 3 });
    const logprobs = result.choices[0]?.logprobs;
    assert.ok(logprobs);
    assert.deepEqual(logprobs.tokens, ['b']);
    assert.ok(close(logprobs.token_logprobs[0], -0.4076), String(logprobs.token_logprobs[0]));
    const top = logprobs.top_logprobs[0] ?? {};
    assert.deepEqual(Object.keys(top).sort(), ['b', 'c', 'd']);
    assert.ok(
      close(top.b, LOGPROB.first) && close(top.c, LOGPROB.second) && close(top.d, LOGPROB.third),
      JSON.stringify(top),
    );
    assert.deepEqual(logprobs.text_offset, [0]);
  });

  test('logprobs 0..5 give that many alternatives (plus the sampled token), text_offset counts the text', async () => {
    for (let k = 0; k <= 5; k++) {
      const result = await create(fixture.page, { prompt: 'abc', max_tokens: 4, temperature: 0, logprobs: k });
      const logprobs = result.choices[0]?.logprobs;
      assert.ok(logprobs, `logprobs ${k}`);
      assert.deepEqual(logprobs.tokens, ['d', 'e', 'f', 'g']);
      assert.deepEqual(logprobs.text_offset, [0, 1, 2, 3]);
      for (const [i, top] of logprobs.top_logprobs.entries()) {
        assert.ok(top, `top ${i}`);
        assert.equal(Object.keys(top).length, Math.max(k, 1), `logprobs ${k}: ${JSON.stringify(top)}`);
        assert.ok(close(logprobs.token_logprobs[i], LOGPROB.first));
      }
    }
  });

  test('streamed logprobs equal the non-streamed ones', async () => {
    const params = { prompt: 'xyz', max_tokens: 5, temperature: 0, logprobs: 2 };
    const whole = await create(fixture.page, params);
    const streamed = await createStreamed(fixture.page, params);
    assert.deepEqual(streamed.choices[0]?.logprobs, whole.choices[0]?.logprobs);
  });

  test('echo + logprobs: prompt tokens first, the first with null; offsets run over prompt and completion', async () => {
    for (const stream of [false, true]) {
      const params = { prompt: 'abc', max_tokens: 2, temperature: 0, logprobs: 1, echo: true };
      const result = stream ? await createStreamed(fixture.page, params) : await create(fixture.page, params);
      const logprobs = result.choices[0]?.logprobs;
      assert.ok(logprobs);
      assert.equal(result.choices[0]?.text, 'abcde');
      assert.deepEqual(logprobs.tokens, ['a', 'b', 'c', 'd', 'e']);
      assert.equal(logprobs.token_logprobs[0], null);
      assert.equal(logprobs.top_logprobs[0], null);
      for (const lp of logprobs.token_logprobs.slice(1)) assert.ok(close(lp, LOGPROB.first), String(lp));
      assert.deepEqual(logprobs.text_offset, [0, 1, 2, 3, 4]);
    }
  });

  test('echo + logprobs of an unlikely prompt token reports its real (low) logprob', async () => {
    const result = await create(fixture.page, { prompt: 'ac', max_tokens: 0, logprobs: 1, echo: true });
    assert.ok(
      close(result.choices[0]?.logprobs?.token_logprobs[1], LOGPROB.second),
      JSON.stringify(result.choices[0]?.logprobs),
    );
  });

  test('logprobs 6 is a 400 naming logprobs, and the endpoint keeps working', async () => {
    const bad = await postFromPage(fixture.page, '/v1/completions', { model: 'inpage-test', prompt: 'a', logprobs: 6 });
    assert.equal(bad.status, 400);
    assert.equal((bad.body as { error: { param: string } }).error.param, 'logprobs');
    const good = await create(fixture.page, { prompt: 'a', max_tokens: 2, temperature: 0 });
    assert.equal(good.choices[0]?.text, 'bc');
  });
});
