/**
 * How large a GGUF file says it is, from its first bytes: the end of its tensor infos
 * (aligned: where the tensor data starts) plus the furthest tensor's offset and, for the plain
 * float types, its size. A lower bound on the file's size, known as soon as the header has
 * arrived, so that a model too large for the engine is refused before its data downloads.
 * This only measures: checking the header is the GGUF validator's work, and bytes it cannot
 * read here give `invalid`.
 */
const SCALAR_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;
const UINT32 = 4;
/** Bytes per element of the tensor types whose size needs no block table (F32, F16, BF16). */
const ELEMENT_SIZE: Record<number, number> = { 0: 4, 1: 2, 30: 2 };
const DEFAULT_ALIGNMENT = 32;

/** The extent in bytes; `more` when the header has not all arrived; `invalid` when it cannot be read. */
export type GgufExtent = number | 'more' | 'invalid';

class NeedMore extends Error {}
class Invalid extends Error {}

class Cursor {
  at = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private take(n: number): number {
    if (!Number.isSafeInteger(n) || n < 0) throw new Invalid();
    if (this.at + n > this.bytes.length) throw new NeedMore();
    const at = this.at;
    this.at += n;
    return at;
  }

  u32(): number {
    return this.view.getUint32(this.take(4), true);
  }

  u64(): number {
    const value = this.view.getBigUint64(this.take(8), true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Invalid();
    return Number(value);
  }

  skip(n: number): void {
    this.take(n);
  }

  text(): string {
    const length = this.u64();
    const at = this.take(length);
    return new TextDecoder().decode(this.bytes.subarray(at, at + length));
  }
}

/** The extent of the GGUF file whose first bytes are `head`. */
export function ggufExtent(head: Uint8Array): GgufExtent {
  try {
    return measure(new Cursor(head));
  } catch (error) {
    if (error instanceof NeedMore) return 'more';
    if (error instanceof Invalid || error instanceof RangeError) return 'invalid';
    throw error;
  }
}

function measure(cursor: Cursor): number {
  if (cursor.u32() !== 0x46554747 || cursor.u32() < 2) throw new Invalid();
  const tensors = cursor.u64();
  const keys = cursor.u64();
  let alignment = DEFAULT_ALIGNMENT;
  for (let i = 0; i < keys; i++) {
    const key = cursor.text();
    const type = cursor.u32();
    if (key === 'general.alignment' && type === UINT32) alignment = cursor.u32() || DEFAULT_ALIGNMENT;
    else skipValue(cursor, type);
  }
  let furthest = 0;
  for (let i = 0; i < tensors; i++) {
    cursor.skip(cursor.u64()); // name
    const dims = cursor.u32();
    if (dims > 8) throw new Invalid();
    let elements = 1;
    for (let d = 0; d < dims; d++) elements *= cursor.u64();
    const type = cursor.u32();
    const offset = cursor.u64();
    furthest = Math.max(furthest, offset + elements * (ELEMENT_SIZE[type] ?? 0));
  }
  return Math.ceil(cursor.at / alignment) * alignment + furthest;
}

function skipValue(cursor: Cursor, type: number): void {
  if (type === STRING) return cursor.skip(cursor.u64());
  if (type === ARRAY) {
    const itemType = cursor.u32();
    const length = cursor.u64();
    const size = SCALAR_SIZE[itemType];
    if (size !== undefined) return cursor.skip(length * size);
    for (let i = 0; i < length; i++) skipValue(cursor, itemType);
    return;
  }
  const size = SCALAR_SIZE[type];
  if (size === undefined) throw new Invalid();
  cursor.skip(size);
}
