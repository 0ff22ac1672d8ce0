/**
 * The engine's quantized dot-product kernels against ggml's scalar reference, per variant: each
 * variant's kernel-check wasm (built with it by scripts/engine/link-kernel-check.sh from the
 * same libggml-cpu.a) runs on random blocks (kernel-check.ts). Integer results must agree to the
 * bit, float ones within float error. Where this Node validates relaxed SIMD only behind a flag
 * (Node 20), the relaxed variant runs in a child Node with `--experimental-wasm-relaxed-simd`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkKernels, KINDS, type KindReport } from './kernel-check';

const DIR = 'worker/engine/backends/llamacpp/wasm';

async function runCheck(variant: string): Promise<KindReport[]> {
  const path = `${DIR}/kernel-check-${variant}.wasm`;
  const bytes = new Uint8Array(readFileSync(path));
  if (WebAssembly.validate(bytes)) return checkKernels(bytes);
  const child = spawnSync(
    process.execPath,
    [
      '--experimental-wasm-relaxed-simd',
      '--import',
      'tsx',
      'test/unit/worker/engine/backends/llamacpp/kernel-check-run.ts',
      path,
    ],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error(`the kernel check failed in a child Node:\n${child.stderr}`);
  const parsed: KindReport[] = JSON.parse(child.stdout);
  return parsed;
}

/** One run per variant (a child Node takes a few seconds on a busy machine), shared by its kinds. */
const runs = new Map<string, Promise<KindReport[]>>();
function reports(variant: string): Promise<KindReport[]> {
  let run = runs.get(variant);
  if (run === undefined) runs.set(variant, (run = runCheck(variant)));
  return run;
}

describe.each(['simd', 'relaxed'])('the %s variant', (variant) => {
  it.each(KINDS)(
    "%s: the kernel gives ggml's reference results",
    async (kind) => {
      const report = (await reports(variant)).find((entry) => entry.kind === kind);
      expect(report).toBeDefined();
      if (report === undefined) return;
      expect(report.exactCases).toBe(200);
      expect(report.exactMismatches).toEqual([]);
      expect(report.referenceChecked).toBe(true);
      // Compared something: the exact cases reach large integer sums.
      expect(report.largestExact).toBeGreaterThan(10_000);
      expect(report.floatCases).toBe(200);
      expect(report.worstRelative).toBeLessThan(1e-5);
    },
    60_000,
  );
});
