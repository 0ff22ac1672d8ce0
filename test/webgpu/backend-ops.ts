/**
 * `npm run test:webgpu-ops` (opt-in; not part of `npm test`): llama.cpp's test-backend-ops, built
 * for the web with the WebGPU backend by scripts/engine/webgpu/build-backend-ops.sh, in headless
 * Chromium on SwiftShader's WebGPU. Each op runs in a fresh page (`test -o OP`: the WebGPU
 * backend against the CPU backend) within WEBGPU_OPS_TIMEOUT_S; its output is judged by
 * backend-ops-output.ts. The test build computes f16 as f32 (SwiftShader has no shader-f16), so
 * this proves the plumbing and the shaders, not f16 numerics (docs/webgpu.md).
 *   usage: tsx test/webgpu/backend-ops.ts DIST_DIR
 *   WEBGPU_OPS=MUL_MAT,ROPE and WEBGPU_OPS_PARAMS=REGEX (test-backend-ops' -p): backend-ops-cases.ts;
 *   WEBGPU_OPS_CHROMIUM_ARGS (default --enable-unsafe-webgpu: SwiftShader's WebGPU);
 *   WEBGPU_OPS_TIMEOUT_S (per op, default 1200). Writes each op's output and results.json beside DIST_DIR.
 */
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { chromium, type ConsoleMessage } from 'playwright';
import { CHROMIUM_ARGS } from '../e2e/harness';
import { serveFolder } from '../e2e/static-server';
import { judge, parseBackendOps, type Verdict } from './backend-ops-output';
import { opArguments, opsToRun } from './backend-ops-cases';

const dist = resolve(process.argv[2] ?? 'test-results/webgpu-ops/dist');
const results = dirname(dist);
const ops = opsToRun(process.env);
const timeoutMs = Number(process.env.WEBGPU_OPS_TIMEOUT_S ?? 1200) * 1000;

interface OpResult extends Verdict {
  op: string;
  seconds: number;
  exitStatus: unknown;
}

// The quantized types whose blocks the test build's shaders cannot read (build-backend-ops.sh).
const f16BlockTypes = new Set((await readFile(join(dist, 'f16-block-types.txt'), 'utf8')).split('\n').filter(Boolean));
await copyFile(join(import.meta.dirname, 'backend-ops.html'), join(dist, 'index.html'));
const site = await serveFolder(dist);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    ...CHROMIUM_ARGS,
    ...(process.env.WEBGPU_OPS_CHROMIUM_ARGS ?? '--enable-unsafe-webgpu').split(/\s+/).filter(Boolean),
  ],
});
const report: OpResult[] = [];
try {
  for (const op of ops) report.push(await runOp(op));
} finally {
  await browser.close();
  await site.close();
}

await mkdir(results, { recursive: true });
await writeFile(join(results, 'results.json'), JSON.stringify(report, null, 2) + '\n');
console.log('\nop                 ok  failed  (f16, dispatch limit)  not supported  skipped  seconds');
for (const r of report) {
  const { f16, 'dispatch limit': dispatch } = r.expectedFailures;
  const cells = [r.counts.ok, r.counts.fail, `(${f16}, ${dispatch})`, r.counts['not supported'], r.counts.skipped];
  const widths = [4, 8, 23, 15, 9];
  const row = cells.map((cell, i) => String(cell).padStart(widths[i] ?? 0)).join('');
  console.log(`${r.op.padEnd(16)}${row}${r.seconds.toFixed(0).padStart(9)}`);
}
const problems = report.flatMap((r) => r.problems.map((problem) => `${r.op}: ${problem}`));
if (problems.length > 0) {
  console.error(`\ntest:webgpu-ops FAILED:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log("\ntest:webgpu-ops passed (F16 cases fail by the test build's f16 rewrite, as expected)");

/** One op in a fresh page: its output to OP.log, judged. */
async function runOp(op: string): Promise<OpResult> {
  const args = opArguments(op, process.env);
  const query = args.map((arg) => `arg=${encodeURIComponent(arg)}`).join('&');
  const context = await browser.newContext();
  const page = await context.newPage();
  const chunks: string[] = [];
  const errors: string[] = [];
  await mkdir(results, { recursive: true });
  const log = createWriteStream(join(results, `${op}.log`));
  page.on('console', (message: ConsoleMessage) => {
    chunks.push(message.text());
    log.write(message.text() + '\n');
    if (chunks.length % 25 === 0) process.stdout.write('.');
  });
  page.on('pageerror', (error) => errors.push(error.stack ?? error.message));
  const started = performance.now();
  console.log(`${op}: test-backend-ops ${args.join(' ')}`);
  let exitStatus: unknown = 'timed out';
  try {
    await page.goto(`${site.origin}/?${query}`);
    // An object, so that exit status 0 counts as done.
    const done = () => (window.exitStatus === undefined ? undefined : { status: window.exitStatus });
    const handle = await page.waitForFunction(done, undefined, { timeout: timeoutMs, polling: 500 });
    exitStatus = (await handle.jsonValue())?.status;
  } catch (error) {
    errors.push(error instanceof Error ? error.message : String(error));
  } finally {
    await context.close();
  }
  const seconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => log.end(resolve));
  const verdict = judge(parseBackendOps(chunks), exitStatus, f16BlockTypes);
  verdict.problems.push(...errors.map((error) => `page: ${error}`));
  console.log(`\n${op}: ${verdict.counts.ok} ok, ${verdict.counts.fail} failed, ${seconds.toFixed(0)} s`);
  return { op, seconds, exitStatus, ...verdict };
}

declare global {
  interface Window {
    exitStatus: number | string | undefined;
  }
}
