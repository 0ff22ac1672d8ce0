/**
 * Where a GGUF model runs (issue 36): its card says `accelerator` and, on the CPU, why. Headless
 * Chromium here has no GPU: without `--enable-unsafe-webgpu` it gives no WebGPU adapter; with it,
 * SwiftShader's adapter, which lacks `shader-f16`. Either way the model answers on the CPU, the
 * same text; `&gpu_layers=0` asks for the CPU and probes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { startHarness, WEBGPU_EVERYWHERE, type Harness } from './harness';
import { assertAnswersDefgh } from './page-helpers';

let plain: Harness;
let webgpu: Harness;

before(async () => {
  plain = await startHarness();
  webgpu = await startHarness({ args: ['--enable-unsafe-webgpu'] });
});

after(async () => {
  await plain.close();
  await webgpu.close();
});

async function card(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(async () => (await (await fetch('/v1/models/inpage-test')).json()) as Record<string, unknown>);
}

/** What the engine's worker sees of WebGPU, asked in a worker as the engine asks. */
async function workerWebGpu(page: Page): Promise<{ gpu: boolean; adapter: boolean; f16: boolean }> {
  return page.evaluate(async () => {
    const source = `(async () => {
      const gpu = 'gpu' in navigator ? navigator.gpu : undefined;
      const adapter = gpu ? await gpu.requestAdapter() : null;
      postMessage({ gpu: !!gpu, adapter: !!adapter, f16: !!adapter && adapter.features.has('shader-f16') });
    })();`;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    const facts = await new Promise<{ gpu: boolean; adapter: boolean; f16: boolean }>((resolve) => {
      worker.onmessage = (event: MessageEvent<{ gpu: boolean; adapter: boolean; f16: boolean }>) => resolve(event.data);
    });
    worker.terminate();
    return facts;
  });
}

test('without WebGPU enabled: the card says cpu, for want of an adapter', { skip: WEBGPU_EVERYWHERE }, async () => {
  const { page, context } = await plain.openPage('/?model=inpage-test');
  const seen = await workerWebGpu(page);
  assert.equal(seen.adapter, false, 'this Chromium gives no adapter without the flag');
  const expected = seen.gpu ? 'no WebGPU adapter' : 'no WebGPU';
  const model = await card(page);
  assert.equal(model.accelerator, 'cpu');
  assert.equal(model.accelerator_reason, expected);
  await assertAnswersDefgh(page);
  await context.close();
});

test('with SwiftShader WebGPU: the card says cpu, no shader-f16, and so does the console', async () => {
  const { page, context, messages } = await webgpu.openPage('/?model=inpage-test');
  assert.ok(
    messages.includes("[inpage-llm] 'inpage-test' runs on the CPU although this browser has WebGPU: no shader-f16."),
    messages.join('\n'),
  );
  assert.deepEqual(
    await workerWebGpu(page),
    { gpu: true, adapter: true, f16: false },
    'SwiftShader, without shader-f16',
  );
  const model = await card(page);
  assert.equal(model.accelerator, 'cpu');
  assert.equal(model.accelerator_reason, 'no shader-f16');
  await assertAnswersDefgh(page);
  await context.close();
});

test('&gpu_layers=0 keeps the model on the CPU, and says that is why', async () => {
  const { page, context } = await webgpu.openPage('/?model=inpage-test&gpu_layers=0');
  const model = await card(page);
  assert.equal(model.accelerator, 'cpu');
  assert.equal(model.accelerator_reason, 'gpu_layers is 0');
  await assertAnswersDefgh(page);
  await context.close();
});
