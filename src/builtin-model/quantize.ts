/**
 * Tensor encodings for the GGUF writer, bit-for-bit as ggml's reference quantizers
 * (`quantize_row_q8_0_ref`, `quantize_row_q4_0_ref` in ggml-quants.c):
 * - F16: IEEE half, round to nearest even.
 * - Q8_0: blocks of 32 values = f16 scale d = amax / 127, then 32 int8 round(x / d).
 * - Q4_0: blocks of 32 values = f16 scale d = max / -8 (max = the value of largest magnitude),
 *   then 16 bytes; byte j holds value j in its low nibble and value j + 16 in its high nibble,
 *   each as min(15, trunc(x / d + 8.5)) (stored with an offset of 8).
 * - Q4_K, Q6_K: ggml's super-block layouts with plain rounding (quantize-k.ts), for the bench.
 */
import { Q4_K_BYTES, Q6_K_BYTES, QK_K, quantizeQ4KBlock, quantizeQ6KBlock } from './quantize-k';

/** Tensor types the writer can emit, with their ggml type codes. */
export const GGML_TYPE = { f32: 0, f16: 1, q4_0: 2, q8_0: 8, q4_K: 12, q6_K: 14 } as const;
export type GgmlType = keyof typeof GGML_TYPE;

/** Values per block: quantized rows must be a multiple of this. */
export const QK = 32;
const BLOCK_BYTES: Record<GgmlType, number> = {
  f32: 4,
  f16: 2,
  q8_0: 2 + QK,
  q4_0: 2 + QK / 2,
  q4_K: Q4_K_BYTES,
  q6_K: Q6_K_BYTES,
};
const BLOCK_VALUES: Record<GgmlType, number> = { f32: 1, f16: 1, q8_0: QK, q4_0: QK, q4_K: QK_K, q6_K: QK_K };

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The IEEE half-precision bits of `value` (round to nearest even; overflow to infinity). */
export function toF16Bits(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    const half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (half + (rest > mid || (rest === mid && half & 1) ? 1 : 0));
  }
  let half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && half & 1)) half += 1; // a carry into the exponent is still right
  return sign | half;
}

/** The value of IEEE half bits. */
export function fromF16Bits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >>> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** Bytes taken by `count` values of `type` (`count` a multiple of the block size). */
export function tensorBytes(type: GgmlType, count: number): number {
  if (count % BLOCK_VALUES[type] !== 0)
    throw new RangeError(`${type} needs a multiple of ${BLOCK_VALUES[type]} values, got ${count}`);
  return (count / BLOCK_VALUES[type]) * BLOCK_BYTES[type];
}

/** Encodes F32 values as `type` (little-endian, ggml block layout). */
export function encodeTensor(type: GgmlType, data: Float32Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(tensorBytes(type, data.length));
  const view = new DataView(out.buffer);
  if (type === 'f32') {
    if (littleEndian) out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    else data.forEach((v, i) => view.setFloat32(4 * i, v, true));
  } else if (type === 'f16') {
    data.forEach((v, i) => view.setUint16(2 * i, toF16Bits(v), true));
  } else if (type === 'q4_K' || type === 'q6_K') {
    const quantize = type === 'q4_K' ? quantizeQ4KBlock : quantizeQ6KBlock;
    for (let block = 0; block * QK_K < data.length; block++)
      quantize(data.subarray(block * QK_K, (block + 1) * QK_K), view, block * BLOCK_BYTES[type]);
  } else {
    for (let block = 0; block * QK < data.length; block++) {
      const values = data.subarray(block * QK, (block + 1) * QK);
      const at = block * BLOCK_BYTES[type];
      if (type === 'q8_0') quantizeQ8Block(values, view, at);
      else quantizeQ4Block(values, view, at);
    }
  }
  return out;
}

function quantizeQ8Block(x: Float32Array, view: DataView, at: number): void {
  let amax = 0;
  for (const v of x) amax = Math.max(amax, Math.abs(v));
  const d = Math.fround(amax / 127);
  const id = d ? Math.fround(1 / d) : 0;
  view.setUint16(at, toF16Bits(d), true);
  for (let j = 0; j < QK; j++) view.setInt8(at + 2 + j, roundAway(Math.fround((x[j] ?? 0) * id)));
}

function quantizeQ4Block(x: Float32Array, view: DataView, at: number): void {
  let amax = 0;
  let max = 0;
  for (const v of x) {
    if (amax < Math.abs(v)) {
      amax = Math.abs(v);
      max = v;
    }
  }
  const d = Math.fround(max / -8);
  const id = d ? Math.fround(1 / d) : 0;
  view.setUint16(at, toF16Bits(d), true);
  const nibble = (v: number): number => Math.min(15, Math.trunc(Math.fround(Math.fround(v * id) + 8.5)));
  for (let j = 0; j < QK / 2; j++) view.setUint8(at + 2 + j, nibble(x[j] ?? 0) | (nibble(x[j + QK / 2] ?? 0) << 4));
}

/** C's roundf: halves away from zero. */
function roundAway(v: number): number {
  return Math.sign(v) * Math.round(Math.abs(v));
}
