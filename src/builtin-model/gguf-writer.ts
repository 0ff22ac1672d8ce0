/** Writes GGUF v3 files (metadata and F32, F16, Q8_0 or Q4_0 tensors) in memory. */
import { concatBytes } from '#core/util/concat-bytes';
import { GGUF_TYPE } from '#gguf/gguf-types';
import { ByteWriter } from './byte-writer';
import { encodeTensor, GGML_TYPE, tensorBytes, type GgmlType } from './quantize';

/** GGUF metadata value type codes (gguf_type): the reader's table. */
export const GGUF_VALUE_TYPE = GGUF_TYPE;

/** GGUF tensor type code for F32 (ggml_type GGML_TYPE_F32). */
export const GGUF_TENSOR_TYPE_F32 = 0;

/** The magic "GGUF" followed by this version opens every file written here. */
export const GGUF_VERSION = 3;

/** Scalar kinds stored as JS numbers. */
export type GgufNumberKind = 'uint8' | 'int8' | 'uint16' | 'int16' | 'uint32' | 'int32' | 'float32' | 'float64';
/** Scalar kinds stored as bigints. */
export type GgufBigIntKind = 'uint64' | 'int64';

/** One metadata value: a scalar, a string, or a homogeneous array of them. */
export type GgufValue =
  | { readonly type: GgufNumberKind; readonly value: number }
  | { readonly type: GgufBigIntKind; readonly value: bigint }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'array'; readonly itemType: GgufNumberKind; readonly value: ArrayLike<number> }
  | { readonly type: 'array'; readonly itemType: GgufBigIntKind; readonly value: readonly bigint[] }
  | { readonly type: 'array'; readonly itemType: 'bool'; readonly value: readonly boolean[] }
  | { readonly type: 'array'; readonly itemType: 'string'; readonly value: readonly string[] };

/** A metadata key/value pair. */
export interface GgufKv {
  readonly key: string;
  readonly value: GgufValue;
}

/**
 * A tensor given as F32 values; `dims` in ggml order (ne0, the fastest-varying, first).
 * `type` (default `f32`) is how it is stored: the writer encodes the values (quantized types
 * need ne0 to be a multiple of 32).
 */
export interface GgufTensor {
  readonly name: string;
  readonly dims: readonly number[];
  readonly data: Float32Array;
  readonly type?: GgmlType;
}

/** Input of {@link writeGguf}. `general.alignment` is emitted by the writer. */
export interface GgufFileSpec {
  readonly metadata: readonly GgufKv[];
  readonly tensors: readonly GgufTensor[];
  /** Data alignment in bytes, a power of two; defaults to 32. */
  readonly alignment?: number;
}

type ScalarKind = Exclude<keyof typeof GGUF_VALUE_TYPE, 'array'>;
type ScalarValue = number | bigint | boolean | string;

function writeScalar(w: ByteWriter, kind: ScalarKind, value: ScalarValue): void {
  const fail = (): never => {
    throw new TypeError(`GGUF ${kind} value has the wrong JS type: ${String(value)}`);
  };
  if (kind === 'string') return typeof value === 'string' ? w.string(value) : fail();
  if (kind === 'bool') return typeof value === 'boolean' ? w.u8(value ? 1 : 0) : fail();
  if (kind === 'uint64' || kind === 'int64') {
    if (typeof value !== 'bigint') return fail();
    return kind === 'uint64' ? w.u64(value) : w.i64(value);
  }
  if (typeof value !== 'number') return fail();
  const writers: Record<GgufNumberKind, (v: number) => void> = {
    uint8: (v) => w.u8(v),
    int8: (v) => w.i8(v),
    uint16: (v) => w.u16(v),
    int16: (v) => w.i16(v),
    uint32: (v) => w.u32(v),
    int32: (v) => w.i32(v),
    float32: (v) => w.f32(v),
    float64: (v) => w.f64(v),
  };
  writers[kind](value);
}

function writeValue(w: ByteWriter, value: GgufValue): void {
  w.u32(GGUF_VALUE_TYPE[value.type]);
  if (value.type !== 'array') return writeScalar(w, value.type, value.value);
  const items: readonly ScalarValue[] = Array.from<ScalarValue>(value.value);
  w.u32(GGUF_VALUE_TYPE[value.itemType]);
  w.u64(items.length);
  for (const item of items) writeScalar(w, value.itemType, item);
}

const alignUp = (n: number, alignment: number): number => Math.ceil(n / alignment) * alignment;

function checkTensor(t: GgufTensor): void {
  const count = t.dims.reduce((a, b) => a * b, 1);
  if (t.dims.length === 0 || t.dims.length > 4 || count !== t.data.length) {
    throw new RangeError(`tensor ${t.name}: dims [${t.dims.join(', ')}] do not fit ${t.data.length} values`);
  }
  const type = t.type ?? 'f32';
  if (type !== 'f32' && type !== 'f16' && (t.dims[0] ?? 0) % 32 !== 0) {
    throw new RangeError(`tensor ${t.name}: ${type} rows must be a multiple of 32 values, got ${t.dims[0]}`);
  }
}

function checkUnique(names: readonly string[], what: string): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new Error(`duplicate GGUF ${what}: ${name}`);
    seen.add(name);
  }
}

/** Serialises metadata and tensors into a little-endian GGUF v3 file. */
export function writeGguf(spec: GgufFileSpec): Uint8Array<ArrayBuffer> {
  return concatBytes([...ggufParts(spec)]);
}

/**
 * The same file as {@link writeGguf}, part by part: the header, then each tensor's bytes with the
 * padding before it, encoded only as it is asked for. For files too large for one buffer (over
 * 4 GiB), written as they come; tensors may share one `data` array.
 */
export function* ggufParts(spec: GgufFileSpec): Generator<Uint8Array<ArrayBuffer>> {
  const alignment = spec.alignment ?? 32;
  if (!Number.isInteger(alignment) || alignment <= 0 || (alignment & (alignment - 1)) !== 0) {
    throw new RangeError(`alignment must be a power of two, got ${alignment}`);
  }
  const metadata: GgufKv[] = [
    { key: 'general.alignment', value: { type: 'uint32', value: alignment } },
    ...spec.metadata,
  ];
  checkUnique(
    metadata.map((kv) => kv.key),
    'metadata key',
  );
  checkUnique(
    spec.tensors.map((t) => t.name),
    'tensor name',
  );
  spec.tensors.forEach(checkTensor);

  const offsets: number[] = [];
  let dataSize = 0;
  for (const t of spec.tensors) {
    dataSize = alignUp(dataSize, alignment);
    offsets.push(dataSize);
    dataSize += tensorBytes(t.type ?? 'f32', t.data.length);
  }

  const w = new ByteWriter();
  w.bytes(new TextEncoder().encode('GGUF'));
  w.u32(GGUF_VERSION);
  w.u64(spec.tensors.length);
  w.u64(metadata.length);
  for (const kv of metadata) {
    w.string(kv.key);
    writeValue(w, kv.value);
  }
  spec.tensors.forEach((t, i) => {
    w.string(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(GGML_TYPE[t.type ?? 'f32']);
    w.u64(offsets[i] ?? 0);
  });
  w.padTo(alignment);
  yield w.finish();

  let written = 0;
  for (const [i, t] of spec.tensors.entries()) {
    const offset = offsets[i] ?? 0;
    if (offset > written) yield new Uint8Array(offset - written);
    const bytes = encodeTensor(t.type ?? 'f32', t.data);
    yield bytes;
    written = offset + bytes.length;
  }
}
