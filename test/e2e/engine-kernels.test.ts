/**
 * The engine's dot-product kernels in Chromium (whose V8 lowers relaxed SIMD for this machine's
 * CPU): each variant's kernel-check wasm against ggml's scalar reference on random blocks, as
 * test/unit/worker/engine/backends/llamacpp/engine-kernels.test.ts does in Node. Also: Chromium validates the relaxed-SIMD
 * probe, so its pages get the relaxed variant.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright';
import { relaxedSimdProbe } from '../../src/core/util/relaxed-simd';
import type { KindReport } from '../unit/worker/engine/backends/llamacpp/kernel-check';
import { CHROMIUM_ARGS } from './harness';

declare global {
  interface Window {
    kernelCheck: { checkKernels(wasm: Uint8Array<ArrayBuffer>): Promise<KindReport[]> };
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
  const bundle = await build({
    entryPoints: ['test/unit/worker/engine/backends/llamacpp/kernel-check.ts'],
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
    }
  });
}
