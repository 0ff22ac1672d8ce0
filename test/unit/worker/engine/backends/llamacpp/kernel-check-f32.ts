/**
 * The F32 half of the kernel check: a variant's ggml_vec_dot_f32 (F32 mul_mat's dot product;
 * relaxed SIMD FMAs in the relaxed variant, patches/ggml-cpu-wasm-tiles-f32.patch) against a
 * plain sum in double (native/kernel-check/kernel-check.c), within float error, on random
 * vectors of many lengths (multiples of 16 and 8 and the leftovers around them). Where the
 * variant has a 2x2 tile (nrc 2, F32 prefill in the relaxed variant), each of its four results
 * must be the single dot product of its row and column bit for bit, so that a result never
 * depends on the batch size. No Node or DOM APIs.
 */
import { instantiateKernelCheck, random, TILE_CELLS } from './kernel-check';

export interface F32Report {
  dots: number;
  /** The largest |kernel - reference| / sum |x[i] * y[i]| (the sum's own scale) over the dots. */
  worstRelative: number;
  /** Dots whose result is not finite or whose reference is 0 (the check compared nothing). */
  degenerate: number;
  /** 2x2 tiles' results compared (0 where the variant has no F32 tile). */
  tileCases: number;
  /** Tile results that differ from the single dot of their row and column: `[n, tile, single]`. */
  tileMismatches: Array<[number, number, number]>;
}

/** Lengths around the kernels' steps (4-lane vectors, 8 or 16 floats a step), then random ones. */
const LENGTHS = [1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 23, 24, 31, 32, 33, 63, 64, 100, 255, 256, 511, 512, 1536];
const MAX_N = 1600;
const CASES = 200;

/** Runs the F32 checks on the given kernel-check wasm (its bytes). */
export async function checkF32(wasm: Uint8Array<ArrayBuffer>, seed = 1): Promise<F32Report> {
  const exports = await instantiateKernelCheck(wasm);
  const { kc_dot_f32: dotF32, kc_dot2_f32: dot2F32 } = exports.instance.exports;
  if (typeof dotF32 !== 'function' || typeof dot2F32 !== 'function')
    throw new Error('not a kernel-check wasm with F32 checks: it lacks kc_dot_f32 or kc_dot2_f32');
  const next = random(seed);
  // Two rows and two columns, each MAX_N floats plus a pad (the tile's strides need not be n).
  const stride = (MAX_N + 4) * 4;
  const xAt = exports.malloc(2 * stride);
  const yAt = exports.malloc(2 * stride);
  const tileAt = exports.malloc(16);
  const report: F32Report = { dots: 0, worstRelative: 0, degenerate: 0, tileCases: 0, tileMismatches: [] };
  // Floats of magnitude 2^-8..2^8 with either sign: products whose roundings differ (FMA or not).
  const value = (): number => (next() < 0.5 ? -1 : 1) * 2 ** (next() * 16 - 8) * (1 + next());
  const dot = (reference: number, n: number, x: number, y: number): number => Number(dotF32(reference, n, x, y));

  for (let i = 0; i < CASES; i++) {
    const n = LENGTHS[i] ?? 1 + Math.floor(next() * MAX_N);
    const x = new Float32Array(exports.memory.buffer, xAt, (2 * stride) / 4);
    const y = new Float32Array(exports.memory.buffer, yAt, (2 * stride) / 4);
    for (let j = 0; j < (2 * stride) / 4; j++) [x[j], y[j]] = [value(), value()];
    let scale = 0;
    for (let j = 0; j < n; j++) scale += Math.abs((x[j] ?? 0) * (y[j] ?? 0));
    const kernel = dot(0, n, xAt, yAt);
    const reference = dot(1, n, xAt, yAt);
    report.dots++;
    if (!Number.isFinite(kernel) || reference === 0) report.degenerate++;
    else report.worstRelative = Math.max(report.worstRelative, Math.abs(kernel - reference) / scale);

    if (Number(dot2F32(n, xAt, stride, yAt, stride, tileAt)) !== 1) continue;
    const tile = new Float32Array(exports.memory.buffer, tileAt, 4);
    for (const [k, [row, column]] of TILE_CELLS.entries()) {
      const single = dot(0, n, xAt + row * stride, yAt + column * stride);
      report.tileCases++;
      if (!Object.is(tile[k], single)) report.tileMismatches.push([n, tile[k] ?? Number.NaN, single]);
    }
  }
  return report;
}
