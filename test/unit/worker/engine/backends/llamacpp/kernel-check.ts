/**
 * The kernel check: runs a variant's kernel-check wasm (native/kernel-check/kernel-check.c)
 * on random blocks and compares each quantized dot product kernel with ggml's scalar reference
 * from the same build. No Node or DOM APIs: the unit test runs it in Node, the e2e spec in
 * Chromium.
 *
 * Exact cases keep every scale at 1 (or small, for the K-quants' 6/8-bit sub-block scales) so
 * each partial sum is an integer below 2^24 and any order of float additions gives the same
 * float: kernel and reference must agree to the bit, with the quants over their whole range
 * (int8 -128..127, every nibble), which is where relaxed SIMD's implementation-defined cases
 * would show. Float cases use random scales and compare within a tolerance.
 *
 * Where the variant has a 2x2 tile kernel (nrc 2: two weight rows by two activation columns, the
 * prefill path; q4_0, q8_0 and q4_K in the relaxed variant), each of its four results must be the single
 * dot product of that row and column bit for bit, in exact and float cases alike.
 */

export const KINDS = ['q4_0', 'q8_0', 'q4_K', 'q6_K'] as const;

/** A 2x2 tile's four results in the order the kernel writes them: [row, column] of each. */
export const TILE_CELLS: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [1, 0],
  [0, 1],
  [1, 1],
];
export type Kind = (typeof KINDS)[number];

export interface KindReport {
  kind: Kind;
  exactCases: number;
  /** Exact cases where kernel and reference differ (each `[kernel, reference]`). */
  exactMismatches: Array<[number, number]>;
  floatCases: number;
  /** The largest |kernel - reference| / the largest |reference| over the float cases. */
  worstRelative: number;
  /** The reference equals an independent computation here (q4_0 and q8_0): the blocks are laid out right. */
  referenceChecked: boolean;
  /** The largest |reference| among the exact cases (0 would mean the check compared nothing). */
  largestExact: number;
  /** 2x2 tiles compared (0 where the variant has no tile kernel for this kind). */
  tileCases: number;
  /** Tile results that differ from the single dot product of their row and column (`[tile, single]`). */
  tileMismatches: Array<[number, number]>;
}

export interface Exports {
  memory: WebAssembly.Memory;
  malloc(bytes: number): number;
  dot(kind: number, reference: number, n: number, x: number, y: number): number;
  /** The 2x2 tile into `out` (4 floats); false where the variant has none for the kind. */
  dot2(kind: number, n: number, x: number, bx: number, y: number, by: number, out: number): boolean;
  instance: WebAssembly.Instance;
}

/** Instantiates a kernel-check wasm (its bytes) and returns its exports, checked. */
export async function instantiateKernelCheck(wasm: Uint8Array<ArrayBuffer>): Promise<Exports> {
  const module = await WebAssembly.compile(wasm);
  // The C library's WASI imports (clock, environment, stdout): none is needed, each says ENOSYS.
  const imports: WebAssembly.Imports = {};
  for (const { module: from, name } of WebAssembly.Module.imports(module)) (imports[from] ??= {})[name] = () => 52;
  return kernelExports(await WebAssembly.instantiate(module, imports));
}

/** The kernel-check module's exports, checked (a wasm that is not one fails here). */
function kernelExports(instance: WebAssembly.Instance): Exports {
  const {
    memory,
    _initialize: initialize,
    kc_init: init,
    kc_malloc: malloc,
    kc_dot: dot,
    kc_dot2: dot2,
  } = instance.exports;
  if (
    !(memory instanceof WebAssembly.Memory) ||
    typeof initialize !== 'function' ||
    typeof init !== 'function' ||
    typeof malloc !== 'function' ||
    typeof dot !== 'function' ||
    typeof dot2 !== 'function'
  )
    throw new Error('not a kernel-check wasm: it lacks memory, _initialize, kc_init, kc_malloc, kc_dot or kc_dot2');
  initialize();
  init();
  return {
    memory,
    malloc: (bytes) => Number(malloc(bytes)),
    dot: (kind, reference, n, x, y) => Number(dot(kind, reference, n, x, y)),
    dot2: (kind, n, x, bx, y, by, out) => Number(dot2(kind, n, x, bx, y, by, out)) === 1,
    instance,
  };
}

/** mulberry32: a small seeded generator, so a failure is reproducible. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FP16_ONE = 0x3c00;
/** Bytes per block: the weights' type, then the activations' (q8_0 or q8_K). */
const LAYOUT: Record<Kind, { values: number; x: number; y: number }> = {
  q4_0: { values: 32, x: 18, y: 34 },
  q8_0: { values: 32, x: 34, y: 34 },
  q4_K: { values: 256, x: 144, y: 292 },
  q6_K: { values: 256, x: 210, y: 292 },
};

type Mode = 'exact' | 'float' | 'extreme';

class Blocks {
  constructor(
    readonly bytes: Uint8Array,
    readonly view: DataView,
    readonly next: () => number,
  ) {}
  byte = (): number => Math.floor(this.next() * 256);
  /** A random finite fp16 scale, 2^-6..2^2 with either sign. */
  half = (): number =>
    ((this.next() < 0.5 ? 0x8000 : 0) | ((9 + Math.floor(this.next() * 8)) << 10) | this.byte()) >>> 0;
  fill(at: number, count: number, value: () => number): void {
    for (let i = 0; i < count; i++) this.bytes[at + i] = value() & 0xff;
  }
}

/** An int8 from {-128, -127, 0, 127} or a nibble pattern from its extremes. */
const EXTREME_INT8 = [0x80, 0x81, 0x00, 0x7f];
const EXTREME_NIBBLES = [0x00, 0xff, 0x0f, 0xf0, 0x88, 0x77];

function writeX(b: Blocks, kind: Kind, at: number, mode: Mode): void {
  const pick = (values: number[]) => () => values[Math.floor(b.next() * values.length)] ?? 0;
  const quant = mode === 'extreme' ? pick(kind === 'q8_0' ? EXTREME_INT8 : EXTREME_NIBBLES) : b.byte;
  const scale = mode === 'float' ? b.half() : FP16_ONE;
  switch (kind) {
    case 'q4_0':
    case 'q8_0':
      b.view.setUint16(at, scale, true);
      b.fill(at + 2, kind === 'q4_0' ? 16 : 32, quant);
      return;
    case 'q4_K':
      b.view.setUint16(at, scale, true);
      b.view.setUint16(at + 2, mode === 'float' ? b.half() : FP16_ONE, true);
      // 12 bytes of 6-bit scales and mins; exact cases keep each of them at most 3.
      b.fill(at + 4, 8, mode === 'float' ? b.byte : () => b.byte() & 0x03);
      b.fill(at + 12, 4, mode === 'float' ? b.byte : () => b.byte() & 0x33);
      b.fill(at + 16, 128, quant);
      return;
    case 'q6_K':
      b.fill(at, 192, quant);
      // int8 sub-block scales; exact cases keep them in -4..3.
      b.fill(at + 192, 16, mode === 'float' ? b.byte : () => (b.byte() & 0x07) - 4);
      b.view.setUint16(at + 208, scale, true);
      return;
  }
}

function writeY(b: Blocks, kind: Kind, at: number, mode: Mode): void {
  const quant = mode === 'extreme' ? () => EXTREME_INT8[Math.floor(b.next() * 4)] ?? 0 : b.byte;
  if (kind === 'q4_0' || kind === 'q8_0') {
    b.view.setUint16(at, mode === 'float' ? b.half() : FP16_ONE, true);
    b.fill(at + 2, 32, quant);
    return;
  }
  b.view.setFloat32(at, mode === 'float' ? 0.001 + b.next() * 0.05 : 1, true);
  b.fill(at + 4, 256, quant);
  for (let group = 0; group < 16; group++) {
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += b.view.getInt8(at + 4 + group * 16 + i);
    b.view.setInt16(at + 260 + group * 2, sum, true);
  }
}

/** An independent dot product for the two simple formats (the harness's layout check). */
function plainDot(view: DataView, kind: Kind, x: number, y: number, blocks: number): number | undefined {
  if (kind !== 'q4_0' && kind !== 'q8_0') return undefined;
  let total = 0;
  for (let block = 0; block < blocks; block++) {
    const bx = x + block * LAYOUT[kind].x;
    const by = y + block * 34;
    let sum = 0;
    for (let i = 0; i < 32; i++) {
      const w =
        kind === 'q8_0'
          ? view.getInt8(bx + 2 + i)
          : ((view.getUint8(bx + 2 + (i % 16)) >> (i < 16 ? 0 : 4)) & 0x0f) - 8;
      sum += w * view.getInt8(by + 2 + i);
    }
    total += sum; // scales are 1 in the exact cases this is used for
  }
  return total;
}

/** How many blocks an exact case may have so that every partial sum stays below 2^24. */
const EXACT_BLOCKS: Record<Kind, number> = { q4_0: 32, q8_0: 16, q4_K: 4, q6_K: 2 };

/** Runs the check for every kind on the given kernel-check wasm (its bytes). */
export async function checkKernels(wasm: Uint8Array<ArrayBuffer>, seed = 1, cases = 200): Promise<KindReport[]> {
  const exports = await instantiateKernelCheck(wasm);
  const bufferBytes = 64 * 292;
  const xAt = exports.malloc(bufferBytes);
  const yAt = exports.malloc(bufferBytes);
  const tileAt = exports.malloc(16);
  const reports: KindReport[] = [];
  for (const [index, kind] of KINDS.entries()) {
    const bytes = new Uint8Array(exports.memory.buffer);
    const view = new DataView(exports.memory.buffer);
    const b = new Blocks(bytes, view, random(seed * 97 + index));
    const report: KindReport = {
      kind,
      exactCases: 0,
      exactMismatches: [],
      floatCases: 0,
      worstRelative: 0,
      referenceChecked: kind === 'q4_K' || kind === 'q6_K',
      largestExact: 0,
      tileCases: 0,
      tileMismatches: [],
    };
    let plainOk = true;
    const run = (mode: Mode, blocks: number): [number, number] => {
      for (let block = 0; block < blocks; block++) {
        writeX(b, kind, xAt + block * LAYOUT[kind].x, mode);
        writeY(b, kind, yAt + block * LAYOUT[kind].y, mode);
      }
      const n = blocks * LAYOUT[kind].values;
      const kernel = exports.dot(index, 0, n, xAt, yAt);
      const reference = exports.dot(index, 1, n, xAt, yAt);
      if (mode !== 'float') {
        const plain = plainDot(view, kind, xAt, yAt, blocks);
        if (plain !== undefined && plain !== reference) plainOk = false;
      }
      return [kernel, reference];
    };
    for (let i = 0; i < cases; i++) {
      const mode: Mode = i % 4 === 3 ? 'extreme' : 'exact';
      const blocks = 1 + Math.floor(b.next() * EXACT_BLOCKS[kind]);
      const [kernel, reference] = run(mode, mode === 'extreme' ? 1 : blocks);
      report.exactCases++;
      report.largestExact = Math.max(report.largestExact, Math.abs(reference));
      if (!Object.is(kernel, reference)) report.exactMismatches.push([kernel, reference]);
    }
    const floats: Array<[number, number]> = [];
    for (let i = 0; i < cases; i++) floats.push(run('float', 1 + Math.floor(b.next() * 16)));
    const largest = Math.max(...floats.map(([, reference]) => Math.abs(reference)));
    for (const [kernel, reference] of floats) {
      report.floatCases++;
      report.worstRelative = Math.max(report.worstRelative, Math.abs(kernel - reference) / largest);
    }
    if (kind === 'q4_0' || kind === 'q8_0') report.referenceChecked = plainOk;
    checkTiles(exports, b, kind, index, xAt, yAt, tileAt, cases, report);
    reports.push(report);
  }
  return reports;
}

/** Compares the 2x2 tile kernel (where the variant has one) with the single dot products. */
function checkTiles(
  exports: Exports,
  b: Blocks,
  kind: Kind,
  index: number,
  xAt: number,
  yAt: number,
  tileAt: number,
  cases: number,
  report: KindReport,
): void {
  const { x: xBytes, y: yBytes, values } = LAYOUT[kind];
  for (let i = 0; i < cases; i++) {
    const mode: Mode = i % 3 === 0 ? 'float' : i % 3 === 1 ? 'exact' : 'extreme';
    const blocks = mode === 'float' ? 1 + Math.floor(b.next() * 16) : 1 + Math.floor(b.next() * EXACT_BLOCKS[kind]);
    const [bx, by] = [blocks * xBytes, blocks * yBytes];
    for (let block = 0; block < 2 * blocks; block++) {
      writeX(b, kind, xAt + block * xBytes, mode);
      writeY(b, kind, yAt + block * yBytes, mode);
    }
    const n = blocks * values;
    if (!exports.dot2(index, n, xAt, bx, yAt, by, tileAt)) return;
    const tile = new Float32Array(exports.memory.buffer, tileAt, 4);
    for (const [k, [row, column]] of TILE_CELLS.entries()) {
      const single = exports.dot(index, 0, n, xAt + row * bx, yAt + column * by);
      report.tileCases++;
      if (!Object.is(tile[k], single)) report.tileMismatches.push([tile[k] ?? Number.NaN, single]);
    }
  }
}
