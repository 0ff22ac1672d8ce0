import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineWorker, nextAnswer, startStream, streamEnd, type StreamEnd } from './engine-worker-helpers';
import { usePage } from './page-fixture';

// The engine worker dying under the endpoint: a wasm trap mid-generation (the test builds'
// trigger, worker/engine/backends/llamacpp/test-trap.ts), the worker closed from outside, a
// model that loads but crashes on its first evaluation. Each time the requests it held end at
// once with 503 `engine_crashed` (an SSE error frame mid-stream), a new worker loads the
// model again, and the next request is answered exactly, with no manual step.
const fixture = usePage();

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
