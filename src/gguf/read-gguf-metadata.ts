/** A GGUF metadata value: scalars, strings, or arrays of them. */
export type GgufValue = number | boolean | string | GgufValue[];

const SCALAR_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;
const CHUNK = 1 << 20;

/**
 * Reads the metadata (key/value) section of a GGUF file (v2/v3, little-endian) from a Blob,
 * fetching only as many bytes as the header needs (a large vocabulary is a few MB).
 */
export async function readGgufMetadata(blob: Blob): Promise<Map<string, GgufValue>> {
  const reader = new BlobReader(blob);
  await reader.need(24);
  if (reader.u32() !== 0x46554747) throw new Error('not a GGUF file (bad magic)');
  const version = reader.u32();
  if (version < 2) throw new Error(`unsupported GGUF version ${version}`);
  reader.u64(); // tensor count
  const count = reader.u64();
  const out = new Map<string, GgufValue>();
  for (let i = 0; i < count; i++) {
    const key = await reader.string();
    await reader.need(4);
    out.set(key, await readValue(reader, reader.u32()));
  }
  return out;
}

async function readValue(reader: BlobReader, type: number): Promise<GgufValue> {
  if (type === STRING) return reader.string();
  if (type === ARRAY) {
    await reader.need(12);
    const itemType = reader.u32();
    const length = reader.u64();
    const items: GgufValue[] = [];
    for (let i = 0; i < length; i++) items.push(await readValue(reader, itemType));
    return items;
  }
  const size = SCALAR_SIZE[type];
  if (size === undefined) throw new Error(`unknown GGUF value type ${type}`);
  await reader.need(size);
  return reader.scalar(type);
}

/** Sequential little-endian reads over a Blob, loading it in 1 MB chunks. */
class BlobReader {
  private bytes = new Uint8Array(0);
  private view = new DataView(this.bytes.buffer);
  private pos = 0;
  private loaded = 0;
  private readonly text = new TextDecoder();

  constructor(private readonly blob: Blob) {}

  async need(size: number): Promise<void> {
    if (this.pos + size <= this.bytes.length) return;
    if (this.loaded >= this.blob.size) throw new Error('GGUF header is truncated');
    const end = Math.min(this.blob.size, this.loaded + Math.max(CHUNK, size));
    const more = new Uint8Array(await this.blob.slice(this.loaded, end).arrayBuffer());
    const rest = this.bytes.subarray(this.pos);
    const merged = new Uint8Array(rest.length + more.length);
    merged.set(rest);
    merged.set(more, rest.length);
    this.bytes = merged;
    this.view = new DataView(merged.buffer);
    this.pos = 0;
    this.loaded = end;
    await this.need(size);
  }

  u32(): number {
    this.pos += 4;
    return this.view.getUint32(this.pos - 4, true);
  }

  u64(): number {
    this.pos += 8;
    return Number(this.view.getBigUint64(this.pos - 8, true));
  }

  async string(): Promise<string> {
    await this.need(8);
    const length = this.u64();
    await this.need(length);
    this.pos += length;
    return this.text.decode(this.bytes.subarray(this.pos - length, this.pos));
  }

  scalar(type: number): GgufValue {
    const at = this.pos;
    this.pos += SCALAR_SIZE[type] ?? 0;
    const v = this.view;
    switch (type) {
      case 0:
        return v.getUint8(at);
      case 1:
        return v.getInt8(at);
      case 2:
        return v.getUint16(at, true);
      case 3:
        return v.getInt16(at, true);
      case 4:
        return v.getUint32(at, true);
      case 5:
        return v.getInt32(at, true);
      case 6:
        return v.getFloat32(at, true);
      case 7:
        return v.getUint8(at) !== 0;
      case 10:
        return Number(v.getBigUint64(at, true));
      case 11:
        return Number(v.getBigInt64(at, true));
      default:
        return v.getFloat64(at, true);
    }
  }
}
