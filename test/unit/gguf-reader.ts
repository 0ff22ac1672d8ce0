/** A metadata value as read back: scalars, strings, or arrays of them. */
export type GgufReadValue = number | bigint | boolean | string | GgufReadValue[];

/** One metadata entry with its GGUF type codes. */
export interface GgufReadKv {
  readonly type: number;
  readonly itemType?: number;
  readonly value: GgufReadValue;
}

/** One tensor: dims in ggml order (ne0 first), data offset relative to the data section. */
export interface GgufReadTensor {
  readonly name: string;
  readonly dims: number[];
  readonly type: number;
  readonly offset: number;
  /** Decoded values (F32 only). */
  readonly data: Float32Array;
}

/** A parsed GGUF file. */
export interface GgufFile {
  readonly version: number;
  readonly alignment: number;
  readonly dataStart: number;
  readonly metadata: Map<string, GgufReadKv>;
  readonly tensors: Map<string, GgufReadTensor>;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Minimal little-endian GGUF v3 parser for tests (F32 tensors only). */
export function parseGguf(bytes: Uint8Array): GgufFile {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  const u32 = (): number => ((pos += 4), view.getUint32(pos - 4, true));
  const u64 = (): number => {
    const v = view.getBigUint64(pos, true);
    pos += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('u64 too large');
    return Number(v);
  };
  const str = (): string => {
    const len = u64();
    pos += len;
    return decoder.decode(bytes.subarray(pos - len, pos));
  };
  const scalar = (type: number): GgufReadValue => {
    const at = pos;
    const sizes: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
    if (type === 8) return str();
    const size = sizes[type];
    if (size === undefined) throw new Error(`unknown GGUF value type ${type}`);
    pos += size;
    const read: Record<number, () => GgufReadValue> = {
      0: () => view.getUint8(at),
      1: () => view.getInt8(at),
      2: () => view.getUint16(at, true),
      3: () => view.getInt16(at, true),
      4: () => view.getUint32(at, true),
      5: () => view.getInt32(at, true),
      6: () => view.getFloat32(at, true),
      7: () => view.getUint8(at) !== 0,
      10: () => view.getBigUint64(at, true),
      11: () => view.getBigInt64(at, true),
      12: () => view.getFloat64(at, true),
    };
    return (read[type] ?? (() => 0))();
  };

  if (decoder.decode(bytes.subarray(0, 4)) !== 'GGUF') throw new Error('not a GGUF file');
  pos = 4;
  const version = u32();
  const tensorCount = u64();
  const kvCount = u64();
  const metadata = new Map<string, GgufReadKv>();
  for (let i = 0; i < kvCount; i++) {
    const key = str();
    const type = u32();
    if (type !== 9) {
      metadata.set(key, { type, value: scalar(type) });
      continue;
    }
    const itemType = u32();
    const count = u64();
    const items: GgufReadValue[] = [];
    for (let k = 0; k < count; k++) items.push(scalar(itemType));
    metadata.set(key, { type, itemType, value: items });
  }
  const infos: { name: string; dims: number[]; type: number; offset: number }[] = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = str();
    const nDims = u32();
    const dims: number[] = [];
    for (let d = 0; d < nDims; d++) dims.push(u64());
    infos.push({ name, dims, type: u32(), offset: u64() });
  }
  const alignValue = metadata.get('general.alignment')?.value;
  const alignment = typeof alignValue === 'number' ? alignValue : 32;
  const dataStart = Math.ceil(pos / alignment) * alignment;
  const tensors = new Map<string, GgufReadTensor>();
  for (const info of infos) {
    if (info.type !== 0) throw new Error(`tensor ${info.name}: only F32 is supported`);
    const count = info.dims.reduce((a, b) => a * b, 1);
    const base = dataStart + info.offset;
    if (base + 4 * count > bytes.byteLength) throw new RangeError(`tensor ${info.name} runs past the end`);
    const data = new Float32Array(count);
    for (let k = 0; k < count; k++) data[k] = view.getFloat32(base + 4 * k, true);
    tensors.set(info.name, { ...info, data });
  }
  return { version, alignment, dataStart, metadata, tensors };
}
