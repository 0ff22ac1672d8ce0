/**
 * The exponentials of the F32 graph (patches/ggml-cpu-wasm-expf.patch): ggml_vec_soft_max_f32
 * (attention's scores) and ggml_vec_swiglu_f32 (the FFN), which on wasm now take vec.h's
 * SIMD128 expf, against exp in double, on random inputs of many lengths (the 4-lane steps and
 * the scalar leftovers). Softmax's masked scores (-inf) must give exactly 0. No Node or DOM APIs.
 */
import type { Exports } from './kernel-check';

export interface ExpReport {
  /** Softmax values compared, and the largest |kernel - exp| / exp among them (above float's normal range). */
  softmaxValues: number;
  softmaxWorstRelative: number;
  /** The largest |kernel - exp| where exp is below float's normal range (subnormal or flushed to 0). */
  softmaxWorstTiny: number;
  /** Masked scores (-inf) compared, and those that did not give exactly 0. */
  masked: number;
  maskedWrong: number;
  /** The largest |returned sum - sum of the values in double| / that sum. */
  sumWorstRelative: number;
  /** SwiGLU values compared, and the largest |kernel - x / (1 + exp(-x)) * g| / |that|. */
  swigluValues: number;
  swigluWorstRelative: number;
}

const LENGTHS = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 64, 100, 255, 256, 1000];
const MAX_N = 1024;
const MIN_NORMAL = 2 ** -126;

/** Runs the exponential checks on an instantiated kernel-check wasm. */
export function checkExp(exports: Exports, next: () => number): ExpReport {
  const { kc_softmax_f32: softmax, kc_swiglu_f32: swiglu } = exports.instance.exports;
  if (typeof softmax !== 'function' || typeof swiglu !== 'function')
    throw new Error('not a kernel-check wasm with exponential checks: it lacks kc_softmax_f32 or kc_swiglu_f32');
  const report: ExpReport = {
    softmaxValues: 0,
    softmaxWorstRelative: 0,
    softmaxWorstTiny: 0,
    masked: 0,
    maskedWrong: 0,
    sumWorstRelative: 0,
    swigluValues: 0,
    swigluWorstRelative: 0,
  };
  const xAt = exports.malloc(MAX_N * 4);
  const gAt = exports.malloc(MAX_N * 4);
  const yAt = exports.malloc(MAX_N * 4);
  for (const n of LENGTHS) {
    // Scores below a maximum: from 0 down to -110 (past the flush to zero at -103.97), one in
    // eight masked, as attention's causal mask leaves them.
    const max = Math.fround((next() - 0.5) * 20);
    const x = new Float32Array(exports.memory.buffer, xAt, n);
    for (let i = 0; i < n; i++) x[i] = next() < 0.125 ? Number.NEGATIVE_INFINITY : max - next() * 110;
    const sum = Number(softmax(n, xAt, max, yAt));
    const y = new Float32Array(exports.memory.buffer, yAt, n);
    let exact = 0;
    for (let i = 0; i < n; i++) {
      const got = y[i] ?? Number.NaN;
      exact += got;
      if (x[i] === Number.NEGATIVE_INFINITY) {
        report.masked++;
        if (!Object.is(got, 0)) report.maskedWrong++;
        continue;
      }
      const reference = Math.exp(Math.fround((x[i] ?? 0) - max));
      report.softmaxValues++;
      const error = Math.abs(got - reference);
      if (!Number.isFinite(got)) report.softmaxWorstRelative = Number.POSITIVE_INFINITY;
      else if (reference < MIN_NORMAL) report.softmaxWorstTiny = Math.max(report.softmaxWorstTiny, error);
      else report.softmaxWorstRelative = Math.max(report.softmaxWorstRelative, error / reference);
    }
    if (exact > 0) report.sumWorstRelative = Math.max(report.sumWorstRelative, Math.abs(sum - exact) / exact);

    const g = new Float32Array(exports.memory.buffer, gAt, n);
    for (let i = 0; i < n; i++) [x[i], g[i]] = [(next() - 0.5) * 60, (next() - 0.5) * 4];
    swiglu(n, xAt, gAt, yAt);
    const out = new Float32Array(exports.memory.buffer, yAt, n);
    for (let i = 0; i < n; i++) {
      const v = x[i] ?? 0;
      const reference = (v / (1 + Math.exp(-v))) * (g[i] ?? 0);
      if (Math.abs(reference) < MIN_NORMAL) continue;
      report.swigluValues++;
      const got = out[i] ?? Number.NaN;
      report.swigluWorstRelative = Number.isFinite(got)
        ? Math.max(report.swigluWorstRelative, Math.abs(got - reference) / Math.abs(reference))
        : Number.POSITIVE_INFINITY;
    }
  }
  return report;
}
