import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { create, createStreamed } from './conformance-helpers';
import { usePage } from './page-fixture';

const fixture = usePage();

const greedy = { temperature: 0, max_tokens: 12 };

describe('conformance: stopping', () => {
  test('a stop string spanning several tokens is matched and not emitted; matched_stop names it', async () => {
    for (const run of [create, createStreamed]) {
      const result = await run(fixture.page, { ...greedy, prompt: 'abc', stop: 'fgh' });
      assert.equal(result.choices[0]?.text, 'de');
      assert.equal(result.choices[0]?.finish_reason, 'stop');
    }
    const whole = await create(fixture.page, { ...greedy, prompt: 'abc', stop: 'fgh' });
    assert.equal(whole.choices[0]?.matched_stop, 'fgh');
    assert.equal(whole.usage.completion_tokens, 5, 'tokens up to the one completing the stop');
  });

  test('several stops while streaming: the earliest in the text wins', async () => {
    const result = await createStreamed(fixture.page, { ...greedy, prompt: 'abc', stop: ['xyz', 'ij', 'gh', 'e'] });
    assert.equal(result.choices[0]?.text, 'd');
  });

  test('a stop at the very first token gives empty text', async () => {
    const result = await create(fixture.page, { ...greedy, prompt: 'abc', stop: ['d'] });
    assert.equal(result.choices[0]?.text, '');
    assert.equal(result.choices[0]?.finish_reason, 'stop');
  });

  test('include_stop_str_in_output (and its alias no_stop_trim) keeps the stop', async () => {
    for (const flag of ['include_stop_str_in_output', 'no_stop_trim']) {
      const result = await createStreamed(fixture.page, { ...greedy, prompt: 'abc', stop: 'fg', [flag]: true });
      assert.equal(result.choices[0]?.text, 'defg', flag);
    }
  });

  test('stop_token_ids end the choice at that token; matched_stop is the id', async () => {
    const result = await create(fixture.page, { ...greedy, prompt: 'abc', stop_token_ids: [102] });
    assert.equal(result.choices[0]?.text, 'de');
    assert.equal(result.choices[0]?.finish_reason, 'stop');
    assert.equal(result.choices[0]?.matched_stop, 102);
  });

  test('EOS via "." ends at once; ignore_eos and min_tokens keep generating', async () => {
    const eos = await create(fixture.page, { ...greedy, prompt: 'x.' });
    assert.equal(eos.choices[0]?.text, '');
    assert.equal(eos.choices[0]?.finish_reason, 'stop');
    const ignored = await create(fixture.page, { temperature: 0, prompt: 'x.', max_tokens: 3, ignore_eos: true });
    assert.equal(ignored.choices[0]?.finish_reason, 'length');
    assert.equal(ignored.usage.completion_tokens, 3);
    // EOS banned for 2 tokens: the best other token after '.' is byte 0, which then repeats itself.
    const minimum = await create(fixture.page, { temperature: 0, prompt: 'x.', max_tokens: 6, min_tokens: 2 });
    assert.equal(minimum.choices[0]?.text, '\u0000'.repeat(6));
    assert.equal(minimum.choices[0]?.finish_reason, 'length');
    assert.equal(minimum.usage.completion_tokens, 6);
  });

  test('min_tokens keeps stop strings from matching before that many tokens', async () => {
    const result = await create(fixture.page, { ...greedy, prompt: 'abc', stop: 'd', min_tokens: 2 });
    assert.equal(result.choices[0]?.text, 'defghijklmno');
    assert.equal(result.choices[0]?.finish_reason, 'length');
  });
});
