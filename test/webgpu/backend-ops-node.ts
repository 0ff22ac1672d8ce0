/**
 * llama.cpp's test-backend-ops with its f16 kept (build-backend-ops.sh, `WEBGPU_OPS_F16=native`:
 * the shaders and the device's `shader-f16` as upstream has them), in Node on Dawn's Node binding,
 * for an adapter that has `shader-f16` and that Chromium does not give a page: Mesa's lavapipe
 * (scripts/engine/webgpu/lavapipe-ops.sh runs this in its chroot). As backend-ops.ts gives each op
 * a fresh page, each op runs in a child process of its own (`test -o OP`: the WebGPU backend
 * against the CPU backend) within WEBGPU_OPS_TIMEOUT_S, and its output is judged by
 * backend-ops-output.ts with no f16 failure allowed: F16 weights, F16 KV and FLASH_ATTN_EXT's F16
 * mask must pass as F32 and the quantized types do.
 *   usage: node backend-ops-node.mjs DIR   (DIR: test-backend-ops.js and .wasm; writes each op's
 *   output and results.json to $OUT or DIR). WEBGPU_OPS, WEBGPU_OPS_PARAMS: backend-ops-cases.ts;
 *   WEBGPU_OPS_TIMEOUT_S (per op, default 1200); WEBGPU_OPS_DAWN: Dawn toggles for `create()`.
 *   Exits 0 when every op passed.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInThisContext } from 'node:vm';
import { judge, parseBackendOps, type Verdict } from './backend-ops-output';
import { opArguments, opsToRun } from './backend-ops-cases';
import { installNodeGpu } from './node-gpu';

const env = process.env;
const dir = resolve(process.argv[2] ?? '.');
/** The child's line that carries main's return code (or why the program ended otherwise). */
const EXIT_MARK = '@@exit ';

if (process.argv[3] === '--run') runChild(process.argv.slice(4));
else await runAll();

/** In the child: test-backend-ops with `args`, its stdout and stderr as lines on stdout. */
function runChild(args: string[]): void {
  installNodeGpu(env.WEBGPU_OPS_DAWN);
  const line = (text: string) => process.stdout.write(`${text}\n`);
  const end = (status: string) => {
    line(`${EXIT_MARK}${status}`);
    process.exit(0);
  };
  Object.assign(globalThis, {
    Module: {
      print: line,
      printErr: line,
      onRuntimeInitialized() {
        Promise.resolve()
          .then(() =>
            (globalThis as unknown as { Module: { callMain(args: string[]): unknown } }).Module.callMain(args),
          )
          .catch((error: unknown) => end(`threw ${String(error)}`));
      },
      onExit: (code: number) => end(String(code)),
      onAbort: (what: unknown) => end(`abort ${String(what)}`),
    },
  });
  // A classic script, run in the global scope as a page's <script> is: its `var Module` is then
  // the one above (inside a CommonJS module it would be a new local), with what its Node half
  // reads (require, __dirname) given as globals.
  const file = join(dir, 'test-backend-ops.js');
  Object.assign(globalThis, { require: createRequire(file), __dirname: dir, __filename: file });
  runInThisContext(readFileSync(file, 'utf8'), { filename: file });
}

interface OpResult extends Verdict {
  op: string;
  seconds: number;
  exitStatus: unknown;
}

async function runAll(): Promise<void> {
  const timeoutMs = Number(env.WEBGPU_OPS_TIMEOUT_S ?? 1200) * 1000;
  const out = env.OUT ?? dir;
  const report: OpResult[] = [];
  for (const op of opsToRun(env)) report.push(await runOp(op, timeoutMs, out));
  writeFileSync(join(out, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log('\nop                 ok  failed  not supported  skipped  seconds');
  for (const r of report) {
    const cells = [r.counts.ok, r.counts.fail, r.counts['not supported'], r.counts.skipped];
    const row = cells.map((cell, i) => String(cell).padStart([4, 8, 15, 9][i] ?? 0)).join('');
    console.log(`${r.op.padEnd(16)}${row}${r.seconds.toFixed(0).padStart(9)}`);
  }
  const problems = report.flatMap((r) => r.problems.map((problem) => `${r.op}: ${problem}`));
  if (problems.length > 0) {
    console.error(`\nbackend-ops-node FAILED:\n${problems.join('\n')}`);
    process.exit(1);
  }
  console.log('\nbackend-ops-node passed (f16 computed as f16: every F16 case counted)');
  process.exit(0);
}

/** One op in a child process: its output to OP.log, judged. */
function runOp(op: string, timeoutMs: number, out: string): Promise<OpResult> {
  const args = opArguments(op, env);
  console.log(`${op}: test-backend-ops ${args.join(' ')}`);
  const started = performance.now();
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), dir, '--run', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolveOp) => {
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      writeFileSync(join(out, `${op}.log`), text);
      const lines = text.split('\n');
      const mark = lines
        .filter((l) => l.startsWith(EXIT_MARK))
        .pop()
        ?.slice(EXIT_MARK.length);
      const exitStatus: unknown =
        mark === undefined
          ? `ended without main's return (${signal ?? `exit ${code}`})`
          : /^\d+$/.test(mark)
            ? Number(mark)
            : mark;
      const verdict = judge(parseBackendOps(lines), exitStatus, null);
      console.log(`${op}: ${verdict.counts.ok} ok, ${verdict.counts.fail} failed, ${seconds.toFixed(0)} s`);
      resolveOp({ op, seconds, exitStatus, ...verdict });
    });
  });
}
