import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineWorker, nextAnswer, startStream, streamEnd } from './engine-worker-helpers';
import { usePage } from './page-fixture';

// The engine running out of memory, on the test builds' triggers (worker/engine/backends/
// llamacpp/test-memory.ts): the wasm heap's growth is refused as a browser refuses it when it
// has no more to give, and llama.cpp meets real failed allocations. During a generation the
// heap is filled first, so its next allocation fails. Either way the answer is a 503
// `engine_out_of_memory` with the heap's size, and the endpoint recovers with no manual step.
const fixture = usePage();
const MIB = 1024 * 1024;

test('a generation that runs out of memory ends with an engine_out_of_memory frame; a new worker serves the next request exactly', async () => {
  const { page } = fixture;
  const before = await engineWorker(page);
  await startStream(page);
  await before.evaluate(() => Reflect.set(globalThis, '__inpageTestExhaustHeap', 3));
  const end = await streamEnd(page);
  assert.equal(end.status, 200);
  assert.match(end.tail, /data: \{"error":\{[^\n]*"code":"engine_out_of_memory"/, end.tail);
  assert.match(end.tail, /ran out of memory: its heap could not grow past \d+ MiB/);
  assert.doesNotMatch(end.tail, /\[DONE\]/);
  const frameMs = end.endedAt - end.lastPieceAt;
  assert.ok(frameMs < 1000, `the error frame came ${frameMs} ms after the last piece`);
  const next = await nextAnswer(page);
  assert.equal(next.status, 200, JSON.stringify(next.body));
  assert.equal((next.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  assert.notEqual(await engineWorker(page), before, 'a new engine worker (with a new heap) serves');
  console.log(JSON.stringify({ generation: { frameMs: Math.round(frameMs), nextMs: next.ms } }));
});

test('a model load that runs out of memory is a 503 engine_out_of_memory; the worker keeps its model and loads it once memory is there', async () => {
  const { page } = fixture;
  const before = await engineWorker(page);
  // The built-in model's heap is already grown; the qwen3 test model needs ~40 MiB more than 64.
  await before.evaluate((ceiling) => Reflect.set(globalThis, '__inpageTestHeapCeiling', ceiling), 72 * MIB);
  const load = () =>
    page.evaluate(async () => {
      try {
        return { status: (await window.inpage.load('/models/inpage-test-qwen3.gguf')).status };
      } catch (error) {
        const { code, message, status } = error as { code?: string; message: string; status?: number };
        return { code, message, status };
      }
    });
  const refused = await load();
  assert.equal(refused.code, 'engine_out_of_memory', JSON.stringify(refused));
  assert.equal(refused.status, 503);
  assert.match(
    refused.message ?? '',
    /Loading 'inpage-test-qwen3' ran out of memory: the engine's heap could not grow past \d+ MiB/,
  );
  const next = await nextAnswer(page);
  assert.equal(next.status, 200, JSON.stringify(next.body));
  assert.equal((next.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  assert.equal(await engineWorker(page), before, 'the same worker serves: only the failed instance was dropped');
  await before.evaluate(() => Reflect.deleteProperty(globalThis, '__inpageTestHeapCeiling'));
  assert.deepEqual(await load(), { status: 'ready' });
});
