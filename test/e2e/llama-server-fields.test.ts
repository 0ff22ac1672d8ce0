/**
 * llama-server's own request fields on the OpenAI routes, sent by the real `openai` SDK as extra
 * body fields, on both test models: `n_predict` wins over `max_tokens` (as in llama-server 0.7.0:
 * `{"max_tokens":5,"n_predict":3}` answers 3 tokens there), `n_probs` is `logprobs`, the fields
 * with no effect on an OpenAI answer are accepted, one that cannot be honoured is a 400 naming it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { INPAGE_TEST_QWEN3_CHAIN_TEXT } from '../fixtures/inpage-test-qwen3-spec';
import { usePage } from './page-fixture';

/** llama-server's fields SimpleChat and other llama.cpp clients send, none changing the answer here. */
const NATIVE = {
  cache_prompt: false,
  return_tokens: true,
  id_slot: -1,
  n_keep: 0,
  n_cache_reuse: 0,
  repeat_last_n: 64,
  min_keep: 0,
  dry_multiplier: 0,
  xtc_probability: 0,
  dynatemp_range: 0,
  samplers: ['penalties', 'dry', 'top_n_sigma', 'top_k', 'typ_p', 'top_p', 'min_p', 'xtc', 'temperature'],
};

describe('llama-server fields on inpage-test', () => {
  const fixture = usePage('/?model=inpage-test');

  test('n_predict wins over max_tokens; n_probs is logprobs; the no-op fields are accepted', async () => {
    const result = await fixture.page.evaluate(async (native) => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'x',
        dangerouslyAllowBrowser: true,
      });
      const completion = await client.completions.create({
        model: 'inpage-test',
        prompt: 'abc',
        max_tokens: 1024,
        temperature: 0,
        ...native,
        ...{ n_predict: 3, n_probs: 2 },
      });
      const chat = await client.chat.completions.create({
        model: 'inpage-test',
        messages: [{ role: 'user', content: 'abc' }],
        max_tokens: 1024,
        temperature: 0,
        ...native,
        ...{ n_predict: 3, n_probs: 2 },
      });
      const stream = await client.chat.completions.create({
        model: 'inpage-test',
        messages: [{ role: 'user', content: 'abc' }],
        max_tokens: 1,
        temperature: 0,
        stream: true,
        ...native,
        ...{ n_predict: 5 },
      });
      let streamed = '';
      for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
      return { completion: JSON.parse(JSON.stringify(completion)), chat: JSON.parse(JSON.stringify(chat)), streamed };
    }, NATIVE);
    assert.equal(result.completion.choices[0].text, 'def');
    assert.deepEqual(result.completion.choices[0].logprobs.tokens, ['d', 'e', 'f']);
    assert.deepEqual(
      result.completion.choices[0].logprobs.top_logprobs.map((top: Record<string, number>) => Object.keys(top).length),
      [2, 2, 2],
    );
    assert.equal(result.chat.choices[0].message.content, 'def');
    assert.deepEqual(
      result.chat.choices[0].logprobs.content.map((t: { token: string; top_logprobs: unknown[] }) => [
        t.token,
        t.top_logprobs.length,
      ]),
      [
        ['d', 2],
        ['e', 2],
        ['f', 2],
      ],
    );
    assert.equal(result.streamed, 'defgh');
  });

  test('a field that cannot be honoured, or a bad value, is a 400 naming it', async () => {
    const errors = await fixture.page.evaluate(async () => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'x',
        dangerouslyAllowBrowser: true,
      });
      const out: Array<[number | undefined, string | null | undefined]> = [];
      for (const extra of [
        { timings_per_token: true },
        { t_max_predict_ms: 100 },
        { samplers: ['top_k', 'bogus'] },
        { n_predict: -2 },
        { dry_sequence_breakers: [] },
      ]) {
        try {
          await client.completions.create({ model: 'inpage-test', prompt: 'abc', max_tokens: 2, ...extra });
          out.push([200, null]);
        } catch (error) {
          out.push([Reflect.get(Object(error), 'status'), Reflect.get(Object(error), 'param')]);
        }
      }
      return out;
    });
    assert.deepEqual(errors, [
      [400, 'timings_per_token'],
      [400, 't_max_predict_ms'],
      [400, 'samplers'],
      [400, 'n_predict'],
      [400, 'dry_sequence_breakers'],
    ]);
  });
});

describe('llama-server fields on inpage-test-qwen3', () => {
  const fixture = usePage('/?model=/models/inpage-test-qwen3.gguf');

  test('n_predict over max_tokens 1 writes the whole chain, completions and chat', async () => {
    const result = await fixture.page.evaluate(async (native) => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'x',
        dangerouslyAllowBrowser: true,
      });
      const completion = await client.completions.create({
        model: 'inpage-test-qwen3',
        prompt: 'x',
        max_tokens: 1,
        temperature: 0,
        ...native,
        ...{ n_predict: 40 },
      });
      const chat = await client.chat.completions.create({
        model: 'inpage-test-qwen3',
        messages: [{ role: 'user', content: 'abc' }],
        max_tokens: 1,
        temperature: 0,
        ...native,
        ...{ n_predict: 40 },
      });
      return { text: completion.choices[0]?.text, content: chat.choices[0]?.message.content };
    }, NATIVE);
    assert.equal(result.text, INPAGE_TEST_QWEN3_CHAIN_TEXT);
    assert.equal(result.content, INPAGE_TEST_QWEN3_CHAIN_TEXT);
  });
});
