/**
 * An engine whose heap is past 2 GiB (a model of 2-3.5 GiB: the wasm32 heap reaches 4 GiB)
 * hands back results from addresses whose int32 is negative; a memory64 engine (a model over
 * 3.5 GiB) from addresses past 4 GiB, which no int32 holds. The test builds' hook
 * `__inpageTestHeapReserve` (test-memory.ts) makes an engine take 2.1 GiB (4.25 GiB) of its heap
 * before it loads, so the model and every result buffer lie above it, and `__inpageTestMemory64`
 * gives the small model the memory64 build; their answers must be the ones an engine with a
 * small heap gives: text, token ids, logprobs, tokenization, embeddings, errors.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineFilesFetched, engineWorker } from './engine-worker-helpers';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const fixture = usePage();

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

const CASES = [
  { name: 'a wasm32 engine whose heap is past 2 GiB', id: 'inpage-test-high', reserve: 2.1 * 2 ** 30, memory64: false },
  {
    name: 'a memory64 engine whose heap is past 4 GiB',
    id: 'inpage-test-m64',
    reserve: 4.25 * 2 ** 30,
    memory64: true,
  },
];

for (const { name, id, reserve, memory64 } of CASES) {
  test(`${name} gives the answers of one whose heap is small`, async () => {
    const worker = await engineWorker(fixture.page);
    await worker.evaluate(
      ([bytes, m64]) => {
        Reflect.set(globalThis, '__inpageTestHeapReserve', bytes);
        Reflect.set(globalThis, '__inpageTestMemory64', m64);
      },
      [reserve, memory64] as const,
    );
    try {
      await fixture.page.evaluate(
        (model) => window.inpage.load({ id: model, backend: 'llamacpp', source: { kind: 'builtin' } }),
        id,
      );
    } finally {
      await worker.evaluate(() => {
        Reflect.deleteProperty(globalThis, '__inpageTestHeapReserve');
        Reflect.deleteProperty(globalThis, '__inpageTestMemory64');
      });
    }
    // The engine worker fetched the build asked for (its wasm: the loader fetches it in the worker).
    const wasms = await engineFilesFetched(worker);
    assert.equal(
      wasms.some((url) => /-m64/.test(url)),
      memory64,
      `the engine builds fetched: ${wasms.join(', ')}`,
    );
    const [low, high] = [await answers('inpage-test'), await answers(id)];
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
}
