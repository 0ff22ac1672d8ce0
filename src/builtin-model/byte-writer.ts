const encoder = new TextEncoder();

/** Growable little-endian byte buffer; works in browsers, workers and Node. */
export class ByteWriter {
  private buf = new Uint8Array(4096);
  private view = new DataView(this.buf.buffer);
  private len = 0;

  /** Number of bytes written so far. */
  get length(): number {
    return this.len;
  }

  /** Appends a u8. */
  u8(value: number): void {
    const at = this.reserve(1);
    this.view.setUint8(at, value);
  }

  /** Appends an i8. */
  i8(value: number): void {
    const at = this.reserve(1);
    this.view.setInt8(at, value);
  }

  /** Appends a little-endian u16. */
  u16(value: number): void {
    const at = this.reserve(2);
    this.view.setUint16(at, value, true);
  }

  /** Appends a little-endian i16. */
  i16(value: number): void {
    const at = this.reserve(2);
    this.view.setInt16(at, value, true);
  }

  /** Appends a little-endian u32. */
  u32(value: number): void {
    const at = this.reserve(4);
    this.view.setUint32(at, value, true);
  }

  /** Appends a little-endian i32. */
  i32(value: number): void {
    const at = this.reserve(4);
    this.view.setInt32(at, value, true);
  }

  /** Appends a little-endian u64 (numbers must be safe integers). */
  u64(value: number | bigint): void {
    const at = this.reserve(8);
    this.view.setBigUint64(at, BigInt(value), true);
  }

  /** Appends a little-endian i64 (numbers must be safe integers). */
  i64(value: number | bigint): void {
    const at = this.reserve(8);
    this.view.setBigInt64(at, BigInt(value), true);
  }

  /** Appends a little-endian IEEE-754 float32. */
  f32(value: number): void {
    const at = this.reserve(4);
    this.view.setFloat32(at, value, true);
  }

  /** Appends a little-endian IEEE-754 float64. */
  f64(value: number): void {
    const at = this.reserve(8);
    this.view.setFloat64(at, value, true);
  }

  /** Appends raw bytes. */
  bytes(data: Uint8Array): void {
    const at = this.reserve(data.length);
    this.buf.set(data, at);
  }

  /** Appends a GGUF string: u64 byte length, then UTF-8 bytes (no terminator). */
  string(value: string): void {
    const data = encoder.encode(value);
    this.u64(data.length);
    this.bytes(data);
  }

  /** Appends zero bytes until the length is a multiple of `alignment`. */
  padTo(alignment: number): void {
    const pad = (alignment - (this.len % alignment)) % alignment;
    this.reserve(pad);
  }

  /** Returns a copy of the bytes written so far. */
  finish(): Uint8Array<ArrayBuffer> {
    return this.buf.slice(0, this.len);
  }

  /** Grows the buffer if needed; call before reading `buf`/`view` for the write. */
  private reserve(count: number): number {
    const need = this.len + count;
    if (need > this.buf.length) {
      let capacity = this.buf.length * 2;
      while (capacity < need) capacity *= 2;
      const next = new Uint8Array(capacity);
      next.set(this.buf.subarray(0, this.len));
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    const at = this.len;
    this.len = need;
    return at;
  }
}
