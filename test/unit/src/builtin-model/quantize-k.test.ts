/**
 * The bench's Q4_K and Q6_K blocks (src/builtin-model/quantize-k.ts), decoded here by
 * transcriptions of ggml's `dequantize_row_q4_K` and `dequantize_row_q6_K`: the values come
 * back within each sub-block's quantization step.
 */
import { describe, expect, it } from 'vitest';
import { encodeTensor, fromF16Bits, tensorBytes } from '../../../../src/builtin-model/quantize';

function dequantizeQ4K(b: Uint8Array): number[] {
  const v = new DataView(b.buffer, b.byteOffset);
  const d = fromF16Bits(v.getUint16(0, true));
  const dmin = fromF16Bits(v.getUint16(2, true));
  const q = (i: number): number => b[4 + i] ?? 0;
  const scaleMin = (j: number): [number, number] =>
    j < 4
      ? [q(j) & 63, q(j + 4) & 63]
      : [(q(j + 4) & 0xf) | ((q(j - 4) >> 6) << 4), (q(j + 4) >> 4) | ((q(j) >> 6) << 4)];
  const out: number[] = [];
  for (let pair = 0; pair < 4; pair++) {
    for (const [shift, j] of [
      [0, 2 * pair],
      [4, 2 * pair + 1],
    ] as const) {
      const [sc, m] = scaleMin(j);
      for (let l = 0; l < 32; l++) out.push(d * sc * (((b[16 + 32 * pair + l] ?? 0) >> shift) & 0xf) - dmin * m);
    }
  }
  return out;
}

function dequantizeQ6K(b: Uint8Array): number[] {
  const d = fromF16Bits(new DataView(b.buffer, b.byteOffset).getUint16(208, true));
  const out = new Array<number>(256).fill(0);
  for (let half = 0; half < 2; half++) {
    const ql = 64 * half;
    const qh = 128 + 32 * half;
    const sc = (i: number): number => new Int8Array(b.buffer, b.byteOffset + 192 + 8 * half, 8)[i] ?? 0;
    for (let l = 0; l < 32; l++) {
      const is = Math.floor(l / 16);
      const h = b[qh + l] ?? 0;
      const lo = b[ql + l] ?? 0;
      const hi = b[ql + l + 32] ?? 0;
      out[128 * half + l] = d * sc(is) * (((lo & 0xf) | ((h & 3) << 4)) - 32);
      out[128 * half + l + 32] = d * sc(is + 2) * (((hi & 0xf) | (((h >> 2) & 3) << 4)) - 32);
      out[128 * half + l + 64] = d * sc(is + 4) * (((lo >> 4) | (((h >> 4) & 3) << 4)) - 32);
      out[128 * half + l + 96] = d * sc(is + 6) * (((hi >> 4) | (((h >> 6) & 3) << 4)) - 32);
    }
  }
  return out;
}

const values = Float32Array.from({ length: 512 }, (_, i) => Math.sin(i * 0.37) * (1 + (i % 7)) * 0.05);

describe('K-quant blocks', () => {
  it('take 144 (Q4_K) and 210 (Q6_K) bytes per 256 values, and refuse partial super-blocks', () => {
    expect([tensorBytes('q4_K', 512), tensorBytes('q6_K', 512)]).toEqual([288, 420]);
    expect(() => tensorBytes('q4_K', 32)).toThrow(RangeError);
  });

  it.each([
    ['q4_K', dequantizeQ4K, 144, 1 / 15],
    ['q6_K', dequantizeQ6K, 210, 1 / 32],
  ] as const)('%s decodes (as ggml decodes it) to the values written', (type, decode, bytes, step) => {
    const encoded = encodeTensor(type, values);
    for (let block = 0; block < 2; block++) {
      const decoded = decode(encoded.subarray(block * bytes, (block + 1) * bytes));
      const x = values.subarray(256 * block, 256 * block + 256);
      const range = Math.max(...x) - Math.min(0, ...x);
      decoded.forEach((value, i) => expect(Math.abs(value - (x[i] ?? 0))).toBeLessThan(range * step * 1.2));
      // Not trivially close: the decoded values follow the input.
      expect(new Set(decoded.map((value) => value.toFixed(4))).size).toBeGreaterThan(20);
    }
  });
});
