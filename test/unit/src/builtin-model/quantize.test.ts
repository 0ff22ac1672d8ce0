/** The tensor encodings of the GGUF writer: F16 rounding and ggml's Q8_0 / Q4_0 block layouts. */
import { describe, expect, it } from 'vitest';
import { writeGguf } from '../../../../src/builtin-model/gguf-writer';
import { encodeTensor, fromF16Bits, tensorBytes, toF16Bits } from '../../../../src/builtin-model/quantize';

const block = (f: (j: number) => number): Float32Array => Float32Array.from({ length: 32 }, (_, j) => f(j));
const u16 = (bytes: Uint8Array, at: number): number => (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);

describe('toF16Bits', () => {
  it('encodes exact values, infinities, NaN and signed zero', () => {
    expect(toF16Bits(1)).toBe(0x3c00);
    expect(toF16Bits(-2)).toBe(0xc000);
    expect(toF16Bits(65504)).toBe(0x7bff);
    expect(toF16Bits(1e6)).toBe(0x7c00);
    expect(toF16Bits(-Infinity)).toBe(0xfc00);
    expect(toF16Bits(NaN) & 0x7c00).toBe(0x7c00);
    expect(toF16Bits(-0)).toBe(0x8000);
    expect(toF16Bits(2 ** -24)).toBe(0x0001);
    expect(toF16Bits(2 ** -14)).toBe(0x0400);
  });

  it('rounds to nearest, ties to even', () => {
    expect(toF16Bits(1 + 2 ** -11)).toBe(0x3c00); // tie, even stays
    expect(toF16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie, odd rounds up
    expect(toF16Bits(1 + 2 ** -11 + 2 ** -20)).toBe(0x3c01);
    for (const v of [0.1, -3.14159, 1234.5, 6e-5, 1e-7])
      expect(Math.abs(fromF16Bits(toF16Bits(v)) - v)).toBeLessThanOrEqual(Math.abs(v) * 2 ** -11 + 2 ** -25);
  });
});

describe('encodeTensor', () => {
  it('sizes: F32 4, F16 2, Q8_0 34 and Q4_0 18 bytes per 32 values', () => {
    expect([tensorBytes('f32', 64), tensorBytes('f16', 64), tensorBytes('q8_0', 64), tensorBytes('q4_0', 64)]).toEqual([
      256, 128, 68, 36,
    ]);
    expect(() => tensorBytes('q8_0', 33)).toThrow(RangeError);
  });

  it('Q8_0: f16 scale amax/127, then round(x / d) as int8', () => {
    const x = block((j) => (j - 16) / 4); // -4 .. 3.75
    const bytes = encodeTensor('q8_0', x);
    expect(bytes.length).toBe(34);
    const d = fromF16Bits(u16(bytes, 0));
    expect(d).toBeCloseTo(4 / 127, 4);
    const q = new Int8Array(bytes.buffer, 2, 32);
    expect(q[0]).toBe(-127);
    expect(q[16]).toBe(0);
    for (let j = 0; j < 32; j++) expect(Math.abs((q[j] ?? 0) * d - (x[j] ?? 0))).toBeLessThan(d);
  });

  it('Q4_0: f16 scale max/-8, value j in the low nibble and j+16 in the high nibble, offset 8', () => {
    const x = block((j) => (j < 16 ? -8 + j : (j - 16) / 2)); // largest magnitude: -8 at j = 0
    const bytes = encodeTensor('q4_0', x);
    expect(bytes.length).toBe(18);
    expect(fromF16Bits(u16(bytes, 0))).toBe(1);
    const q = (j: number): number => (j < 16 ? (bytes[2 + j] ?? 0) & 15 : (bytes[2 + j - 16] ?? 0) >> 4);
    expect(q(0)).toBe(0); // -8 / 1 + 8
    expect(q(15)).toBe(15); // 7 + 8
    expect(q(16)).toBe(8); // 0 + 8
    expect(q(17)).toBe(9); // trunc(0.5 + 8.5)
  });

  it('an all-zero block has scale 0 and centred codes', () => {
    const q4 = encodeTensor('q4_0', new Float32Array(32));
    expect(Array.from(q4.subarray(2))).toEqual(new Array(16).fill(0x88));
    const q8 = encodeTensor('q8_0', new Float32Array(32));
    expect(Array.from(q8)).toEqual(new Array(34).fill(0));
  });
});

describe('writeGguf with quantized tensors', () => {
  it('records each type code and lays the encoded data out aligned', () => {
    const data = block((j) => j - 10);
    const file = writeGguf({
      metadata: [],
      tensors: [
        { name: 'a', dims: [32], data, type: 'q4_0' },
        { name: 'b', dims: [32], data, type: 'q8_0' },
      ],
    });
    // Tensor info: u64 name length, name, u32 n_dims, u64 ne0, u32 type.
    const info = (name: string, type: number): number[] => [
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      name.charCodeAt(0),
      1,
      0,
      0,
      0,
      32,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      type,
      0,
      0,
      0,
    ];
    const has = (pattern: number[]): boolean => file.some((_, i) => pattern.every((b, k) => file[i + k] === b));
    expect(has(info('a', 2))).toBe(true);
    expect(has(info('b', 8))).toBe(true);
    // Data: q4_0 (18 bytes) padded to 32, then q8_0 (34 bytes) at the end.
    expect(Array.from(file.subarray(file.length - 34))).toEqual(Array.from(encodeTensor('q8_0', data)));
    expect(Array.from(file.subarray(file.length - 66, file.length - 48))).toEqual(
      Array.from(encodeTensor('q4_0', data)),
    );
    expect(() =>
      writeGguf({ metadata: [], tensors: [{ name: 'c', dims: [31], data: data.subarray(0, 31), type: 'q8_0' }] }),
    ).toThrow(RangeError);
  });
});
