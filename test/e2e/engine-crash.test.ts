import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page, Worker } from 'playwright';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

// The engine worker dying under the endpoint: a wasm trap mid-generation (the test builds'
// trigger, worker/engine/backends/llamacpp/test-trap.ts), the worker closed from outside, a
// model that loads but crashes on its first evaluation. Each time the requests it held end at
// once with 503 `engine_crashed` (an SSE error frame mid-stream), a new worker loads the
// model again, and the next request is answered exactly, with no manual step.
const fixture = usePage();
const ABC = { model: 'inpage-test', prompt: 'abc', max_tokens: 5, temperature: 0 };

/** The page's engine worker (the one that is running now). */
async function engineWorker(page: Page): Promise<Worker> {
  for (let i = 0; i < 200; i++) {
    const found = page.workers().filter((worker) => worker.url().includes('engine-worker'));
    if (found.length === 1 && found[0]) return found[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no single engine worker: ${page.workers().map((worker) => worker.url())}`);
}

/** Starts a long stream in the page; resolves once its first bytes arrived (`window.crashStream` holds the outcome). */
async function startStream(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = window as unknown as { crashStream: Promise<object>; firstBytes: Promise<void> };
    let first!: () => void;
    state.firstBytes = new Promise((resolve) => (first = resolve));
    const body = { model: 'inpage-test', prompt: 'hi ', max_tokens: 4000, temperature: 0, stream: true };
    state.crashStream = fetch('/v1/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (response) => {
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      let lastPieceAt = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return { status: response.status, tail: text.slice(-300), endedAt: performance.now(), lastPieceAt };
        if (!value.includes('"error"')) lastPieceAt = performance.now();
        text += value;
        first();
      }
    });
  });
  await page.evaluate(() => (window as unknown as { firstBytes: Promise<void> }).firstBytes);
}

interface StreamEnd {
  status: number;
  tail: string;
  endedAt: number;
  lastPieceAt: number;
}

const streamEnd = (page: Page) =>
  page.evaluate(() => (window as unknown as { crashStream: Promise<StreamEnd> }).crashStream);

/** Sends ABC until it is answered 200 (a request during the restart waits for it); the answer and how long. */
async function nextAnswer(page: Page) {
  const started = Date.now();
  const response = await postFromPage(page, '/v1/completions', ABC);
  return { ...response, ms: Date.now() - started };
}

function assertCrashFrame(end: StreamEnd): void {
  assert.equal(end.status, 200);
  assert.match(end.tail, /data: \{"error":\{[^\n]*"code":"engine_crashed"/, end.tail);
  assert.doesNotMatch(end.tail, /\[DONE\]/);
}

test('a wasm trap mid-stream ends the stream with an engine_crashed frame at once; the next request is exact', async () => {
  const { page } = fixture;
  const before = await engineWorker(page);
  await startStream(page);
  await before.evaluate(() => Reflect.set(globalThis, '__inpageTestTrap', 20));
  const end = await streamEnd(page);
  assertCrashFrame(end);
  assert.match(end.tail, /memory access out of bounds/, 'the frame says what trapped');
  const frameMs = end.endedAt - end.lastPieceAt;
  assert.ok(frameMs < 1000, `the error frame came ${frameMs} ms after the last piece`);
  const next = await nextAnswer(page);
  assert.equal(next.status, 200, JSON.stringify(next.body));
  assert.equal((next.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  const after = await engineWorker(page);
  assert.notEqual(after, before, 'a new engine worker serves');
  assert.equal(await page.evaluate(() => window.inpage.role), 'leader');
  console.log(JSON.stringify({ trap: { frameMs: Math.round(frameMs), nextMs: next.ms } }));
});

test('the engine worker closed from outside: the stream ends with engine_crashed at once, the next request is exact', async () => {
  const { page } = fixture;
  const before = await engineWorker(page);
  await startStream(page);
  const closedAt = await page.evaluate(() => performance.now());
  await before.evaluate(() => setTimeout(() => self.close(), 0));
  const end = await streamEnd(page);
  assertCrashFrame(end);
  const endMs = end.endedAt - closedAt;
  assert.ok(endMs < 1000, `the stream ended ${endMs} ms after the close (by keepalive silence it took 1.3 s)`);
  const next = await nextAnswer(page);
  assert.equal(next.status, 200, JSON.stringify(next.body));
  assert.equal((next.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  assert.notEqual(await engineWorker(page), before);
  console.log(JSON.stringify({ closed: { endMs: Math.round(endMs), nextMs: next.ms } }));
});

test('a model that loads but crashes on its first evaluation is reported failed by load(); the served model comes back', async () => {
  const { page } = fixture;
  const before = await engineWorker(page);
  await before.evaluate(() => Reflect.set(globalThis, '__inpageTestTrap', 1));
  const outcome = await page.evaluate(async () => {
    try {
      return { card: await window.inpage.load('/models/inpage-test-qwen3.gguf') };
    } catch (error) {
      const { code, message } = error as { code?: string; message: string };
      return { code, message };
    }
  });
  assert.equal('card' in outcome, false, `load() resolved: ${JSON.stringify(outcome)}`);
  assert.equal(outcome.code, 'model_load_failed', JSON.stringify(outcome));
  assert.match(outcome.message ?? '', /first evaluation failed/);
  const next = await nextAnswer(page);
  assert.equal(next.status, 200, JSON.stringify(next.body));
  assert.equal((next.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  const ids = await page.evaluate(async () =>
    ((await (await fetch('/v1/models')).json()).data as Array<{ id: string }>).map((entry) => entry.id),
  );
  assert.deepEqual(ids, ['inpage-test'], 'the failed model is not served');
});
