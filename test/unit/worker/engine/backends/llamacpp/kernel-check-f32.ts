/**
 * The F32 half of the kernel check: a variant's ggml_vec_dot_f32 (F32 mul_mat's dot product;
 * relaxed SIMD FMAs in the relaxed variant, patches/ggml-cpu-wasm-tiles-f32.patch) against a
 * plain sum in double (native/kernel-check/kernel-check.c), within float error, on random
 * vectors of many lengths (multiples of 16 and 8 and the leftovers around them). Where the
 * variant has a 2x2 tile (nrc 2, F32 products tinyBLAS declines, relaxed variant), each of its
 * four results must be the single dot product of its row and column bit for bit, so that such a
 * result does not depend on the batch size. And F32 prefill's matrix product, llamafile_sgemm's
 * tinyBLAS (patches/ggml-cpu-wasm-sgemm.patch), against the same sum in double for every cell,
 * on shapes it takes and on shapes it must decline (ggml then uses the dot product), B's rows
 * one after another or apart (attention's permuted Q, patches/ggml-cpu-wasm-sgemm-strided.patch).
 * And softmax's and SwiGLU's exponentials (kernel-check-exp.ts). No Node or DOM APIs.
 */
import { instantiateKernelCheck, random, TILE_CELLS } from './kernel-check';
import { checkExp, type ExpReport } from './kernel-check-exp';

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
  /** Products tinyBLAS took, and the cells compared in them. */
  gemms: number;
  gemmCells: number;
  /** The largest |tinyBLAS - reference| / sum |a[i] * b[i]| over the cells. */
  gemmWorstRelative: number;
  /** `m,n,k,ldb` of products whose take-or-decline was not the expected one (GEMM_SHAPES). */
  gemmWrongDecisions: string[];
  /**
   * Cells where ggml_mul_mat's result is not the one it should take bit for bit: tinyBLAS's from
   * GEMM_MIN_COLUMNS columns, the single dot product's below (a decode's kernel, so that a
   * speculative draft's check gives a decode's logits: patches/ggml-cpu-wasm-sgemm-strided.patch).
   */
  graphMismatches: number;
  exp: ExpReport;
}

/**
 * `[m, n, k, ldb, taken]`: tinyBLAS takes rows in fours (16s where it can), any column count from
 * 2, and k in fours, with B's rows `ldb` floats apart (k: one after another; more: a view, as
 * attention's Q of one head among 8, 64 floats of every 512); a single column (decode, as on
 * native), k not a multiple of 4, or m not one of 4 it declines.
 */
/** The fewest columns for which ggml_mul_mat hands an F32 product to tinyBLAS (the F32 KV cache's micro-batch). */
const GEMM_MIN_COLUMNS = 64;

const GEMM_SHAPES: Array<[number, number, number, number, boolean]> = [
  [16, 2, 4, 4, true],
  [16, 3, 64, 64, true],
  [4, 5, 36, 36, true],
  [12, 7, 100, 100, true],
  [64, 64, 512, 512, true],
  [32, 13, 1536, 1536, true],
  [48, 2, 8, 8, true],
  [64, 16, 64, 512, true],
  [8, 3, 12, 20, true],
  [16, 1, 64, 64, false],
  [64, 1, 512, 512, false],
  [16, 1, 64, 512, false],
  [16, 4, 6, 6, false],
  [6, 4, 64, 64, false],
];

/** Lengths around the kernels' steps (4-lane vectors, 8 or 16 floats a step), then random ones. */
const LENGTHS = [1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 23, 24, 31, 32, 33, 63, 64, 100, 255, 256, 511, 512, 1536];
const MAX_N = 1600;
const CASES = 200;

/** sum |x[xFrom + i] * y[yFrom + i]| over n values: a dot product's own scale, for its relative error. */
function magnitude(x: Float32Array, xFrom: number, y: Float32Array, yFrom: number, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.abs((x[xFrom + i] ?? 0) * (y[yFrom + i] ?? 0));
  return sum;
}

/** Runs the F32 checks on the given kernel-check wasm (its bytes). */
export async function checkF32(wasm: Uint8Array<ArrayBuffer>, seed = 1): Promise<F32Report> {
  const exports = await instantiateKernelCheck(wasm);
  const { kc_dot_f32: dotF32, kc_dot2_f32: dot2F32, kc_sgemm_f32: sgemmF32 } = exports.instance.exports;
  if (typeof dotF32 !== 'function' || typeof dot2F32 !== 'function' || typeof sgemmF32 !== 'function')
    throw new Error('not a kernel-check wasm with F32 checks: it lacks kc_dot_f32, kc_dot2_f32 or kc_sgemm_f32');
  const next = random(seed);
  // Two rows and two columns, each MAX_N floats plus a pad (the tile's strides need not be n).
  const stride = (MAX_N + 4) * 4;
  const xAt = exports.malloc(2 * stride);
  const yAt = exports.malloc(2 * stride);
  const tileAt = exports.malloc(16);
  const report: F32Report = {
    dots: 0,
    worstRelative: 0,
    degenerate: 0,
    tileCases: 0,
    tileMismatches: [],
    gemms: 0,
    gemmCells: 0,
    gemmWorstRelative: 0,
    gemmWrongDecisions: [],
    graphMismatches: 0,
    exp: checkExp(exports, random(seed + 1)),
  };
  // Floats of magnitude 2^-8..2^8 with either sign: products whose roundings differ (FMA or not).
  const value = (): number => (next() < 0.5 ? -1 : 1) * 2 ** (next() * 16 - 8) * (1 + next());
  const dot = (reference: number, n: number, x: number, y: number): number => Number(dotF32(reference, n, x, y));

  for (let i = 0; i < CASES; i++) {
    const n = LENGTHS[i] ?? 1 + Math.floor(next() * MAX_N);
    const x = new Float32Array(exports.memory.buffer, xAt, (2 * stride) / 4);
    const y = new Float32Array(exports.memory.buffer, yAt, (2 * stride) / 4);
    for (let j = 0; j < (2 * stride) / 4; j++) [x[j], y[j]] = [value(), value()];
    const scale = magnitude(x, 0, y, 0, n);
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

  // tinyBLAS: A (m rows of k), B (n rows of ldb), C (n rows of m), the largest shape's worth of floats.
  const aAt = exports.malloc(64 * 1536 * 4);
  const bAt = exports.malloc(64 * 1536 * 4);
  const cAt = exports.malloc(64 * 64 * 4);
  const graphAt = exports.malloc(64 * 64 * 4);
  for (const [m, n, k, ldb, taken] of GEMM_SHAPES) {
    const a = new Float32Array(exports.memory.buffer, aAt, m * k);
    const b = new Float32Array(exports.memory.buffer, bAt, n * ldb);
    for (let j = 0; j < a.length; j++) a[j] = value();
    for (let j = 0; j < b.length; j++) b[j] = value();
    if ((Number(sgemmF32(m, n, k, ldb, aAt, bAt, cAt, graphAt)) === 1) !== taken)
      report.gemmWrongDecisions.push(`${m},${n},${k},${ldb}`);
    if (!taken) continue;
    report.gemms++;
    const c = new Float32Array(exports.memory.buffer, cAt, m * n);
    const graph = new Float32Array(exports.memory.buffer, graphAt, m * n);
    for (let column = 0; column < n; column++)
      for (let row = 0; row < m; row++) {
        const want = n >= GEMM_MIN_COLUMNS ? c[column * m + row] : dot(0, k, aAt + row * k * 4, bAt + column * ldb * 4);
        if (!Object.is(graph[column * m + row], want)) report.graphMismatches++;
        const scale = magnitude(a, row * k, b, column * ldb, k);
        const reference = dot(1, k, aAt + row * k * 4, bAt + column * ldb * 4);
        const got = c[column * m + row] ?? Number.NaN;
        report.gemmCells++;
        report.gemmWorstRelative = Number.isFinite(got)
          ? Math.max(report.gemmWorstRelative, Math.abs(got - reference) / scale)
          : Number.POSITIVE_INFINITY;
      }
  }
  return report;
}
