/**
 * Writes a range's bytes to its OPFS file through a 1 MiB buffer: OPFS's sync writes cost per
 * call (measured in Chromium here, 256 MiB: 13.3 s in 64 KiB writes as fetch hands them over,
 * 7.0 s in 1 MiB writes, 5.4 s in 4 MiB), so chunks are gathered first. Memory holds one buffer
 * per range; a worker killed mid-download (a reload) loses at most the buffer's bytes, which its
 * resume fetches again. Every other end of an answer (done, cut, refused) writes the buffer out.
 */
import { StorageFull, isQuotaError } from './download-errors';

export const WRITE_BUFFER = 2 ** 20;

export class RangeWriter {
  private readonly buffer = new Uint8Array(WRITE_BUFFER);
  private fill = 0;
  private flushed: number;

  constructor(private readonly handle: FileSystemSyncAccessHandle) {
    this.flushed = handle.getSize();
  }

  /** The range's bytes so far: written, and gathered. */
  get length(): number {
    return this.flushed + this.fill;
  }

  add(chunk: Uint8Array): void {
    if (this.fill === 0 && chunk.length >= WRITE_BUFFER) {
      this.write(chunk);
      return;
    }
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(WRITE_BUFFER - this.fill, chunk.length - at);
      this.buffer.set(chunk.subarray(at, at + n), this.fill);
      this.fill += n;
      at += n;
      if (this.fill === WRITE_BUFFER) this.flush();
    }
  }

  /** Writes the gathered bytes out. */
  flush(): void {
    if (this.fill === 0) return;
    const bytes = this.buffer.subarray(0, this.fill);
    this.fill = 0;
    this.write(bytes);
  }

  private write(bytes: Uint8Array): void {
    try {
      this.handle.write(bytes, { at: this.flushed });
    } catch (error) {
      if (isQuotaError(error)) throw new StorageFull('the origin storage quota is spent', { cause: error });
      throw error;
    }
    this.flushed += bytes.length;
  }
}
