/**
 * Reads and checks the header of a GGUF file (v2/v3, little-endian) the way llama.cpp's
 * `gguf_init_from_file` does: magic, version, tensor and key counts that fit the file, every
 * key, string and array length within it, known value types, tensor infos (a name under 64
 * bytes, at most 4 dimensions of at least 1 each, an element count that does not overflow, a
 * known ggml type whose block size divides the row). Reads only the header's bytes from the
 * Blob. The tensor data is checked by `checkTensorData`, the model by `validateGguf`.
 */
import { GgufError } from './gguf-error';
import { GGML_TYPES, GGUF_SCALAR_BYTES, GGUF_TYPE, ggufTypeName, type GgmlType } from './gguf-types';
import { notGgufReason } from './not-gguf-reason';
import { RangeReader } from './range-reader';

/** A metadata value: scalars (64-bit integers as numbers), strings, or arrays of them. */
export type GgufValue = number | boolean | string | GgufValue[];

/** One metadata entry with its GGUF type (and item type for an array). */
export interface GgufEntry {
  readonly type: number;
  readonly itemType: number | null;
  readonly value: GgufValue;
}

/** One tensor info: dims in ggml order (ne0 first), offset within the data section. */
export interface GgufTensorInfo {
  readonly name: string;
  readonly dims: readonly number[];
  readonly type: GgmlType;
  readonly offset: bigint;
  readonly bytes: bigint;
}

/** A GGUF file's header, checked. */
export interface GgufHeader {
  readonly version: number;
  readonly fileSize: number;
  readonly alignment: number;
  readonly metadata: ReadonlyMap<string, GgufEntry>;
  readonly tensors: readonly GgufTensorInfo[];
  /** File offset of the tensor data section. */
  readonly dataOffset: number;
}

const MAX_STRING = 2 ** 30; // GGUF_MAX_STRING_LENGTH
const MAX_ARRAY = 2 ** 30; // GGUF_MAX_ARRAY_ELEMENTS
const MAX_NAME = 64; // GGML_MAX_NAME, with its NUL
const MAX_DIMS = 4;
const INT64_MAX = 2n ** 63n - 1n;
const MIN_KV_BYTES = 8 + 1 + 4 + 1; // key length, a 1-byte key, type, the smallest value
const MIN_TENSOR_BYTES = 8 + 1 + 4 + 4 + 8; // name length, a 1-byte name, n_dims, type, offset

export async function readGgufHeader(blob: Blob): Promise<GgufHeader> {
  const r = new RangeReader(blob);
  if (blob.size === 0) throw new GgufError('the file is empty (truncated to 0 bytes)');
  const head = new Uint8Array(await blob.slice(0, 512).arrayBuffer());
  const notGguf = notGgufReason(head);
  if (notGguf !== null) throw new GgufError(`not a GGUF file (bad magic): ${notGguf}`);
  await r.need(24, 'the file header');
  r.raw(4);
  const version = checkVersion(r.u32());
  const tensorCount = count(r.i64(), 'tensors', MIN_TENSOR_BYTES, blob.size);
  const kvCount = count(r.i64(), 'metadata keys', MIN_KV_BYTES, blob.size);
  const metadata = new Map<string, GgufEntry>();
  for (let i = 0; i < kvCount; i++) {
    const key = await readString(r, `metadata key ${i}`);
    if (key === '') throw new GgufError(`metadata key ${i} is empty`);
    if (metadata.has(key)) throw new GgufError(`metadata key '${key}' appears twice`);
    metadata.set(key, await readEntry(r, key));
  }
  const alignment = alignmentOf(metadata);
  const tensors: GgufTensorInfo[] = [];
  const names = new Set<string>();
  for (let i = 0; i < tensorCount; i++) {
    const tensor = await readTensorInfo(r, i);
    if (names.has(tensor.name)) throw new GgufError(`tensor '${tensor.name}' appears twice`);
    names.add(tensor.name);
    tensors.push(tensor);
  }
  const dataOffset = tensorCount > 0 ? Math.ceil(r.position / alignment) * alignment : r.position;
  if (dataOffset > blob.size)
    throw new GgufError(
      `the GGUF header is truncated: the tensor data section would start at byte ${dataOffset}, past the end of the file (${blob.size} bytes)`,
    );
  return { version, fileSize: blob.size, alignment, metadata, tensors, dataOffset };
}

function checkVersion(version: number): number {
  if (version === 0 || (version & 0xffff) === 0)
    throw new GgufError(`unsupported GGUF version ${version} (a big-endian or corrupt file?)`);
  if (version === 1) throw new GgufError('unsupported GGUF version 1 (llama.cpp reads versions 2 and 3)');
  if (version > 3) throw new GgufError(`unsupported GGUF version ${version} (llama.cpp reads versions 2 and 3)`);
  return version;
}

/** A tensor or key count: not negative, and small enough for a file of `size` bytes to hold. */
function count(value: bigint, what: string, minBytes: number, size: number): number {
  if (value < 0n) throw new GgufError(`the header claims a negative number of ${what} (${value}): the file is corrupt`);
  if (value > BigInt(Math.floor(size / minBytes)))
    throw new GgufError(
      `the header claims ${value} ${what}, more than a file of ${size} bytes can hold (the file is truncated or corrupt)`,
    );
  return Number(value);
}

async function readString(r: RangeReader, what: string): Promise<string> {
  await r.need(8, `the length of ${what}`);
  const length = r.u64();
  if (length > BigInt(MAX_STRING))
    throw new GgufError(`${what} is ${length} bytes long, more than GGUF allows (${MAX_STRING})`);
  await r.need(Number(length), what);
  return r.text(Number(length));
}

/** A string whose bytes are already loaded, else null (nothing read): the fast path of a vocabulary. */
function loadedString(r: RangeReader): string | null {
  if (!r.has(8)) return null;
  const start = r.position;
  const length = r.u64();
  if (length <= BigInt(MAX_STRING) && r.has(Number(length))) return r.text(Number(length));
  r.seek(start);
  return null;
}

async function readEntry(r: RangeReader, key: string): Promise<GgufEntry> {
  await r.need(4, `the type of '${key}'`);
  const type = r.u32();
  if (type !== GGUF_TYPE.array) return { type, itemType: null, value: await readValue(r, type, `'${key}'`) };
  await r.need(12, `the array '${key}'`);
  const itemType = r.u32();
  const length = r.u64();
  if (itemType === GGUF_TYPE.array) throw new GgufError(`metadata key '${key}' is an array of arrays`);
  const itemBytes = itemType === GGUF_TYPE.string ? 8 : GGUF_SCALAR_BYTES.get(itemType);
  if (itemBytes === undefined)
    throw new GgufError(`metadata key '${key}' is an array of an unknown value type (${itemType})`);
  if (length > BigInt(MAX_ARRAY))
    throw new GgufError(`metadata key '${key}' has ${length} items, more than GGUF allows (${MAX_ARRAY})`);
  const items = Number(length);
  r.check(items * itemBytes, `the ${items} items of '${key}'`);
  const value: GgufValue[] = [];
  for (let i = 0; i < items; i++) {
    if (itemType === GGUF_TYPE.string) value.push(loadedString(r) ?? (await readString(r, `item ${i} of '${key}'`)));
    else {
      if (!r.has(itemBytes)) await r.need(itemBytes, `item ${i} of '${key}'`);
      value.push(readScalar(r, itemType));
    }
  }
  return { type, itemType, value };
}

async function readValue(r: RangeReader, type: number, what: string): Promise<GgufValue> {
  if (type === GGUF_TYPE.string) return readString(r, `the string ${what}`);
  const size = GGUF_SCALAR_BYTES.get(type);
  if (size === undefined) throw new GgufError(`metadata key ${what} has an unknown value type (${type})`);
  await r.need(size, `the value of ${what}`);
  return readScalar(r, type);
}

/** One scalar of a known fixed-size `type` (its bytes loaded). */
function readScalar(r: RangeReader, type: number): GgufValue {
  switch (type) {
    case GGUF_TYPE.uint8:
      return r.u8();
    case GGUF_TYPE.int8:
      return r.i8();
    case GGUF_TYPE.uint16:
      return r.u16();
    case GGUF_TYPE.int16:
      return r.i16();
    case GGUF_TYPE.uint32:
      return r.u32();
    case GGUF_TYPE.int32:
      return r.i32();
    case GGUF_TYPE.float32:
      return r.f32();
    case GGUF_TYPE.bool:
      return r.u8() !== 0;
    case GGUF_TYPE.uint64:
      return Number(r.u64());
    case GGUF_TYPE.int64:
      return Number(r.i64());
    default:
      return r.f64();
  }
}

/** `general.alignment`: a uint32 power of two when present, else 32. */
function alignmentOf(metadata: ReadonlyMap<string, GgufEntry>): number {
  const entry = metadata.get('general.alignment');
  if (entry === undefined) return 32;
  if (entry.type !== GGUF_TYPE.uint32)
    throw new GgufError(`general.alignment must be a uint32, it is a ${ggufTypeName(entry.type)}`);
  const value = Number(entry.value);
  if (value === 0 || (value & (value - 1)) !== 0)
    throw new GgufError(`general.alignment ${value} is not a power of two`);
  return value;
}

async function readTensorInfo(r: RangeReader, index: number): Promise<GgufTensorInfo> {
  const name = await readString(r, `the name of tensor ${index}`);
  if (new TextEncoder().encode(name).length >= MAX_NAME)
    throw new GgufError(`tensor ${index}'s name is too long (llama.cpp takes at most ${MAX_NAME - 1} bytes)`);
  const what = `tensor '${name}'`;
  await r.need(4, `the dimensions of ${what}`);
  const nDims = r.u32();
  if (nDims > MAX_DIMS) throw new GgufError(`${what} has ${nDims} dimensions (at most ${MAX_DIMS})`);
  await r.need(8 * nDims + 4 + 8, `the shape, type and offset of ${what}`);
  const dims: number[] = [];
  let elements = 1n;
  for (let j = 0; j < nDims; j++) {
    const dim = r.i64();
    if (dim < 1n) throw new GgufError(`${what} has dimension ${j} of ${dim} (each must be at least 1)`);
    elements *= dim;
    if (elements > INT64_MAX) throw new GgufError(`${what} has more elements than llama.cpp can count`);
    dims.push(Number(dim));
  }
  const code = r.i32();
  const type = GGML_TYPES.get(code);
  if (type === undefined) throw new GgufError(`${what} has an unknown tensor type (${code})`);
  const rowLength = dims[0] ?? 1;
  if (rowLength % type.blockSize !== 0)
    throw new GgufError(
      `${what} is ${type.name} with ${rowLength} values per row, not a multiple of its block size ${type.blockSize}`,
    );
  const offset = r.u64();
  const bytes = (elements / BigInt(type.blockSize)) * BigInt(type.typeSize);
  return { name, dims, type, offset, bytes };
}
