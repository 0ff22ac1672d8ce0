/**
 * Q4_K and Q6_K super-blocks (256 values) for the bench's generated models. These are plain
 * round-to-nearest quantizers, not ggml's searching ones (`quantize_row_q4_K_ref`,
 * `quantize_row_q6_K_ref`): the layout is ggml's, so every reader decodes the values written,
 * but a real model quantized here would lose more accuracy than with llama-quantize.
 * - Q4_K: f16 d, f16 dmin, 12 bytes of 6-bit scales and mins for 8 sub-blocks of 32, then 128
 *   bytes of nibbles; x = d * scale * q - dmin * min, q in 0..15.
 * - Q6_K: 128 bytes of low nibbles, 64 of high 2-bit pairs, 16 int8 scales (sub-blocks of 16),
 *   f16 d; x = d * scale * (q - 32), q in 0..63.
 */
import { fromF16Bits, toF16Bits } from './quantize';

export const QK_K = 256;
export const Q4_K_BYTES = 144;
export const Q6_K_BYTES = 210;

const clamp = (v: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, v));

/** Writes 256 values as one Q4_K block at `at`. */
export function quantizeQ4KBlock(x: Float32Array, view: DataView, at: number): void {
  const scales: number[] = [];
  const mins: number[] = [];
  for (let j = 0; j < 8; j++) {
    const sub = x.subarray(32 * j, 32 * j + 32);
    const min = Math.min(0, ...sub);
    scales.push((Math.max(...sub) - min) / 15);
    mins.push(-min);
  }
  const d = fromF16Bits(toF16Bits(Math.max(...scales) / 63));
  const dmin = fromF16Bits(toF16Bits(Math.max(...mins) / 63));
  const sc = scales.map((s) => (d ? clamp(Math.round(s / d), 0, 63) : 0));
  const m = mins.map((s) => (dmin ? clamp(Math.round(s / dmin), 0, 63) : 0));
  view.setUint16(at, toF16Bits(d), true);
  view.setUint16(at + 2, toF16Bits(dmin), true);
  for (let j = 0; j < 4; j++) {
    const sHigh = sc[j + 4] ?? 0;
    const mHigh = m[j + 4] ?? 0;
    view.setUint8(at + 4 + j, (sc[j] ?? 0) | ((sHigh >> 4) << 6));
    view.setUint8(at + 8 + j, (m[j] ?? 0) | ((mHigh >> 4) << 6));
    view.setUint8(at + 12 + j, (sHigh & 0xf) | ((mHigh & 0xf) << 4));
  }
  const q = (j: number, l: number): number => {
    const step = d * (sc[j] ?? 0);
    return step ? clamp(Math.round(((x[32 * j + l] ?? 0) + dmin * (m[j] ?? 0)) / step), 0, 15) : 0;
  };
  for (let pair = 0; pair < 4; pair++)
    for (let l = 0; l < 32; l++) view.setUint8(at + 16 + 32 * pair + l, q(2 * pair, l) | (q(2 * pair + 1, l) << 4));
}

/** Writes 256 values as one Q6_K block at `at`. */
export function quantizeQ6KBlock(x: Float32Array, view: DataView, at: number): void {
  const scales: number[] = [];
  for (let j = 0; j < 16; j++) {
    let amax = 0;
    for (const v of x.subarray(16 * j, 16 * j + 16)) amax = Math.max(amax, Math.abs(v));
    scales.push(amax / 32);
  }
  const d = fromF16Bits(toF16Bits(Math.max(...scales) / 127));
  const sc = scales.map((s) => (d ? clamp(Math.round(s / d), -128, 127) : 0));
  const q = sc.flatMap((s, j) =>
    Array.from({ length: 16 }, (_, l) => (d * s ? clamp(Math.round((x[16 * j + l] ?? 0) / (d * s)), -32, 31) : 0) + 32),
  );
  for (let half = 0; half < 2; half++) {
    const ql = at + 64 * half;
    const qh = at + 128 + 32 * half;
    const y = (i: number): number => q[128 * half + i] ?? 32;
    for (let l = 0; l < 32; l++) {
      view.setUint8(ql + l, (y(l) & 0xf) | ((y(l + 64) & 0xf) << 4));
      view.setUint8(ql + l + 32, (y(l + 32) & 0xf) | ((y(l + 96) & 0xf) << 4));
      view.setUint8(qh + l, (y(l) >> 4) | ((y(l + 32) >> 4) << 2) | ((y(l + 64) >> 4) << 4) | ((y(l + 96) >> 4) << 6));
    }
  }
  for (let j = 0; j < 16; j++) view.setInt8(at + 192 + j, sc[j] ?? 0);
  view.setUint16(at + 208, toF16Bits(d), true);
}
