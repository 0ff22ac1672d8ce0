/**
 * The committed engine (worker/engine/backends/llamacpp/wasm/) against its manifest: the glue
 * and build scripts it was built from are unchanged since (else the wasm is stale: run
 * `npm run build:engine`), each output is the file the build wrote, the wasm has ggml's
 * wasm SIMD kernels (i32x4.dot_i16x8_s in the quantized dot products), which a build that
 * misdetects the architecture leaves out, and only the relaxed variant (and its kernel check)
 * has the relaxed-SIMD int8 dot products.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { engineInputs, sha256 } from '../../../../../../scripts/engine/engine-inputs.mjs';

const DIR = 'worker/engine/backends/llamacpp/wasm';
const manifest = JSON.parse(readFileSync(`${DIR}/manifest.json`, 'utf8')) as {
  llamaCpp: { tag: string; bundleSha256: string };
  variants: string[];
  inputs: Record<string, string>;
  outputs: Record<string, { bytes: number; sha256: string }>;
};

/** The byte range of the module's code section (id 10). */
function codeSection(wasm: Uint8Array): Uint8Array {
  const leb = (at: number): [number, number] => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = wasm[at++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (byte < 0x80) return [value, at];
    }
  };
  for (let at = 8; at < wasm.length;) {
    const id = wasm[at] ?? 0;
    const [size, start] = leb(at + 1);
    if (id === 10) return wasm.subarray(start, start + size);
    at = start + size;
  }
  throw new Error('no code section');
}

/** How often the SIMD opcode `op` (0xFD prefix, LEB128 opcode) occurs in `code`. */
function countSimd(code: Uint8Array, op: number): number {
  const pattern = [0xfd, (op & 0x7f) | 0x80, op >> 7];
  let count = 0;
  for (let i = 0; i + 2 < code.length; i++)
    if (code[i] === pattern[0] && code[i + 1] === pattern[1] && code[i + 2] === pattern[2]) count++;
  return count;
}

describe('the committed llama.cpp engine', () => {
  it('was built from the glue and build scripts in this checkout', () => {
    expect(engineInputs('.')).toEqual(manifest.inputs);
  });

  it('is the output the build recorded', () => {
    for (const [name, recorded] of Object.entries(manifest.outputs)) {
      const bytes = readFileSync(`${DIR}/${name}`);
      expect({ name, bytes: bytes.length, sha256: sha256(bytes) }).toEqual({ name, ...recorded });
    }
  });

  const code = (name: string) => codeSection(new Uint8Array(readFileSync(`${DIR}/${name}`)));
  const I32X4_DOT_I16X8_S = 186;
  const I16X8_RELAXED_DOT_I8X16_I7X16_S = 274;

  it('has the two variants and their kernel checks', () => {
    expect(manifest.variants).toEqual(['simd:', 'relaxed:-mrelaxed-simd']);
    expect(Object.keys(manifest.outputs)).toEqual([
      'kernel-check-relaxed.wasm',
      'kernel-check-simd.wasm',
      'llama-engine-relaxed.wasm',
      'llama-engine-simd.wasm',
      'llama-engine.mjs',
    ]);
  });

  it.each(['llama-engine-simd.wasm', 'llama-engine-relaxed.wasm'])("%s holds ggml's wasm SIMD kernels", (name) => {
    expect(countSimd(code(name), I32X4_DOT_I16X8_S)).toBeGreaterThanOrEqual(20);
  });

  it('only the relaxed builds hold relaxed-SIMD dot products (q4_0, q4_K, q6_K)', () => {
    for (const name of ['llama-engine-simd.wasm', 'kernel-check-simd.wasm'])
      expect({ name, count: countSimd(code(name), I16X8_RELAXED_DOT_I8X16_I7X16_S) }).toEqual({ name, count: 0 });
    for (const name of ['llama-engine-relaxed.wasm', 'kernel-check-relaxed.wasm'])
      expect(countSimd(code(name), I16X8_RELAXED_DOT_I8X16_I7X16_S)).toBeGreaterThanOrEqual(12);
  });
});
