/**
 * A download's size, checked against what the engine can hold while it comes in: its
 * Content-Length at once; without one, its GGUF header's sizes as soon as the header has arrived (tried on
 * every chunk of the first `HEAD_FIRST` bytes, then as they double, up to `HEAD_MAX`), and the
 * bytes so far. The first that is over
 * the limit throws the 503 `model_too_large`, and the download stops there. With a length
 * within the limit the header is not read here: a header that claims more than the file holds
 * is a corrupt file, which the GGUF validator names (`... extends past the end of the file`).
 */
import { ggufExtent } from '#gguf/gguf-extent';
import { memoryLimit, tooLarge, type MemoryLimit } from './memory-limit';

const HEAD_FIRST = 64 * 1024;
/** A header bigger than this (a huge vocabulary) is not waited for; the byte count still bounds the download. */
const HEAD_MAX = 64 * 2 ** 20;

export class SizeCheck {
  private readonly head: Uint8Array[] = [];
  private headBytes = 0;
  private nextTry = HEAD_FIRST;
  private measured = false;

  constructor(
    private readonly model: string,
    private readonly limit: MemoryLimit = memoryLimit(),
  ) {}

  /** The response's Content-Length (0: not given). */
  declared(total: number): void {
    if (total > this.limit.bytes) throw tooLarge(this.model, total, 'its Content-Length', this.limit);
    if (total > 0) this.measured = true;
  }

  /** One more chunk; `loaded`: the bytes so far, with it. */
  add(chunk: Uint8Array, loaded: number): void {
    if (loaded > this.limit.bytes) throw tooLarge(this.model, loaded, 'the bytes downloaded so far', this.limit);
    if (this.measured) return;
    this.head.push(chunk);
    this.headBytes += chunk.length;
    // Below HEAD_FIRST every chunk is a try (a header can come slowly, a few bytes at a time).
    if (this.headBytes >= HEAD_FIRST && this.headBytes < this.nextTry) return;
    const bytes = new Uint8Array(this.headBytes);
    let at = 0;
    for (const part of this.head) {
      bytes.set(part, at);
      at += part.length;
    }
    const extent = ggufExtent(bytes);
    if (extent === 'more' && this.headBytes < HEAD_MAX) {
      this.nextTry = Math.max(this.nextTry, this.headBytes * 2);
      return;
    }
    this.measured = true;
    this.head.length = 0;
    if (typeof extent === 'number' && extent > this.limit.bytes)
      throw tooLarge(this.model, extent, 'its GGUF header', this.limit);
  }
}
