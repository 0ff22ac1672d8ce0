/**
 * Whether this browser runs WebAssembly relaxed SIMD, the feature the engine's `relaxed` variant
 * needs (its int8 dot products, `i16x8.relaxed_dot_i8x16_i7x16_s`). Asked by validating a
 * module of one function that uses that very instruction; engines without relaxed SIMD reject
 * it and get the plain SIMD128 variant.
 */

const V128_ZERO = [0xfd, 0x0c, ...new Array<number>(16).fill(0)];
/** `(func (result v128) (i16x8.relaxed_dot_i8x16_i7x16_s (v128.const 0) (v128.const 0)))` */
const BODY = [0x00, ...V128_ZERO, ...V128_ZERO, 0xfd, 0x92, 0x02, 0x0b];
const PROBE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // magic, version 1
  ...[0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b], // types: () -> v128
  ...[0x03, 0x02, 0x01, 0x00], // functions: one of type 0
  ...[0x0a, BODY.length + 2, 0x01, BODY.length, ...BODY], // code
]);

let answer: boolean | undefined;

/** True where relaxed SIMD validates (asked once). */
export function hasRelaxedSimd(): boolean {
  answer ??= WebAssembly.validate(PROBE);
  return answer;
}

/** The probe's bytes, for the test that checks it against a plain SIMD module. */
export const relaxedSimdProbe = (): Uint8Array<ArrayBuffer> => PROBE.slice();
