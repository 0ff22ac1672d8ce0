/**
 * The engine's quantized dot-product kernels against ggml's scalar reference, per variant: each
 * variant's kernel-check wasm (built with it by scripts/engine/link-kernel-check.sh from the
 * same libggml-cpu.a) runs on random blocks (kernel-check.ts). Integer results must agree to the
 * bit, float ones within float error; the relaxed variant's 2x2 prefill tiles (q4_0, q8_0, q4_K) must
 * give each single dot product bit for bit, and every variant's F16 conversions and
 * ggml_vec_dot_f16 must be ggml's scalar ones (kernel-check-f16.ts), and every variant's
 * ggml_vec_dot_f32 a sum in double within float error, the relaxed variant's F32 tile each single
 * dot bit for bit, every variant's F32 tinyBLAS (F32 prefill) the sums in double
 * (kernel-check-f32.ts), and its softmax and SwiGLU exp in double (kernel-check-exp.ts). Where this Node validates relaxed SIMD only behind a flag
 * (Node 20), the relaxed variant runs in a child Node with `--experimental-wasm-relaxed-simd`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkKernels, KINDS, type KindReport } from './kernel-check';
import { checkF16, type F16Report } from './kernel-check-f16';
import { checkF32, type F32Report } from './kernel-check-f32';

const DIR = 'worker/engine/backends/llamacpp/wasm';

interface Reports {
  kinds: KindReport[];
  f16: F16Report;
  f32: F32Report;
}

async function runCheck(variant: string): Promise<Reports> {
  const path = `${DIR}/kernel-check-${variant}.wasm`;
  const bytes = new Uint8Array(readFileSync(path));
  if (WebAssembly.validate(bytes))
    return { kinds: await checkKernels(bytes), f16: await checkF16(bytes), f32: await checkF32(bytes) };
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
  const parsed: Reports = JSON.parse(child.stdout);
  return parsed;
}

/** One run per variant (a child Node takes a few seconds on a busy machine), shared by its kinds. */
const runs = new Map<string, Promise<Reports>>();
function reports(variant: string): Promise<Reports> {
  let run = runs.get(variant);
  if (run === undefined) runs.set(variant, (run = runCheck(variant)));
  return run;
}

describe.each(['simd', 'relaxed'])('the %s variant', (variant) => {
  it.each(KINDS)(
    "%s: the kernel gives ggml's reference results",
    async (kind) => {
      const report = (await reports(variant)).kinds.find((entry) => entry.kind === kind);
      expect(report).toBeDefined();
      if (report === undefined) return;
      expect(report.exactCases).toBe(200);
      expect(report.exactMismatches).toEqual([]);
      expect(report.referenceChecked).toBe(true);
      // Compared something: the exact cases reach large integer sums.
      expect(report.largestExact).toBeGreaterThan(10_000);
      expect(report.floatCases).toBe(200);
      expect(report.worstRelative).toBeLessThan(1e-5);
      // The 2x2 prefill tiles: the relaxed variant has them for q4_0, q8_0 and q4_K.
      const tiled = variant === 'relaxed' && kind !== 'q6_K';
      expect(report.tileCases).toBe(tiled ? 800 : 0);
      expect(report.tileMismatches).toEqual([]);
    },
    60_000,
  );

  it("F16 conversions and ggml_vec_dot_f16 give ggml's scalar results", async () => {
    const { f16 } = await reports(variant);
    expect(f16.halves).toBe(65_536);
    expect(f16.halfMismatches).toEqual([]);
    expect(f16.floats).toBe(65_536);
    expect(f16.floatMismatches).toEqual([]);
    expect(f16.dots).toBe(200);
    expect(f16.dotMismatches).toEqual([]);
  }, 60_000);

  it('ggml_vec_dot_f32 gives the sum within float error, and its 2x2 tile each single dot', async () => {
    const { f32 } = await reports(variant);
    expect(f32.dots).toBe(200);
    expect(f32.degenerate).toBe(0);
    // Float error of sums of up to 1,600 products, relative to the sum of their magnitudes.
    expect(f32.worstRelative).toBeLessThan(1e-5);
    expect(f32.worstRelative).toBeGreaterThan(0);
    // The 2x2 prefill tile: the relaxed variant has one for F32.
    expect(f32.tileCases).toBe(variant === 'relaxed' ? 800 : 0);
    expect(f32.tileMismatches).toEqual([]);
  }, 60_000);

  it('tinyBLAS takes F32 products of 2+ columns, giving the sums within float error', async () => {
    const { f32 } = await reports(variant);
    expect(f32.gemmWrongDecisions).toEqual([]);
    // ggml_mul_mat (the engine's path) gave tinyBLAS's results bit for bit.
    expect(f32.graphMismatches).toBe(0);
    expect(f32.gemms).toBe(9);
    // The last two: B's rows apart (attention's permuted Q).
    expect(f32.gemmCells).toBe(16 * 2 + 16 * 3 + 4 * 5 + 12 * 7 + 64 * 64 + 32 * 13 + 48 * 2 + 64 * 16 + 8 * 3);
    expect(f32.gemmWorstRelative).toBeLessThan(1e-5);
    expect(f32.gemmWorstRelative).toBeGreaterThan(0);
  }, 60_000);

  it("softmax's and SwiGLU's exponentials give exp within float error, masked scores 0", async () => {
    const { exp } = (await reports(variant)).f32;
    expect(exp.softmaxValues).toBeGreaterThan(1500);
    // ggml's bound for this expf: 1.45358 plus 0.5 ulps (2^-24 relative each).
    expect(exp.softmaxWorstRelative).toBeLessThan(2 * 2 ** -23);
    expect(exp.softmaxWorstRelative).toBeGreaterThan(0);
    expect(exp.softmaxWorstTiny).toBeLessThan(2 ** -140);
    expect(exp.masked).toBeGreaterThan(150);
    expect(exp.maskedWrong).toBe(0);
    expect(exp.sumWorstRelative).toBeLessThan(1e-6);
    expect(exp.swigluValues).toBeGreaterThan(1500);
    expect(exp.swigluWorstRelative).toBeLessThan(1e-6);
  }, 60_000);
});
