/**
 * Runs the kernel check (kernel-check.ts, kernel-check-f16.ts, kernel-check-f32.ts) on one kernel-check
 * wasm and prints its reports as JSON (`{ kinds, f16, f32 }`): the unit test starts this with `--experimental-wasm-relaxed-simd` where the Node it runs
 * in cannot validate relaxed SIMD by default (Node 20).
 *   usage: node [--experimental-wasm-relaxed-simd] --import tsx test/unit/worker/engine/backends/llamacpp/kernel-check-run.ts WASM
 */
import { readFileSync } from 'node:fs';
import { checkKernels } from './kernel-check';
import { checkF16 } from './kernel-check-f16';
import { checkF32 } from './kernel-check-f32';

const [path] = process.argv.slice(2);
if (path === undefined) throw new Error('usage: kernel-check-run.ts WASM');
const wasm = new Uint8Array(readFileSync(path));
process.stdout.write(
  `${JSON.stringify({ kinds: await checkKernels(wasm), f16: await checkF16(wasm), f32: await checkF32(wasm) })}\n`,
);
