import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import type { Page } from 'playwright';
import { startHarness, type Harness } from './harness';
import { startRangeServer, type RangeServer } from './range-server';

// A model's aliases name it from the start of its load, as its id does: while the model still
// downloads, `GET /v1/models/{alias}` gives its loading card, and a request naming an alias waits
// for the load and is answered under the id (it was a 404 while the card had no aliases yet).
// llama-server has neither case: its one model loads before it serves, and it has no retrieve route.
// The page's route table sends every name no engine serves (`*`) to a server that cannot be
// reached: an alias is served, so the request stays on the device.
const MODEL = buildInpageTestModel();
const ROUTES = {
  upstreams: { gone: { baseURL: 'http://127.0.0.1:9/v1', model: 'x' } },
  routes: { '*': { targets: ['gone'] } },
};
let harness: Harness;
let files: RangeServer;
let page: Page;

before(async () => {
  // ~4 KB/s: the download takes minutes until the test lifts the limit.
  const table = new TextEncoder().encode(JSON.stringify(ROUTES));
  files = await startRangeServer({ files: { '/held.gguf': MODEL, '/routes.json': table }, rateLimit: 4096 });
  harness = await startHarness();
  ({ page } = await harness.openPage(`/?model=inpage-test&routes=${encodeURIComponent(`${files.url}/routes.json`)}`));
});

after(async () => {
  await harness.close();
  await files.close();
});

interface Answer {
  status: number;
  provider: string | null;
  body: Record<string, unknown>;
}

test('a request naming an alias of a model that is still loading waits for it, answered under the id', async () => {
  await page.evaluate(
    (url) =>
      void window.inpage
        .load({ id: 'held', backend: 'llamacpp', source: { kind: 'url', url }, aliases: ['held-alias'] })
        .catch(() => undefined),
    `${files.url}/held.gguf`,
  );
  const retrieve = (name: string) =>
    page.evaluate(async (model): Promise<Answer> => {
      const response = await fetch(`/v1/models/${model}`);
      const provider = response.headers.get('x-inpage-provider');
      return { status: response.status, provider, body: (await response.json()) as Record<string, unknown> };
    }, name);
  let loading = await retrieve('held-alias');
  for (let i = 0; i < 50 && loading.status !== 200; i += 1) loading = await retrieve('held-alias');
  assert.equal(loading.status, 200, JSON.stringify(loading.body));
  assert.deepEqual(
    [loading.body.id, loading.body.status, loading.body.aliases],
    ['held', 'loading', ['held', 'held-alias']],
  );
  const asked = page.evaluate(async (): Promise<Answer> => {
    const response = await fetch('/v1/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'held-alias', prompt: 'abc', max_tokens: 3, temperature: 0 }),
    });
    const provider = response.headers.get('x-inpage-provider');
    return { status: response.status, provider, body: (await response.json()) as Record<string, unknown> };
  });
  // The request is in the SW's hands (the page's fetch is sent) while the download is held.
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.ok(files.bytesSent('/held.gguf') < MODEL.length, 'the download is still held');
  files.rateLimit = undefined;
  const answer = await asked;
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const choices = answer.body.choices as Array<{ text: string }>;
  assert.deepEqual([answer.provider, answer.body.model, choices[0]?.text], ['device', 'held', 'def']);
  const ready = await retrieve('held-alias');
  assert.deepEqual([ready.body.id, ready.body.status], ['held', 'ready']);
});
