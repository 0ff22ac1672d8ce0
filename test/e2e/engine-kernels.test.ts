/**
 * The engine's dot-product kernels in Chromium (whose V8 lowers relaxed SIMD for this machine's
 * CPU): each variant's kernel-check wasm against ggml's scalar reference on random blocks, as
 * test/unit/worker/engine/backends/llamacpp/engine-kernels.test.ts does in Node (the relaxed variant's 2x2 prefill tiles,
 * the F16 conversions of flash attention's KV cache, ggml_vec_dot_f16, ggml_vec_dot_f32, the
 * relaxed variant's F32 tile, tinyBLAS and softmax's and SwiGLU's exponentials included). Also:
 * Chromium validates the relaxed-SIMD probe, so its pages get the relaxed variant.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright';
import { relaxedSimdProbe } from '../../src/core/util/relaxed-simd';
import type { KindReport } from '../unit/worker/engine/backends/llamacpp/kernel-check';
import type { F16Report } from '../unit/worker/engine/backends/llamacpp/kernel-check-f16';
import type { F32Report } from '../unit/worker/engine/backends/llamacpp/kernel-check-f32';
import { CHROMIUM_ARGS } from './harness';

declare global {
  interface Window {
    kernelCheck: {
      checkKernels(wasm: Uint8Array<ArrayBuffer>): Promise<KindReport[]>;
      checkF16(wasm: Uint8Array<ArrayBuffer>): Promise<F16Report>;
      checkF32(wasm: Uint8Array<ArrayBuffer>): Promise<F32Report>;
    };
  }
}

let browser: Browser;
let page: Page;

before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  page = await browser.newPage();
  const dir = 'test/unit/worker/engine/backends/llamacpp';
  const bundle = await build({
    stdin: {
      contents:
        "export { checkKernels } from './kernel-check'; export { checkF16 } from './kernel-check-f16'; export { checkF32 } from './kernel-check-f32';",
      resolveDir: dir,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    globalName: 'kernelCheck',
    write: false,
    logLevel: 'silent',
  });
  await page.addScriptTag({ content: bundle.outputFiles[0]?.text ?? '' });
});

after(async () => {
  await browser.close();
});

test('Chromium validates the relaxed-SIMD probe', async () => {
  const probe = [...relaxedSimdProbe()];
  assert.equal(await page.evaluate((bytes) => WebAssembly.validate(new Uint8Array(bytes)), probe), true);
});

for (const variant of ['simd', 'relaxed']) {
  test(`the ${variant} variant's kernels give ggml's reference results in Chromium`, async () => {
    const wasm = [...(await readFile(`worker/engine/backends/llamacpp/wasm/kernel-check-${variant}.wasm`))];
    const reports = await page.evaluate((bytes) => window.kernelCheck.checkKernels(new Uint8Array(bytes)), wasm);
    assert.deepEqual(
      reports.map((report) => report.kind),
      ['q4_0', 'q8_0', 'q4_K', 'q6_K'],
    );
    for (const report of reports) {
      assert.deepEqual(report.exactMismatches, [], report.kind);
      assert.equal(report.referenceChecked, true, report.kind);
      assert.ok(report.largestExact > 10_000, report.kind);
      assert.ok(report.worstRelative < 1e-5, `${report.kind}: ${report.worstRelative}`);
      const tiled = variant === 'relaxed' && report.kind !== 'q6_K';
      assert.equal(report.tileCases, tiled ? 800 : 0, report.kind);
      assert.deepEqual(report.tileMismatches, [], report.kind);
    }
    const f16 = await page.evaluate((bytes) => window.kernelCheck.checkF16(new Uint8Array(bytes)), wasm);
    assert.equal(f16.halves, 65_536);
    assert.deepEqual(f16.halfMismatches, []);
    assert.equal(f16.floats, 65_536);
    assert.deepEqual(f16.floatMismatches, []);
    assert.equal(f16.dots, 200);
    assert.deepEqual(f16.dotMismatches, []);
    const f32 = await page.evaluate((bytes) => window.kernelCheck.checkF32(new Uint8Array(bytes)), wasm);
    assert.equal(f32.dots, 200);
    assert.equal(f32.degenerate, 0);
    assert.ok(f32.worstRelative < 1e-5, `f32: ${f32.worstRelative}`);
    assert.equal(f32.tileCases, variant === 'relaxed' ? 800 : 0);
    assert.deepEqual(f32.tileMismatches, []);
    assert.deepEqual(f32.gemmWrongDecisions, []);
    assert.equal(f32.graphMismatches, 0);
    assert.ok(f32.gemmWorstRelative < 1e-5, `tinyBLAS: ${f32.gemmWorstRelative}`);
    assert.ok(f32.exp.softmaxWorstRelative < 2 * 2 ** -23, `softmax: ${f32.exp.softmaxWorstRelative}`);
    assert.equal(f32.exp.maskedWrong, 0);
    assert.ok(f32.exp.swigluWorstRelative < 1e-6, `swiglu: ${f32.exp.swigluWorstRelative}`);
  });
}
