/**
 * The committed engine (worker/engine/backends/llamacpp/wasm/) against its manifest: the glue
 * and build scripts it was built from are unchanged since (else the wasm is stale: run
 * `npm run build:engine`), each output is the file the build wrote, every output was built from
 * these inputs and this toolchain (a build of some variants only, ENGINE_VARIANTS, fails here
 * until all are built again), the toolchain is named by its Debian versions, the wasm has ggml's
 * wasm SIMD kernels (i32x4.dot_i16x8_s in the quantized dot products), which a build that
 * misdetects the architecture leaves out, only the relaxed variants (and the kernel check)
 * have the relaxed-SIMD int8 dot products, and the pthreads variants have shared memory, with a
 * loader that spawns its pool from its own URL.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildDigest, engineInputs, sha256 } from '../../../../../../scripts/engine/engine-inputs.mjs';

const DIR = 'worker/engine/backends/llamacpp/wasm';
const manifest = JSON.parse(readFileSync(`${DIR}/manifest.json`, 'utf8')) as {
  llamaCpp: { tag: string; bundleSha256: string };
  dawn: { tag: string; commit: string; generatorInputsSha256: string; packageSha256: string };
  toolchain: { emcc: string; debian: Record<string, string> };
  variants: string[];
  inputs: Record<string, string>;
  outputs: Record<string, { bytes: number; sha256: string; builtFrom: string }>;
};

/** Unsigned LEB128 at `at` in `bytes`: [value, the offset after it]. */
function leb128(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[at++] ?? 0;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
  }
}

/** The byte range of the module's section `sectionId` (10: code, 2: imports). */
function section(wasm: Uint8Array, sectionId: number): Uint8Array {
  for (let at = 8; at < wasm.length;) {
    const id = wasm[at] ?? 0;
    const [size, start] = leb128(wasm, at + 1);
    if (id === sectionId) return wasm.subarray(start, start + size);
    at = start + size;
  }
  throw new Error(`no section ${sectionId}`);
}

const codeSection = (wasm: Uint8Array) => section(wasm, 10);

/** The limits flags of the module's imported memory (bit 1: shared), or null where it imports none. */
function importedMemoryFlags(wasm: Uint8Array): number | null {
  const imports = section(wasm, 2);
  let [count, at] = leb128(imports, 0);
  for (; count > 0; count--) {
    for (let name = 0; name < 2; name++) {
      const [length, after] = leb128(imports, at);
      at = after + length;
    }
    const kind = imports[at++];
    if (kind === 0x02) return imports[at] ?? null;
    // A function's type index, a table's type and limits, a global's type and mutability.
    if (kind === 0x00) at = leb128(imports, at)[1];
    else if (kind === 0x01) {
      const flags = imports[at + 1] ?? 0;
      at = leb128(imports, at + 2)[1];
      if (flags & 1) at = leb128(imports, at)[1];
    } else if (kind === 0x03) at += 2;
    else throw new Error(`import kind ${kind}`);
  }
  return null;
}

/**
 * How often the SIMD opcode `op` (0xFD prefix, LEB128 opcode) occurs in `code`: its bytes, less
 * those that are an `i32.const`'s or `i64.const`'s immediate (`41 fd 92 02` is `i32.const 35197`,
 * which the reasoning budget's build of `simd-mt` holds: no relaxed op, as wasm-dis shows).
 */
function countSimd(code: Uint8Array, op: number): number {
  const pattern = [0xfd, (op & 0x7f) | 0x80, op >> 7];
  let count = 0;
  for (let i = 0; i + 2 < code.length; i++)
    if (code[i] === pattern[0] && code[i + 1] === pattern[1] && code[i + 2] === pattern[2])
      if (code[i - 1] !== 0x41 && code[i - 1] !== 0x42) count++;
  return count;
}

describe('the committed llama.cpp engine', () => {
  it('was built from the glue and build scripts in this checkout', () => {
    expect(engineInputs('.')).toEqual(manifest.inputs);
  });

  it('is the output the build recorded', () => {
    for (const [name, recorded] of Object.entries(manifest.outputs)) {
      const bytes = readFileSync(`${DIR}/${name}`);
      expect({ name, bytes: bytes.length, sha256: sha256(bytes) }).toEqual({
        name,
        bytes: recorded.bytes,
        sha256: recorded.sha256,
      });
    }
  });

  it('every output was built from the same inputs, those above (not a build of some variants only)', () => {
    const digest = buildDigest(manifest);
    const from = Object.entries(manifest.outputs).map(([name, { builtFrom }]) => ({ name, builtFrom }));
    expect(from).toEqual(Object.keys(manifest.outputs).map((name) => ({ name, builtFrom: digest })));
  });

  it("names Dawn's tag and commit, and the sha256 of the generator's inputs and of the package it made (engine-config.sh)", () => {
    const config = readFileSync('scripts/engine/engine-config.sh', 'utf8');
    const pin = (name: string) => new RegExp(`^${name}=(\\S+)$`, 'm').exec(config)?.[1];
    expect(manifest.dawn).toMatchObject({
      tag: pin('DAWN_TAG'),
      commit: pin('DAWN_COMMIT'),
      generatorInputsSha256: pin('DAWN_INPUTS_SHA256'),
      packageSha256: pin('DAWN_PACKAGE_SHA256'),
    });
    expect(manifest.dawn.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(manifest.dawn.packageSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("names the toolchain's Debian package versions: emscripten, clang, lld, binaryen", () => {
    const packages = Object.keys(manifest.toolchain.debian).map((name) => name.replace(/-\d+$/, ''));
    expect(packages).toEqual(expect.arrayContaining(['emscripten', 'clang', 'lld', 'binaryen']));
    for (const version of Object.values(manifest.toolchain.debian)) expect(version).toMatch(/^\S+$/);
  });

  const code = (name: string) => codeSection(new Uint8Array(readFileSync(`${DIR}/${name}`)));
  const I32X4_DOT_I16X8_S = 186;
  const I16X8_RELAXED_DOT_I8X16_I7X16_S = 274;

  it('has the nine variants, their five loaders and the kernel checks', () => {
    expect(manifest.variants).toEqual([
      'simd:',
      'relaxed:-mrelaxed-simd',
      'simd-mt:-pthread',
      'relaxed-mt:-mrelaxed-simd -pthread',
      'simd-m64:-sMEMORY64=1',
      'relaxed-m64:-mrelaxed-simd -sMEMORY64=1',
      'simd-m64-mt:-sMEMORY64=1 -pthread',
      'relaxed-m64-mt:-mrelaxed-simd -sMEMORY64=1 -pthread',
      'webgpu:-sJSPI',
    ]);
    expect(Object.keys(manifest.outputs)).toEqual([
      'kernel-check-relaxed.wasm',
      'kernel-check-simd.wasm',
      'llama-engine-m64-mt.mjs',
      'llama-engine-m64.mjs',
      'llama-engine-mt.mjs',
      'llama-engine-relaxed-m64-mt.wasm',
      'llama-engine-relaxed-m64.wasm',
      'llama-engine-relaxed-mt.wasm',
      'llama-engine-relaxed.wasm',
      'llama-engine-simd-m64-mt.wasm',
      'llama-engine-simd-m64.wasm',
      'llama-engine-simd-mt.wasm',
      'llama-engine-simd.wasm',
      'llama-engine-webgpu.mjs',
      'llama-engine-webgpu.wasm',
      'llama-engine.mjs',
    ]);
  });

  const ENGINES = [
    'llama-engine-simd.wasm',
    'llama-engine-relaxed.wasm',
    'llama-engine-simd-mt.wasm',
    'llama-engine-relaxed-mt.wasm',
    'llama-engine-simd-m64.wasm',
    'llama-engine-relaxed-m64.wasm',
    'llama-engine-simd-m64-mt.wasm',
    'llama-engine-relaxed-m64-mt.wasm',
    'llama-engine-webgpu.wasm',
  ];

  it.each(ENGINES)("%s holds ggml's wasm SIMD kernels", (name) => {
    expect(countSimd(code(name), I32X4_DOT_I16X8_S)).toBeGreaterThanOrEqual(20);
  });

  it('only the relaxed builds hold relaxed-SIMD dot products (q4_0, q4_K, q6_K)', () => {
    const simd = ENGINES.filter((name) => name.includes('-simd') || name.includes('-webgpu'));
    const relaxed = ENGINES.filter((name) => name.includes('-relaxed'));
    for (const name of [...simd, 'kernel-check-simd.wasm'])
      expect({ name, count: countSimd(code(name), I16X8_RELAXED_DOT_I8X16_I7X16_S) }).toEqual({ name, count: 0 });
    for (const name of [...relaxed, 'kernel-check-relaxed.wasm'])
      expect(countSimd(code(name), I16X8_RELAXED_DOT_I8X16_I7X16_S)).toBeGreaterThanOrEqual(12);
  });

  it('the pthreads builds import a shared memory (the SharedArrayBuffer every thread shares); the others make their own', () => {
    const shared = (name: string) => {
      const flags = importedMemoryFlags(new Uint8Array(readFileSync(`${DIR}/${name}`)));
      return flags === null ? 'own memory' : (flags & 2) !== 0 ? 'shared' : 'imported, not shared';
    };
    expect(ENGINES.map(shared)).toEqual([
      'own memory',
      'own memory',
      'shared',
      'shared',
      'own memory',
      'own memory',
      'shared',
      'shared',
      'own memory',
    ]);
  });

  it('the -m64 builds have a 64-bit memory (up to 16 GiB), the others a 32-bit one (up to 4 GiB)', () => {
    const memory = (name: string) => {
      const wasm = new Uint8Array(readFileSync(`${DIR}/${name}`));
      const imported = importedMemoryFlags(wasm);
      const flags = imported ?? section(wasm, 5)[1] ?? 0;
      return (flags & 4) !== 0 ? 'memory64' : 'wasm32';
    };
    expect(ENGINES.map((name) => ({ name, memory: memory(name) }))).toEqual(
      ENGINES.map((name) => ({ name, memory: name.includes('-m64') ? 'memory64' : 'wasm32' })),
    );
  });

  it("the memory64 loaders hand the glue's pointers over as Numbers (Emscripten's signature conversions)", () => {
    for (const name of ['llama-engine-m64.mjs', 'llama-engine-m64-mt.mjs']) {
      const loader = readFileSync(`${DIR}/${name}`, 'utf8');
      expect(loader).toContain('applySignatureConversions');
      expect(loader).toContain('var makeWrapper_p=f=>()=>Number(f())');
    }
  });

  it('the WebGPU build links ggml-webgpu and waits through JSPI: its loader wraps the exports that may suspend', () => {
    const loader = readFileSync(`${DIR}/llama-engine-webgpu.mjs`, 'utf8');
    expect(loader).toContain('WebAssembly.promising');
    expect(loader).toContain('WebAssembly.Suspending');
    // Dawn's binding (emdawnwebgpu) asks the browser for the adapter and the device.
    expect(loader).toContain('requestAdapter');
    expect(loader).toContain('requestDevice');
    for (const name of ['llama-engine.mjs', 'llama-engine-mt.mjs', 'llama-engine-m64.mjs'])
      expect({ name, jspi: readFileSync(`${DIR}/${name}`, 'utf8').includes('WebAssembly.promising') }).toEqual({
        name,
        jspi: false,
      });
  });

  it.each(['llama-engine-mt.mjs', 'llama-engine-m64-mt.mjs'])(
    "the pthreads loader %s spawns its pool's Workers from its own URL, whatever a bundler names it",
    (file) => {
      const loader = readFileSync(`${DIR}/${file}`, 'utf8');
      expect(loader).toContain('new URL(import.meta.url)');
      expect(loader).not.toContain('"llama-engine.js"');
      expect(loader).toContain('Module.pthreadPoolSize');
      expect(loader).toContain('stopThreads');
    },
  );
});
