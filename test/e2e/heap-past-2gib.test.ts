/**
 * An engine whose heap is past 2 GiB (a model of 2-3.5 GiB: the wasm32 heap reaches 4 GiB)
 * hands back results from addresses whose int32 is negative. The test builds' hook
 * `__inpageTestHeapReserve` (test-memory.ts) makes an engine take 2.1 GiB of its heap before
 * it loads, so the model and every result buffer lie above it; its answers must be the ones an
 * engine with a small heap gives: text, token ids, logprobs, tokenization, embeddings, errors.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineWorker } from './engine-worker-helpers';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const fixture = usePage();
const HIGH = 'inpage-test-high';

async function answers(model: string) {
  const completion = await postFromPage(fixture.page, '/completion', {
    model,
    prompt: 'abc',
    n_predict: 8,
    temperature: 0,
    n_probs: 3,
    return_tokens: true,
  });
  const tokenized = await postFromPage(fixture.page, '/tokenize', { model, content: 'héllo', with_pieces: true });
  const embedded = await postFromPage(fixture.page, '/v1/embeddings', { model, input: 'abc' });
  const bad = await postFromPage(fixture.page, '/completion', { model, prompt: 'abc', grammar: 'root ::= (' });
  return { completion, tokenized, embedded, bad };
}

test('an engine whose heap is past 2 GiB gives the answers of one whose heap is small', async () => {
  const worker = await engineWorker(fixture.page);
  await worker.evaluate(() => Reflect.set(globalThis, '__inpageTestHeapReserve', 2.1 * 2 ** 30));
  try {
    await fixture.page.evaluate(
      (id) => window.inpage.load({ id, backend: 'llamacpp', source: { kind: 'builtin' } }),
      HIGH,
    );
  } finally {
    await worker.evaluate(() => Reflect.deleteProperty(globalThis, '__inpageTestHeapReserve'));
  }
  const [low, high] = [await answers('inpage-test'), await answers(HIGH)];
  assert.equal(high.completion.status, 200, JSON.stringify(high.completion.body));
  const text = (body: unknown) => (body as { content: string }).content;
  assert.equal(text(high.completion.body), 'defghijk');
  const strip = (body: unknown) => {
    const { content, tokens, completion_probabilities } = body as Record<string, unknown>;
    return { content, tokens, completion_probabilities };
  };
  assert.deepEqual(strip(high.completion.body), strip(low.completion.body));
  assert.deepEqual(high.tokenized.body, low.tokenized.body);
  assert.equal(high.embedded.status, 200);
  const vector = (body: unknown) => (body as { data: Array<{ embedding: number[] }> }).data[0]?.embedding;
  assert.deepEqual(vector(high.embedded.body), vector(low.embedded.body));
  assert.equal(high.bad.status, 400);
  assert.deepEqual(high.bad.body, low.bad.body);
});
