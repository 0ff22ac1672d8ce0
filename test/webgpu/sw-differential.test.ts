/**
 * `npm run test:webgpu-sw` (opt-in; not part of `npm test`): GGUF models placed on a GPU, end to
 * end: the page, the Service Worker, the engine worker's placement and its WebGPU build, with
 * every layer on SwiftShader's GPU (`--enable-unsafe-webgpu`), against the CPU build on the same
 * models in the same page. SwiftShader has no `shader-f16`, so the WebGPU build served is the
 * test-only probe (scripts/engine/webgpu/build-engine-probe.sh: the committed variant's link with
 * ggml-webgpu's f16 shaders rewritten to f32), put in place of the committed one in a copy of
 * `dist/`; the test builds' hook `__inpageTestPlaceOnGpu` places the models on the GPU as a
 * browser with all a WebGPU engine needs would. Checked: the WebGPU build is what loads them, llama.cpp
 * has a GPU device there (the card says `webgpu`: with none it would say `no WebGPU device`),
 * and each answer's tokens equal the CPU build's, its logprobs within a tolerance, on the F32
 * built-in model and on Q4_0 and Q8_0 models of a realistic shape. It proves the whole path with
 * the shaders' logic in f32, not f16 numerics (docs/webgpu.md).
 *   usage: npm run build && npm run test:webgpu-sw   (WEBGPU_PROBE_DIST: the probe's folder)
 */
import assert from 'node:assert/strict';
import { copyFile, cp, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { ggufParts } from '../../src/builtin-model/gguf-writer';
import type { GgmlType } from '../../src/builtin-model/quantize';
import { engineFilesFetched, engineWorker } from '../e2e/engine-worker-helpers';
import { startHarness, type Harness } from '../e2e/harness';
import { postFromPage } from '../e2e/page-helpers';
import { benchModelSpec } from '../fixtures/bench-model';
import { gradientPng } from '../fixtures/test-media';

const PROBE = resolve(process.env.WEBGPU_PROBE_DIST ?? 'test-results/webgpu-engine/dist');
const SITE = resolve('test-results/webgpu-sw/dist');
/** How far the GPU's logprobs may be from the CPU's on an F32 model (f32 sums in another order). */
const F32_TOLERANCE = 1e-3;
/**
 * On a quantized model: the CPU build quantizes the activations of each Q4_0 or Q8_0 product to
 * Q8_0 (ggml-cpu's dot products), ggml-webgpu multiplies them in f32 (measured: 0.018 on Q4_0, 0.023 on Q8_0).
 */
const QUANTIZED_TOLERANCE = 0.05;
const TOKENS = 8;
/** Bench-shaped models (test/fixtures/bench-model.ts: `small`, 8 layers of 512), quantized. */
const QUANTIZED: ReadonlyArray<[string, GgmlType]> = [
  ['small-q4_0', 'q4_0'],
  ['small-q8_0', 'q8_0'],
];
const CONTEXT = 512;

let harness: Harness;

before(async () => {
  await stat('dist/sw.js').catch(() => assert.fail('no dist/: run npm run build first'));
  await rm(SITE, { recursive: true, force: true });
  await cp('dist', SITE, { recursive: true });
  const assets = await readdir(join(SITE, 'assets'));
  for (const ext of ['wasm', 'mjs']) {
    const name = assets.find((file) => new RegExp(`^llama-engine-webgpu-[\\w-]+\\.${ext}$`).test(file));
    assert.ok(name, `dist/assets has no llama-engine-webgpu-*.${ext}`);
    await copyFile(join(PROBE, `llama-engine-jspi-gpu.${ext}`), join(SITE, 'assets', name));
  }
  await mkdir(join(SITE, 'models'), { recursive: true });
  for (const [name, type] of QUANTIZED)
    await writeFile(join(SITE, 'models', `${name}.gguf`), Buffer.concat([...ggufParts(benchModelSpec('small', type))]));
  harness = await startHarness({ args: ['--enable-unsafe-webgpu'], outDir: SITE });
});

after(async () => {
  await harness?.close();
});

function load(page: Page, id: string, url: string | null): Promise<unknown> {
  return page.evaluate(
    ({ id, url, contextLength }) =>
      window.inpage.load({
        id,
        backend: 'llamacpp',
        contextLength,
        source: url === null ? { kind: 'builtin' } : { kind: 'url', url: new URL(url, location.href).href },
      }),
    { id, url, contextLength: CONTEXT },
  );
}

function card(page: Page, id: string): Promise<Record<string, unknown>> {
  return page.evaluate(
    async (model) => (await (await fetch(`/v1/models/${model}`)).json()) as Record<string, unknown>,
    id,
  );
}

interface Completion {
  content: string;
  tokens: number[];
  completion_probabilities: Array<{ id: number; logprob: number }>;
  timings: { predicted_per_second: number; prompt_per_second: number };
}

/** The largest difference between two answers' logprobs, token by token (NaN where one has fewer). */
function logprobGap(answer: Completion, reference: Completion): number {
  const gaps = answer.completion_probabilities.map((entry, i) =>
    Math.abs(entry.logprob - (reference.completion_probabilities[i]?.logprob ?? NaN)),
  );
  return Math.max(...gaps);
}

async function complete(page: Page, model: string, prompt: string): Promise<Completion> {
  const body = { model, prompt, n_predict: TOKENS, temperature: 0, n_probs: 1, return_tokens: true };
  const response = await postFromPage(page, '/completion', body);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body as Completion;
}

test("models placed on SwiftShader's GPU answer through the Service Worker as the CPU build does", async () => {
  const { page, context, messages } = await harness.openPage('/?model=inpage-test');
  const worker = await engineWorker(page);
  // The CPU references: here every GGUF model runs on the CPU (no shader-f16).
  for (const [name] of QUANTIZED) await load(page, name, `/models/${name}.gguf`);
  const cpuFiles = (await engineFilesFetched(worker)).length;
  await worker.evaluate(() => Reflect.set(globalThis, '__inpageTestPlaceOnGpu', true));
  const pairs: Array<[string, string, string, number]> = [['inpage-test', 'inpage-test-gpu', 'abc', F32_TOLERANCE]];
  try {
    await load(page, 'inpage-test-gpu', null);
    for (const [name] of QUANTIZED) {
      await load(page, `${name}-gpu`, `/models/${name}.gguf`);
      pairs.push([name, `${name}-gpu`, 'The quick brown fox', QUANTIZED_TOLERANCE]);
    }
  } finally {
    await worker.evaluate(() => Reflect.deleteProperty(globalThis, '__inpageTestPlaceOnGpu'));
  }
  const gpuFiles = (await engineFilesFetched(worker)).slice(cpuFiles);
  assert.equal(gpuFiles.length, pairs.length, gpuFiles.join(', '));
  assert.ok(
    gpuFiles.every((url) => /llama-engine-webgpu[^/]*\.wasm/.test(url)),
    gpuFiles.join(', '),
  );
  const report: Record<string, unknown> = {};
  for (const [cpuModel, gpuModel, prompt, tolerance] of pairs) {
    const placed = await card(page, gpuModel);
    assert.deepEqual([placed.accelerator, placed.accelerator_reason], ['webgpu', undefined], JSON.stringify(placed));
    const cpu = await complete(page, cpuModel, prompt);
    const gpu = await complete(page, gpuModel, prompt);
    assert.deepEqual(gpu.tokens, cpu.tokens, `${gpuModel}: the tokens`);
    assert.equal(gpu.content, cpu.content);
    const gap = logprobGap(gpu, cpu);
    assert.ok(gap <= tolerance, `${gpuModel}: logprobs ${gap} from the CPU's`);
    report[gpuModel] = {
      tokens: gpu.tokens.length,
      logprobGap: gap,
      gpuDecodeTokS: Math.round(gpu.timings.predicted_per_second * 10) / 10,
      cpuDecodeTokS: Math.round(cpu.timings.predicted_per_second * 10) / 10,
    };
  }
  assert.equal((await complete(page, 'inpage-test-gpu', 'abc')).content.slice(0, 8), 'defghijk');
  assert.ok(!messages.some((text) => /-gpu' runs on the CPU/.test(text)), messages.join('\n'));
  console.log(JSON.stringify({ swDifferential: report }));
  await context.close();
});

test('with half the layers on the GPU (&gpu_layers=4 of 8), the same tokens as the CPU build', async () => {
  const { page, context } = await harness.openPage('/?model=inpage-test&gpu_layers=4');
  const worker = await engineWorker(page);
  const [name] = QUANTIZED[0] ?? ['small-q4_0'];
  await load(page, name, `/models/${name}.gguf`);
  await worker.evaluate(() => Reflect.set(globalThis, '__inpageTestPlaceOnGpu', true));
  try {
    await load(page, `${name}-half`, `/models/${name}.gguf`);
  } finally {
    await worker.evaluate(() => Reflect.deleteProperty(globalThis, '__inpageTestPlaceOnGpu'));
  }
  const fetched = await engineFilesFetched(worker);
  assert.match(fetched[fetched.length - 1] ?? '', /llama-engine-webgpu[^/]*\.wasm/);
  const placed = await card(page, `${name}-half`);
  assert.equal(placed.accelerator, 'webgpu', JSON.stringify(placed));
  const cpu = await complete(page, name, 'The quick brown fox');
  const half = await complete(page, `${name}-half`, 'The quick brown fox');
  assert.deepEqual(half.tokens, cpu.tokens);
  const gap = logprobGap(half, cpu);
  assert.ok(gap <= QUANTIZED_TOLERANCE, `logprobs ${gap} from the CPU's`);
  console.log(JSON.stringify({ halfOffload: { logprobGap: gap, decodeTokS: half.timings.predicted_per_second } }));
  await context.close();
});

// The projector itself runs on the CPU in every build (backend.ts's PROJECTOR_ON_GPU: its graph's
// F16 tensors are beyond this probe, docs/webgpu.md), and the card says so; the image's embeddings
// then go through the model's layers on the GPU.
test("an image to the vision test pair, the model on the GPU: the CPU build's answer", async () => {
  const { page, context } = await harness.openPage('/?model=inpage-test-vision');
  const worker = await engineWorker(page);
  await worker.evaluate(() => Reflect.set(globalThis, '__inpageTestPlaceOnGpu', true));
  try {
    await page.evaluate(async () => {
      const url = (name: string) => new URL(`/models/${name}.gguf`, location.href).href;
      await window.inpage.load({
        id: 'vision-gpu',
        backend: 'llamacpp',
        source: { kind: 'url', url: url('inpage-test-vision') },
        mmproj: { id: 'vision-gpu.mmproj', source: { kind: 'url', url: url('inpage-test-vision.mmproj') } },
      });
    });
  } finally {
    await worker.evaluate(() => Reflect.deleteProperty(globalThis, '__inpageTestPlaceOnGpu'));
  }
  const placed = await card(page, 'vision-gpu');
  assert.equal(placed.accelerator, 'webgpu');
  assert.equal(placed.mmproj_accelerator, 'cpu');
  const image = gradientPng().toString('base64');
  const chat = (model: string) =>
    postFromPage(page, '/v1/chat/completions', {
      model,
      temperature: 0,
      max_tokens: 8,
      logprobs: true,
      top_logprobs: 1,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is in it?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${image}` } },
          ],
        },
      ],
    });
  type Chat = {
    choices: Array<{ message: { content: string }; logprobs: { content: Array<{ logprob: number }> } }>;
    usage: { prompt_tokens: number };
  };
  const [cpu, gpu] = [await chat('inpage-test-vision'), await chat('vision-gpu')];
  assert.equal(cpu.status, 200, JSON.stringify(cpu.body));
  assert.equal(gpu.status, 200, JSON.stringify(gpu.body));
  const [a, b] = [cpu.body as Chat, gpu.body as Chat];
  assert.equal(b.choices[0]?.message.content, a.choices[0]?.message.content);
  assert.equal(b.usage.prompt_tokens, a.usage.prompt_tokens);
  const gaps = (b.choices[0]?.logprobs.content ?? []).map((entry, i) =>
    Math.abs(entry.logprob - (a.choices[0]?.logprobs.content[i]?.logprob ?? NaN)),
  );
  const gap = Math.max(...gaps);
  assert.ok(gap <= F32_TOLERANCE, `logprobs ${gap} from the CPU's`);
  console.log(JSON.stringify({ visionOnGpu: { content: b.choices[0]?.message.content, logprobGap: gap } }));
  await context.close();
});
