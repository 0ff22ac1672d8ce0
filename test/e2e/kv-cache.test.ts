/**
 * The llamacpp engine's KV cache (native/attention.cpp): F32 with flash attention off where the
 * cache in F32 fits the budget (512 MiB: every test model does), else llama.cpp's defaults (F16,
 * flash attention). `/props` says which (`kv_cache_type`). The F16 path is taken on the test
 * builds' `__inpageTestF32CacheMib = 0` (a budget no cache fits, as a large model's), set in the
 * engine worker before a load.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INPAGE_TEST_QWEN3_CHAIN_TEXT } from '../fixtures/inpage-test-qwen3-spec';
import { engineWorker } from './engine-worker-helpers';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const fixture = usePage();

const cacheType = (model: string) =>
  fixture.page.evaluate(async (model) => {
    const response = await fetch(`/props?model=${model}`);
    return ((await response.json()) as { kv_cache_type?: unknown }).kv_cache_type;
  }, model);

test('a model whose cache fits the budget runs on an F32 cache', async () => {
  assert.equal(await cacheType('inpage-test'), 'f32');
});

test('with no budget a model keeps the F16 cache with flash attention, and greedy output is the same', async () => {
  const worker = await engineWorker(fixture.page);
  await worker.evaluate(() => Reflect.set(globalThis, '__inpageTestF32CacheMib', 0));
  try {
    await fixture.page.evaluate(() => window.inpage.load('/models/inpage-test-qwen3.gguf'));
  } finally {
    await worker.evaluate(() => Reflect.deleteProperty(globalThis, '__inpageTestF32CacheMib'));
  }
  assert.equal(await cacheType('inpage-test-qwen3'), 'f16');
  assert.equal(await cacheType('inpage-test'), 'f32', 'the model loaded before keeps its cache');
  const answer = await postFromPage(fixture.page, '/v1/completions', {
    model: 'inpage-test-qwen3',
    prompt: 'x',
    max_tokens: 40,
    temperature: 0,
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const body = answer.body as {
    choices: Array<{ text: string; finish_reason: string }>;
    usage: { completion_tokens: number };
  };
  assert.equal(body.choices[0]?.text, INPAGE_TEST_QWEN3_CHAIN_TEXT);
  assert.equal(body.choices[0]?.finish_reason, 'stop');
  assert.equal(body.usage.completion_tokens, 13);
  const plain = await postFromPage(fixture.page, '/v1/completions', {
    model: 'inpage-test',
    prompt: 'abc',
    max_tokens: 5,
    temperature: 0,
  });
  assert.equal((plain.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
});
