/**
 * The F16 half of the kernel check: a variant's F16 <-> F32 conversions (ggml-cpu's wasm
 * vector load and store, simd-mappings.h, which flash attention over the F16 KV cache runs on)
 * against ggml's scalar ones, and the library's ggml_vec_dot_f16 against a scalar replica of
 * its sum order (native/kernel-check/kernel-check.c). All must agree to the bit: every one of
 * the 65,536 halves, and floats drawn from every range (random bit patterns, values around
 * F16's normal, subnormal and overflow edges, NaNs and infinities). No Node or DOM APIs.
 */
import { instantiateKernelCheck, random } from './kernel-check';

export interface F16Report {
  halves: number;
  /** Halves whose SIMD conversion differs from ggml's scalar one: `[half, simd bits, scalar bits]`. */
  halfMismatches: Array<[number, number, number]>;
  floats: number;
  /** Floats whose SIMD conversion differs: `[float bits, simd half, scalar half]`. */
  floatMismatches: Array<[number, number, number]>;
  dots: number;
  /** ggml_vec_dot_f16 cases that differ from the replica: `[n, kernel, replica]`. */
  dotMismatches: Array<[number, number, number]>;
}

const FLOATS = 1 << 16;
/** Special floats: zeros, F16's largest normal and the overflow ties, its subnormal edges, ties. */
const SPECIAL = [
  0x00000000, 0x80000000, 0x477fe000, 0x477fefff, 0x477ff000, 0x477ff001, 0x47800000, 0x7f800000, 0xff800000,
  0x7fc00000, 0x7f800001, 0xffc00001, 0x38800000, 0x387fffff, 0x33800000, 0x33000000, 0x33000001, 0x32ffffff,
  0x00000001, 0x007fffff, 0x3f801000, 0x3f803000, 0x3f800fff, 0x3f801001,
];

/** Runs the F16 checks on the given kernel-check wasm (its bytes). */
export async function checkF16(wasm: Uint8Array<ArrayBuffer>, seed = 1): Promise<F16Report> {
  const exports = await instantiateKernelCheck(wasm);
  const { kc_convert: convert, kc_dot_f16: dotF16 } = exports.instance.exports;
  if (typeof convert !== 'function' || typeof dotF16 !== 'function')
    throw new Error('not a kernel-check wasm with F16 checks: it lacks kc_convert or kc_dot_f16');
  const next = random(seed);
  const input = exports.malloc(FLOATS * 4);
  const simd = exports.malloc(FLOATS * 4);
  const scalar = exports.malloc(FLOATS * 4);
  const report: F16Report = {
    halves: 0,
    halfMismatches: [],
    floats: 0,
    floatMismatches: [],
    dots: 0,
    dotMismatches: [],
  };
  const memory = (): ArrayBuffer => exports.memory.buffer;

  const halves = new Uint16Array(memory(), input, 1 << 16);
  for (let h = 0; h < 1 << 16; h++) halves[h] = h;
  convert(1, 0, 1 << 16, input, simd);
  convert(1, 1, 1 << 16, input, scalar);
  const [toF32, toF32Ref] = [new Uint32Array(memory(), simd, 1 << 16), new Uint32Array(memory(), scalar, 1 << 16)];
  for (let h = 0; h < 1 << 16; h++) {
    report.halves++;
    if (toF32[h] !== toF32Ref[h]) report.halfMismatches.push([h, toF32[h] ?? 0, toF32Ref[h] ?? 0]);
  }

  const floats = new Uint32Array(memory(), input, FLOATS);
  for (let i = 0; i < FLOATS; i++) {
    const special = SPECIAL[i];
    if (special !== undefined) floats[i] = special;
    else if (i % 2 === 0) floats[i] = Math.floor(next() * 2 ** 32);
    else {
      // Around F16's range: exponents 2^-26..2^17, either sign, any mantissa.
      const exponent = 101 + Math.floor(next() * 44);
      floats[i] = ((next() < 0.5 ? 0x80000000 : 0) | (exponent << 23) | Math.floor(next() * 2 ** 23)) >>> 0;
    }
  }
  convert(0, 0, FLOATS, input, simd);
  convert(0, 1, FLOATS, input, scalar);
  const [toF16, toF16Ref] = [new Uint16Array(memory(), simd, FLOATS), new Uint16Array(memory(), scalar, FLOATS)];
  for (let i = 0; i < FLOATS; i++) {
    report.floats++;
    if (toF16[i] !== toF16Ref[i]) report.floatMismatches.push([floats[i] ?? 0, toF16[i] ?? 0, toF16Ref[i] ?? 0]);
  }

  // ggml_vec_dot_f16 on halves of magnitude 2^-7..2^6, lengths with and without a leftover.
  const x = new Uint16Array(memory(), input, 512);
  const y = new Uint16Array(memory(), simd, 512);
  const half = (): number =>
    ((next() < 0.5 ? 0x8000 : 0) | ((8 + Math.floor(next() * 14)) << 10) | Math.floor(next() * 1024)) >>> 0;
  for (let i = 0; i < 200; i++) {
    const n = 1 + Math.floor(next() * 512);
    for (let j = 0; j < n; j++) [x[j], y[j]] = [half(), half()];
    const kernel = Number(dotF16(0, n, input, simd));
    const replica = Number(dotF16(1, n, input, simd));
    report.dots++;
    if (!Object.is(kernel, replica)) report.dotMismatches.push([n, kernel, replica]);
  }
  return report;
}
