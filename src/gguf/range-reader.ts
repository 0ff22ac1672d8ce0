/**
 * Sequential little-endian reads over a Blob that load it in 1 MB windows, so a multi-GB
 * model is never read whole (its header is a few MB at most). Every read is bounds-checked
 * against the file: reading past its end throws a `GgufError` naming what was being read.
 */
import { GgufError } from './gguf-error';

const WINDOW = 1 << 20;
const decoder = new TextDecoder();

export class RangeReader {
  private bytes = new Uint8Array(0);
  private view = new DataView(this.bytes.buffer);
  /** File offset of `bytes[0]`. */
  private start = 0;
  private at = 0;

  constructor(private readonly blob: Blob) {}

  /** The file's size in bytes. */
  get size(): number {
    return this.blob.size;
  }

  /** The file offset of the next read. */
  get position(): number {
    return this.at;
  }

  /** Bytes left after the next read's position. */
  get remaining(): number {
    return this.blob.size - this.at;
  }

  /** Throws that `what` runs past the end of the file unless `count` more bytes are in it. */
  check(count: number, what: string): void {
    if (count > this.remaining)
      throw new GgufError(
        `the GGUF header is truncated: ${what} runs past the end of the file (${count} bytes needed at byte ${this.at}, the file has ${this.blob.size})`,
      );
  }

  /** Whether the next `count` bytes are loaded (then reads need no `need`). */
  has(count: number): boolean {
    return this.at >= this.start && this.at + count <= this.start + this.bytes.length;
  }

  /** Makes the next `count` bytes readable, or throws that `what` runs past the end of the file. */
  async need(count: number, what: string): Promise<void> {
    this.check(count, what);
    if (this.has(count)) return;
    const last = Math.min(this.blob.size, this.at + Math.max(WINDOW, count));
    this.bytes = new Uint8Array(await this.blob.slice(this.at, last).arrayBuffer());
    this.view = new DataView(this.bytes.buffer);
    this.start = this.at;
  }

  u8(): number {
    return this.view.getUint8(this.advance(1));
  }

  i8(): number {
    return this.view.getInt8(this.advance(1));
  }

  u16(): number {
    return this.view.getUint16(this.advance(2), true);
  }

  i16(): number {
    return this.view.getInt16(this.advance(2), true);
  }

  u32(): number {
    return this.view.getUint32(this.advance(4), true);
  }

  i32(): number {
    return this.view.getInt32(this.advance(4), true);
  }

  f32(): number {
    return this.view.getFloat32(this.advance(4), true);
  }

  f64(): number {
    return this.view.getFloat64(this.advance(8), true);
  }

  u64(): bigint {
    return this.view.getBigUint64(this.advance(8), true);
  }

  i64(): bigint {
    return this.view.getBigInt64(this.advance(8), true);
  }

  /** The next `count` bytes (after `need(count)`). */
  raw(count: number): Uint8Array {
    const from = this.advance(count);
    return this.bytes.subarray(from, from + count);
  }

  /**
   * The next `count` bytes as UTF-8 text. Short strings (most of a vocabulary: 150k tokens)
   * are decoded here, a call to TextDecoder costing more than the decoding; anything but
   * well-formed 1- and 2-byte sequences goes to TextDecoder.
   */
  text(count: number): string {
    const bytes = this.raw(count);
    if (count > 32) return decoder.decode(bytes);
    let text = '';
    for (let i = 0; i < count; i++) {
      const byte = bytes[i] ?? 0;
      if (byte < 0x80) text += String.fromCharCode(byte);
      else {
        const next = bytes[i + 1] ?? 0;
        if (byte < 0xc2 || byte > 0xdf || (next & 0xc0) !== 0x80) return decoder.decode(bytes);
        text += String.fromCharCode(((byte & 0x1f) << 6) | (next & 0x3f));
        i++;
      }
    }
    return text;
  }

  /** Moves the position to `offset` (within the file; nothing is read). */
  seek(offset: number): void {
    this.at = offset;
  }

  private advance(count: number): number {
    const from = this.at - this.start;
    if (from < 0 || from + count > this.bytes.length) throw new RangeError('RangeReader: read without need()');
    this.at += count;
    return from;
  }
}
