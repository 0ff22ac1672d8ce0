/**
 * `npm run test:webgpu-engine` (opt-in; not part of `npm test`): the committed WebGPU engine
 * (`webgpu`) and its SwiftShader probe (`jspi-gpu`: scripts/engine/webgpu/build-engine-probe.sh)
 * in headless Chromium, driven by the engine's own `LlamaWasm` (engine-probe-page.ts) with every
 * layer asked for on the GPU, against the committed `simd` engine in the same page, on the
 * built-in `inpage-test` model:
 * - with SwiftShader's WebGPU (`--enable-unsafe-webgpu`): `webgpu` (no device without shader-f16:
 *   the CPU) gives the `simd` engine's tokens and logprobs bit for bit; `jspi-gpu` (the f16 rewrite,
 *   every layer on SwiftShader's GPU) its greedy tokens, logprobs within GPU_LOGPROB_TOLERANCE,
 *   and again with a tokenize (right every time) while each push's decode is pending; exports
 *   that do not suspend run while `ip_load` is pending;
 * - without WebGPU: `webgpu` again gives the `simd` engine's answer.
 * It proves the async engine calls and the JSPI build, not f16 numerics (docs/webgpu.md).
 *   usage: tsx test/webgpu/engine-probe.ts DIST_DIR   (the probe; writes site/ and results.json beside it)
 *   WEBGPU_ENGINE_TOKENS (16): the tokens of each answer.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { CHROMIUM_ARGS } from '../e2e/harness';
import { serveFolder } from '../e2e/static-server';
import type { ProbeAnswer } from './engine-probe-page';

/** How far the GPU probe's logprobs may be from the CPU's (f32 sums in another order). */
const GPU_LOGPROB_TOLERANCE = 1e-3;

const dist = resolve(process.argv[2] ?? 'test-results/webgpu-engine/dist');
const site = join(dirname(dist), 'site');
const tokens = Number(process.env.WEBGPU_ENGINE_TOKENS ?? 16);
await mkdir(site, { recursive: true });
const committed = 'worker/engine/backends/llamacpp/wasm';
for (const ext of ['wasm', 'mjs']) {
  await copyFile(join(dist, `llama-engine-jspi-gpu.${ext}`), join(site, `llama-engine-jspi-gpu.${ext}`));
  await copyFile(join(committed, `llama-engine-webgpu.${ext}`), join(site, `llama-engine-webgpu.${ext}`));
}
await copyFile(join(committed, 'llama-engine-simd.wasm'), join(site, 'llama-engine-simd.wasm'));
await writeFile(join(site, 'model.gguf'), buildInpageTestModel());
await writeFile(
  join(site, 'index.html'),
  '<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>\n',
);
await build({
  entryPoints: [join(import.meta.dirname, 'engine-probe-page.ts')],
  bundle: true,
  format: 'esm',
  outfile: join(site, 'page.js'),
  define: { __INPAGE_TEST_HOOKS__: 'true' },
  logLevel: 'warning',
});

const server = await serveFolder(site);
const failures: string[] = [];
const report: Record<string, unknown> = {};
try {
  const withGpu = await runPage(
    ['--enable-unsafe-webgpu'],
    `engines=simd,webgpu,jspi-gpu&reentrancy=webgpu&tokenize-during-push=jspi-gpu&tokens=${tokens}`,
  );
  const withoutGpu = await runPage([], `engines=simd,webgpu&tokens=${tokens}`);
  Object.assign(report, { withGpu, withoutGpu });
  compare('SwiftShader, webgpu', withGpu.simd, withGpu.webgpu, 0);
  // Where llama.cpp's layers went: SwiftShader's adapter gives the stock engine no device (no
  // shader-f16), the rewritten one a device; without WebGPU, none.
  const devices = (answer: unknown) => (isAnswer(answer) ? answer.gpuDevices : null);
  const seen = [devices(withGpu.webgpu), devices(withGpu['jspi-gpu']), devices(withoutGpu.webgpu)];
  if (seen.join() !== '0,1,0') failures.push(`GPU devices (webgpu, jspi-gpu, no WebGPU): ${seen.join()}`);
  else console.log(`GPU devices: webgpu 0, jspi-gpu 1 on SwiftShader; webgpu 0 without WebGPU`);
  compare('SwiftShader, jspi-gpu', withGpu.simd, withGpu['jspi-gpu'], GPU_LOGPROB_TOLERANCE);
  compare('no WebGPU, webgpu', withoutGpu.simd, withoutGpu.webgpu, 0);
  // A tokenize while each push's decode is suspended on the GPU: right every time, and the answer unchanged.
  const during = withGpu.tokenizeDuringPush;
  compare('SwiftShader, jspi-gpu, a tokenize during each push', withGpu.simd, during, GPU_LOGPROB_TOLERANCE);
  const counts = isDuring(during) ? during : null;
  if (!counts || counts.sameTokenizes !== counts.tokens.length || counts.suspendedPushes === 0)
    failures.push(`tokenizes during a push: ${JSON.stringify(counts && { ...counts, logprobs: undefined })}`);
  else
    console.log(
      `tokenizes during a push: ${counts.sameTokenizes} of ${counts.tokens.length} gave the prompt's ids; ` +
        `${counts.suspendedPushes} of the pushes were suspended then`,
    );
  const reentrancy = withGpu.reentrancy;
  if (!isReentrancy(reentrancy) || !reentrancy.promise || reentrancy.status !== 0 || reentrancy.tokens <= 0)
    failures.push(`re-entrancy: ${JSON.stringify(reentrancy)}`);
  else
    console.log(
      `re-entrancy: ip_load pending (a promise) while other exports ran; then status 0, ${reentrancy.tokens} tokens`,
    );
} finally {
  await server.close();
}
await writeFile(join(dirname(dist), 'results.json'), `${JSON.stringify({ report, failures }, null, 2)}\n`);
if (failures.length > 0) {
  console.error(`FAILED:\n${failures.join('\n')}`);
  process.exit(1);
}
console.log('webgpu-engine: passed');

async function runPage(args: string[], search: string): Promise<Record<string, unknown>> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...args],
  });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
    await page.goto(`${server.origin}/index.html?${search}`);
    return await page.evaluate(() => window.probeResults);
  } finally {
    await browser.close();
  }
}

function isAnswer(value: unknown): value is ProbeAnswer {
  return typeof value === 'object' && value !== null && 'tokens' in value && 'logprobs' in value;
}

function isDuring(value: unknown): value is ProbeAnswer & { sameTokenizes: number; suspendedPushes: number } {
  return isAnswer(value) && 'sameTokenizes' in value && 'suspendedPushes' in value;
}

function isReentrancy(value: unknown): value is { promise: boolean; status: number; tokens: number } {
  return typeof value === 'object' && value !== null && 'promise' in value && 'status' in value && 'tokens' in value;
}

/** `probe`'s answer against `reference`'s: the same tokens, logprobs within `tolerance`. */
function compare(label: string, reference: unknown, probe: unknown, tolerance: number): void {
  if (!isAnswer(reference) || !isAnswer(probe))
    return void failures.push(`${label}: ${JSON.stringify({ reference, probe })}`);
  const same =
    reference.tokens.length === probe.tokens.length && reference.tokens.every((id, i) => id === probe.tokens[i]);
  const gap = Math.max(
    0,
    ...reference.logprobs.map((logprob, i) => Math.abs(logprob - (probe.logprobs[i] ?? Infinity))),
  );
  console.log(
    `${label}: ${probe.tokens.length} tokens in ${Math.round(probe.answerMs)} ms (simd: ${Math.round(reference.answerMs)} ms), ` +
      `load ${Math.round(probe.loadMs)} ms; same tokens: ${same}; largest logprob gap ${gap.toExponential(2)}`,
  );
  if (!same || !(gap <= tolerance))
    failures.push(`${label}: same tokens ${same}, logprob gap ${gap} (allowed ${tolerance})`);
}
