import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { create, createStreamed } from './conformance-helpers';
import { usePage } from './page-fixture';
import { streamFromPage } from './page-helpers';

const fixture = usePage();

describe('conformance: text, choices, prompts and usage', () => {
  test('stream and non-stream give identical text per choice; finish_reason once per choice, in its last chunk', async () => {
    for (const params of [
      { prompt: 'abc', max_tokens: 7, temperature: 0 },
      { prompt: ['abc', 'XY'], max_tokens: 4, temperature: 0, n: 2 },
      { prompt: 'k', max_tokens: 6, seed: 11, n: 3 },
    ]) {
      const whole = await create(fixture.page, params);
      const streamed = await createStreamed(fixture.page, params);
      assert.deepEqual(
        streamed.choices.map((c) => c.text),
        whole.choices.map((c) => c.text),
        JSON.stringify(params),
      );
      assert.deepEqual(
        streamed.choices.map((c) => c.finish_reason),
        whole.choices.map((c) => c.finish_reason),
      );
      assert.ok(
        Object.values(streamed.finishes).every((count) => count === 1),
        'one finish per choice',
      );
      assert.equal(Object.keys(streamed.finishes).length, whole.choices.length);
      assert.ok(streamed.lastFinishIsLast, 'no text after a choice finished');
    }
  });

  test('raw SSE: data frames of text_completion chunks, ended by [DONE]', async () => {
    const result = await streamFromPage(fixture.page, {
      model: 'inpage-test',
      prompt: 'abc',
      max_tokens: 3,
      temperature: 0,
      stream: true,
    });
    assert.equal(result.status, 200);
    assert.equal(result.done, true);
    const texts = result.events.flatMap((event) =>
      (event.choices as Array<{ text: string }>).map((choice) => choice.text),
    );
    assert.equal(texts.join(''), 'def');
    assert.ok(result.events.every((event) => event.object === 'text_completion'));
  });

  test('exact usage for string, batch, token-id and mixed prompts, with and without echo', async () => {
    const cases: Array<[unknown, string[], number]> = [
      ['abc', ['defgh'], 3],
      [['abc', 'xy'], ['defgh', 'zabcd'], 5],
      [[97, 98, 99], ['defgh'], 3],
      [[[97, 98], [49]], ['cdefg', '23456'], 3],
      [['abc', [120, 121]], ['defgh', 'zabcd'], 5],
    ];
    for (const [prompt, texts, promptTokens] of cases) {
      const plain = await create(fixture.page, { prompt, max_tokens: 5, temperature: 0, cache_prompt: false });
      assert.deepEqual(
        plain.choices.map((c) => c.text),
        texts,
        JSON.stringify(prompt),
      );
      assert.equal(plain.usage.prompt_tokens, promptTokens);
      assert.equal(plain.usage.completion_tokens, 5 * texts.length);
      assert.equal(plain.usage.total_tokens, promptTokens + 5 * texts.length);
      const echoed = await create(fixture.page, {
        prompt,
        max_tokens: 5,
        temperature: 0,
        echo: true,
        cache_prompt: false,
      });
      const prompts = (
        Array.isArray(prompt) && prompt.every((p) => typeof p === 'number')
          ? [prompt]
          : Array.isArray(prompt)
            ? prompt
            : [prompt]
      ).map((p) => (typeof p === 'string' ? p : String.fromCharCode(...(p as number[]))));
      assert.deepEqual(
        echoed.choices.map((c) => c.text),
        texts.map((text, i) => prompts[i] + text),
      );
      assert.deepEqual(echoed.usage, plain.usage);
    }
  });

  test('echo with stream: the prompt comes first in the choice text', async () => {
    const streamed = await createStreamed(fixture.page, { prompt: 'abc', max_tokens: 3, temperature: 0, echo: true });
    assert.equal(streamed.choices[0]?.text, 'abcdef');
  });

  test('max_tokens 0 with echo returns the prompt only', async () => {
    const result = await create(fixture.page, { prompt: 'abc', max_tokens: 0, echo: true });
    assert.equal(result.choices[0]?.text, 'abc');
    assert.equal(result.choices[0]?.finish_reason, 'length');
    assert.deepEqual(result.usage, { prompt_tokens: 3, completion_tokens: 0, total_tokens: 3 });
  });

  test('n: 3 gives three choices per prompt, batch prompts prompt-major', async () => {
    const result = await create(fixture.page, { prompt: ['abc', 'ABC', '012'], max_tokens: 3, temperature: 0, n: 2 });
    assert.deepEqual(
      result.choices.map((c) => [c.index, c.text]),
      [
        [0, 'def'],
        [1, 'def'],
        [2, 'DEF'],
        [3, 'DEF'],
        [4, '345'],
        [5, '345'],
      ],
    );
    assert.equal(result.usage.prompt_tokens, 9);
    assert.equal(result.usage.completion_tokens, 18);
    const sampled = await create(fixture.page, { prompt: 'a', max_tokens: 8, n: 3, seed: 5 });
    assert.equal(sampled.choices.length, 3);
    assert.ok(new Set(sampled.choices.map((c) => c.text)).size > 1, 'seeded choices differ from each other');
  });

  test('best_of returns the n best by cumulative logprob; best_of > n with stream is a 400', async () => {
    const result = await create(fixture.page, { prompt: 'a', max_tokens: 6, n: 2, best_of: 5, seed: 3, logprobs: 0 });
    assert.equal(result.choices.length, 2);
    const sums = result.choices.map((c) =>
      (c.logprobs?.token_logprobs ?? []).reduce<number>((sum, lp) => sum + (lp ?? 0), 0),
    );
    assert.ok((sums[0] ?? 0) >= (sums[1] ?? 0), `best first: ${sums}`);
    assert.equal(result.usage.completion_tokens, 12);
    const streamed = await streamFromPage(fixture.page, {
      model: 'inpage-test',
      prompt: 'a',
      n: 1,
      best_of: 2,
      stream: true,
    });
    assert.equal(streamed.status, 400);
    assert.equal((streamed.events[0] as { error: { param: string } }).error.param, 'best_of');
  });

  test('stream_options: include_usage adds a final usage chunk; continuous_usage_stats puts usage on every chunk', async () => {
    const final = await streamFromPage(fixture.page, {
      model: 'inpage-test',
      prompt: 'abc',
      max_tokens: 3,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    });
    const last = final.events.at(-1) as { choices: unknown[]; usage: { completion_tokens: number } };
    assert.deepEqual(last.choices, []);
    assert.equal(last.usage.completion_tokens, 3);
    const live = await streamFromPage(fixture.page, {
      model: 'inpage-test',
      prompt: 'abc',
      max_tokens: 3,
      temperature: 0,
      stream: true,
      stream_options: { continuous_usage_stats: true },
    });
    const counts = live.events.map(
      (event) => (event.usage as { completion_tokens: number } | undefined)?.completion_tokens,
    );
    assert.ok(
      counts.every((count) => typeof count === 'number'),
      'usage on every chunk',
    );
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => (a ?? 0) - (b ?? 0)),
      'non-decreasing',
    );
    assert.equal(counts.at(-1), 3);
  });

  test('prefix reuse is reported as prompt_tokens_details.cached_tokens; cache_prompt false disables it', async () => {
    const prompt = 'The quick brown fox ';
    await create(fixture.page, { prompt, max_tokens: 1, temperature: 0 });
    const again = await create(fixture.page, { prompt, max_tokens: 1, temperature: 0 });
    assert.ok((again.usage.prompt_tokens_details?.cached_tokens ?? 0) > 0, JSON.stringify(again.usage));
    const fresh = await create(fixture.page, { prompt, max_tokens: 1, temperature: 0, cache_prompt: false });
    assert.equal(fresh.usage.prompt_tokens_details?.cached_tokens ?? 0, 0);
  });

  test('max_tokens null or -1 generates up to a stop', async () => {
    for (const max of [null, -1]) {
      const result = await create(fixture.page, { prompt: 'abc', max_tokens: max, temperature: 0, stop: 'k' });
      assert.equal(result.choices[0]?.text, 'defghij');
      assert.equal(result.choices[0]?.finish_reason, 'stop');
    }
  });
});
