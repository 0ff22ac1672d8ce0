/**
 * The WebGPU engine build (`llama-engine-webgpu.wasm`: llama.cpp's ggml-webgpu, its exports that
 * may wait for the GPU suspending through JSPI, so each returns a promise) behind the Service
 * Worker. This machine's WebGPU cannot run it (SwiftShader lacks shader-f16; without the flag
 * there is no adapter), so no model is placed on it; the test builds' hook
 * `__inpageTestWebGpuBuild` (test-memory.ts) loads it anyway, with every layer asked for on the
 * GPU. ggml-webgpu then finds no device and llama.cpp keeps the layers on the CPU: its answers
 * must be the CPU build's, bit for bit, through real promises and the engine's lock (two requests
 * at once, a prompt's prefix reused, a slot's state saved and restored, an error), and the card still
 * says where the model runs (`cpu`, with the reason).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { engineFilesFetched, engineWorker } from './engine-worker-helpers';
import { startHarness, WEBGPU_EVERYWHERE, type Harness } from './harness';
import { postFromPage } from './page-helpers';

let plain: Harness;
let swiftShader: Harness;

before(async () => {
  plain = await startHarness();
  swiftShader = await startHarness({ args: ['--enable-unsafe-webgpu'] });
});

after(async () => {
  await plain.close();
  await swiftShader.close();
});

/**
 * Loads the built-in model as `id` with the test builds' `hooks` (test-memory.ts) set in the
 * engine worker's global scope meanwhile.
 */
async function loadWithHooks(page: Page, id: string, hooks: Record<string, unknown>): Promise<void> {
  const worker = await engineWorker(page);
  await worker.evaluate((set) => {
    for (const [name, value] of Object.entries(set)) Reflect.set(globalThis, name, value);
  }, hooks);
  try {
    await page.evaluate(
      (model) => window.inpage.load({ id: model, backend: 'llamacpp', source: { kind: 'builtin' } }),
      id,
    );
  } finally {
    await worker.evaluate((names) => {
      for (const name of names) Reflect.deleteProperty(globalThis, name);
    }, Object.keys(hooks));
  }
}

async function loadOnWebGpuBuild(page: Page, id: string): Promise<string[]> {
  await loadWithHooks(page, id, { __inpageTestWebGpuBuild: true });
  return engineFilesFetched(await engineWorker(page), true);
}

async function answers(page: Page, model: string) {
  const ask = (prompt: string) =>
    postFromPage(page, '/completion', {
      model,
      prompt,
      n_predict: 8,
      temperature: 0,
      n_probs: 3,
      return_tokens: true,
      cache_prompt: true,
    });
  // Two at once (the second waits on the model's queue and the engine's lock), then a prompt
  // that begins as the first did (its cells reused).
  const [first, second] = await Promise.all([ask('abc'), ask('hi there')]);
  const reused = await ask('abcdef');
  const tokenized = await postFromPage(page, '/tokenize', { model, content: 'héllo', with_pieces: true });
  const embedded = await postFromPage(page, '/v1/embeddings', { model, input: 'abc' });
  const bad = await postFromPage(page, '/completion', { model, prompt: 'abc', grammar: 'root ::= (' });
  return { first, second, reused, tokenized, embedded, bad };
}

const strip = (body: unknown) => {
  const { content, tokens, completion_probabilities } = body as Record<string, unknown>;
  return { content, tokens, completion_probabilities };
};

async function assertSameAnswers(page: Page, id: string): Promise<void> {
  const [cpu, webgpu] = [await answers(page, 'inpage-test'), await answers(page, id)];
  for (const key of ['first', 'second', 'reused'] as const) {
    assert.equal(webgpu[key].status, 200, JSON.stringify(webgpu[key].body));
    assert.deepEqual(strip(webgpu[key].body), strip(cpu[key].body), key);
  }
  assert.equal((webgpu.first.body as { content: string }).content, 'defghijk');
  assert.deepEqual(webgpu.tokenized.body, cpu.tokenized.body);
  assert.equal(webgpu.embedded.status, 200);
  const vector = (body: unknown) => (body as { data: Array<{ embedding: number[] }> }).data[0]?.embedding;
  assert.deepEqual(vector(webgpu.embedded.body), vector(cpu.embedded.body));
  assert.equal(webgpu.bad.status, 400);
  assert.deepEqual(webgpu.bad.body, cpu.bad.body);
}

type Json = Record<string, unknown>;

/** `id`'s card says `cpu` for `reason`, and the engine worker's console said so (webgpu-probe.ts). */
async function assertOnCpu(page: Page, messages: string[], id: string, reason: string): Promise<void> {
  const model = await card(page, id);
  assert.deepEqual([model.accelerator, model.accelerator_reason], ['cpu', reason]);
  assert.ok(
    messages.includes(`[inpage-llm] '${id}' runs on the CPU although this browser has WebGPU: ${reason}.`),
    messages.join('\n'),
  );
}

/** The model's slot saved, erased and restored (`ip_state_save` and `_restore`, JSPI exports), then read again. */
async function assertStateRoundTrip(page: Page, model: string): Promise<void> {
  const slots = await page.evaluate(
    async () => (await (await fetch('/slots')).json()) as Array<{ id: number; model: string }>,
  );
  const id = slots.find((slot) => slot.model === model)?.id;
  assert.equal(typeof id, 'number', JSON.stringify(slots));
  const act = (action: string, body: Json = {}) => postFromPage(page, `/slots/${id}?action=${action}`, body);
  const saved = await act('save', { filename: 'webgpu-build.bin' });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const nSaved = (saved.body as Json).n_saved;
  assert.ok(typeof nSaved === 'number' && nSaved > 0, JSON.stringify(saved.body));
  assert.equal((await act('erase')).status, 200);
  const restored = await act('restore', { filename: 'webgpu-build.bin' });
  assert.equal(restored.status, 200, JSON.stringify(restored.body));
  assert.equal((restored.body as Json).n_restored, nSaved);
  const again = await postFromPage(page, '/completion', { model, prompt: 'abcdef', n_predict: 4, temperature: 0 });
  assert.equal((again.body as Json).content, 'ghij');
  assert.ok(Number(((again.body as Json).timings as Json).cache_n) > 0, JSON.stringify(again.body));
}

async function card(page: Page, id: string): Promise<Record<string, unknown>> {
  return page.evaluate(
    async (model) => (await (await fetch(`/v1/models/${model}`)).json()) as Record<string, unknown>,
    id,
  );
}

test(
  'without a WebGPU adapter, the WebGPU build answers as the CPU build does',
  { skip: WEBGPU_EVERYWHERE },
  async () => {
    const { page, context } = await plain.openPage('/?model=inpage-test');
    const fetched = await loadOnWebGpuBuild(page, 'inpage-test-webgpu');
    assert.ok(
      fetched.some((url) => /llama-engine-webgpu[^/]*\.wasm/.test(url)) &&
        fetched.some((url) => /llama-engine-webgpu[^/]*\.mjs/.test(url)),
      `the engine files fetched: ${fetched.join(', ')}`,
    );
    await assertSameAnswers(page, 'inpage-test-webgpu');
    await assertStateRoundTrip(page, 'inpage-test-webgpu');
    const model = await card(page, 'inpage-test-webgpu');
    assert.equal(model.accelerator, 'cpu');
    await context.close();
  },
);

test("on SwiftShader's WebGPU (no shader-f16: ggml-webgpu finds no device), the same answers, and the card says why", async () => {
  const { page, context } = await swiftShader.openPage('/?model=inpage-test');
  const fetched = await loadOnWebGpuBuild(page, 'inpage-test-webgpu');
  assert.ok(
    fetched.some((url) => /llama-engine-webgpu[^/]*\.wasm/.test(url)),
    `the engine files fetched: ${fetched.join(', ')}`,
  );
  await assertSameAnswers(page, 'inpage-test-webgpu');
  const model = await card(page, 'inpage-test-webgpu');
  assert.deepEqual([model.accelerator, model.accelerator_reason], ['cpu', 'no shader-f16']);
  await context.close();
});

test('placed on the GPU where the WebGPU build then gets no device, the model loads again on the CPU, and says why', async () => {
  const { page, context, messages } = await swiftShader.openPage('/?model=inpage-test');
  const worker = await engineWorker(page);
  const before = await engineFilesFetched(worker);
  await loadWithHooks(page, 'inpage-test-placed', { __inpageTestPlaceOnGpu: true });
  // The WebGPU build first, then a CPU build again (the page's first model had fetched one).
  const added = (await engineFilesFetched(worker)).slice(before.length);
  assert.equal(added.length, 2, added.join(', '));
  assert.match(added[0] ?? '', /llama-engine-webgpu[^/]*\.wasm/);
  assert.doesNotMatch(added[1] ?? '', /webgpu/);
  await assertOnCpu(page, messages, 'inpage-test-placed', 'no WebGPU device');
  await assertSameAnswers(page, 'inpage-test-placed');
  await context.close();
});

test('placed on the GPU where the WebGPU build then fails to load (a trap in its wasm), the model loads on the CPU, and says why', async () => {
  const { page, context, messages } = await swiftShader.openPage('/?model=inpage-test');
  const worker = await engineWorker(page);
  const before = await engineFilesFetched(worker);
  // The next load traps at its end: the WebGPU build's (the CPU build's after it loads as usual).
  await worker.evaluate(() => Reflect.set(globalThis, '__inpageTestTrapLoad', 1));
  await loadWithHooks(page, 'inpage-test-failed', { __inpageTestPlaceOnGpu: true });
  assert.equal(await worker.evaluate(() => Reflect.has(globalThis, '__inpageTestTrapLoad')), false);
  const added = (await engineFilesFetched(worker)).slice(before.length);
  assert.equal(added.length, 2, added.join(', '));
  assert.match(added[0] ?? '', /llama-engine-webgpu[^/]*\.wasm/);
  assert.doesNotMatch(added[1] ?? '', /webgpu/);
  await assertOnCpu(page, messages, 'inpage-test-failed', 'the WebGPU engine failed to load');
  assert.ok(
    messages.some((text) =>
      text.startsWith(
        "[inpage-llm] The WebGPU engine failed to load 'inpage-test-failed' (RuntimeError: memory access out of bounds",
      ),
    ),
    messages.join('\n'),
  );
  // The worker lives on (the trapped instance was dropped with its heap): the model and the page's first answer alike.
  await assertSameAnswers(page, 'inpage-test-failed');
  const first = await card(page, 'inpage-test');
  assert.equal(first.id, 'inpage-test');
  await context.close();
});

test("a crash of an engine that runs a model on the GPU (a lost device, say) ends the request with a 503 error; the tab's next engine keeps the models on the CPU", async () => {
  const { page, context, messages } = await swiftShader.openPage('/?model=inpage-test');
  const before = await engineWorker(page);
  // Placed on the GPU, and kept there though ggml-webgpu finds no device on SwiftShader (the
  // layers run on the CPU inside the WebGPU build): what a model on a real GPU looks like here.
  await loadWithHooks(page, 'inpage-test-gpu', { __inpageTestPlaceOnGpu: true, __inpageTestKeepGpuPlacement: true });
  assert.equal((await card(page, 'inpage-test-gpu')).accelerator, 'webgpu');
  // Its wasm traps two tokens into the answer, as ggml-webgpu aborts when its device is lost.
  await before.evaluate(() => Reflect.set(globalThis, '__inpageTestTrap', 2));
  const crashed = await postFromPage(page, '/completion', {
    model: 'inpage-test-gpu',
    prompt: 'abc',
    n_predict: 8,
    temperature: 0,
  });
  // Mid-generation: the answer's headers went out with its first token, so the error comes
  // under status 200 (docs/reliability.md), with llama-server's error JSON and its 503.
  assert.equal(crashed.status, 200, JSON.stringify(crashed.body));
  const { error } = crashed.body as { error: { code: number; message: string } };
  assert.equal(error.code, 503, JSON.stringify(crashed.body));
  assert.match(error.message, /'inpage-test-gpu' crashed \(memory access out of bounds\)/);
  // The page's next engine loads both models again, on the CPU.
  let reloaded: Record<string, unknown> = {};
  for (let i = 0; i < 200 && reloaded.accelerator_reason !== 'the WebGPU engine crashed'; i++) {
    reloaded = await card(page, 'inpage-test-gpu').catch(() => ({}));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await assertOnCpu(page, messages, 'inpage-test-gpu', 'the WebGPU engine crashed');
  const first = await card(page, 'inpage-test');
  assert.deepEqual([first.accelerator, first.accelerator_reason], ['cpu', 'the WebGPU engine crashed']);
  const after = await engineWorker(page);
  assert.notEqual(after, before, 'a new engine worker serves');
  const fetched = await engineFilesFetched(after, true);
  assert.ok(
    fetched.length > 0 && fetched.every((url) => !url.includes('webgpu')),
    `the new engine fetched no WebGPU build: ${fetched.join(', ')}`,
  );
  await assertSameAnswers(page, 'inpage-test-gpu');
  await context.close();
});

test('placed on the GPU, a model that needs memory64 only on the CPU (its layers all fit on the GPU) takes the WebGPU build, and the memory64 build where it falls back', async () => {
  const { page, context, messages } = await swiftShader.openPage('/?model=inpage-test');
  const worker = await engineWorker(page);
  const before = await engineFilesFetched(worker);
  // As a model past wasm32's heap with every layer offloaded (heap-choice.ts's hostShare): the
  // WebGPU build first; here it gets no device, and the model loads in the memory64 CPU build.
  await loadWithHooks(page, 'inpage-test-big', { __inpageTestPlaceOnGpu: true, __inpageTestMemory64: 'cpu' });
  const added = (await engineFilesFetched(worker)).slice(before.length);
  assert.equal(added.length, 2, added.join(', '));
  assert.match(added[0] ?? '', /llama-engine-webgpu[^/]*\.wasm/);
  assert.match(added[1] ?? '', /llama-engine-[a-z]+-m64[^/]*\.wasm/);
  await assertOnCpu(page, messages, 'inpage-test-big', 'no WebGPU device');
  await assertSameAnswers(page, 'inpage-test-big');
  await context.close();
});

test('placed on the GPU, a model whose share on the CPU needs the memory64 build runs on the CPU in it (the WebGPU build is wasm32), and says why', async () => {
  const { page, context, messages } = await swiftShader.openPage('/?model=inpage-test');
  const worker = await engineWorker(page);
  const before = await engineFilesFetched(worker);
  await loadWithHooks(page, 'inpage-test-m64', { __inpageTestPlaceOnGpu: true, __inpageTestMemory64: true });
  const added = (await engineFilesFetched(worker)).slice(before.length);
  assert.equal(added.length, 1, added.join(', '));
  assert.match(added[0] ?? '', /llama-engine-[a-z]+-m64[^/]*\.wasm/);
  await assertOnCpu(page, messages, 'inpage-test-m64', 'a heap past 4 GiB');
  await assertSameAnswers(page, 'inpage-test-m64');
  await context.close();
});
