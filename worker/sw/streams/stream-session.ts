/**
 * One resumable stream (llama-server's `stream_session`, tools/server/server-stream.cpp): the SSE
 * bytes of a streamed generation sent with `X-Conversation-Id`, kept while it runs and for a
 * while after, so that a client that lost its connection reads them again from any offset and
 * goes on live. At most `MAX_BYTES` are kept: the oldest go first (`dropped`), and an offset
 * before them is lost. `cancel` is the user's Stop: the generation is asked to end.
 */

import { concatBytes } from '#core/util/concat-bytes';

/** llama-server's STREAM_SESSION_MAX_BYTES. */
export const MAX_BYTES = 4 * 1024 * 1024;

/** What `readFrom` found at an offset. */
export type ReadStatus = 'ok' | 'offset_lost';

export class StreamSession {
  /** Unix seconds at the start. */
  readonly startedAt = nowSeconds();
  /** Unix seconds at the end (0 while it runs). */
  completedAt = 0;
  private kept: Uint8Array[] = [];
  private keptBytes = 0;
  private droppedBytes = 0;
  private done = false;
  private stopped = false;
  private readonly wake = new Set<() => void>();
  private readonly onCancel = new Set<() => void>();

  constructor(
    readonly id: string,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  get isDone(): boolean {
    return this.done;
  }

  get cancelled(): boolean {
    return this.stopped;
  }

  /** Every byte that entered the session. */
  get totalBytes(): number {
    return this.droppedBytes + this.keptBytes;
  }

  /** Bytes let go from the front to stay within the cap. */
  get dropped(): number {
    return this.droppedBytes;
  }

  /** Keeps `bytes` (nothing once done); the oldest kept bytes go past the cap. */
  append(bytes: Uint8Array): void {
    if (this.done || bytes.length === 0) return;
    if (bytes.length >= this.maxBytes) {
      this.droppedBytes += this.keptBytes + bytes.length - this.maxBytes;
      this.kept = [bytes.slice(bytes.length - this.maxBytes)];
      this.keptBytes = this.maxBytes;
    } else {
      this.kept.push(bytes);
      this.keptBytes += bytes.length;
      while (this.keptBytes > this.maxBytes) this.dropFront(this.keptBytes - this.maxBytes);
    }
    this.notify();
  }

  /** The stream ended: readers get what is left, then the end. */
  finalize(): void {
    if (this.done) return;
    this.done = true;
    this.completedAt = nowSeconds();
    this.notify();
  }

  /** The user's Stop (or a newer session for the same conversation): the producer is asked to end. */
  cancel(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const listener of this.onCancel) listener();
  }

  /** Calls `listener` when the session is cancelled; the function that stops listening. */
  whenCancelled(listener: () => void): () => void {
    if (this.stopped) listener();
    this.onCancel.add(listener);
    return () => this.onCancel.delete(listener);
  }

  /**
   * The bytes from `offset` on, as they come, until the session ends (or `signal` aborts);
   * 'offset_lost' where `offset` is before the kept bytes.
   */
  async *readFrom(offset: number, signal?: AbortSignal): AsyncGenerator<Uint8Array, ReadStatus> {
    let at = offset;
    for (;;) {
      if (signal?.aborted) return 'ok';
      if (at < this.droppedBytes) return 'offset_lost';
      const chunk = this.bytesFrom(at);
      if (chunk.length > 0) {
        at += chunk.length;
        yield chunk;
        continue;
      }
      if (this.done) return 'ok';
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.wake.delete(wake);
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        this.wake.add(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
  }

  /** The kept bytes from logical offset `at` (empty when none yet). */
  private bytesFrom(at: number): Uint8Array {
    let skip = at - this.droppedBytes;
    const parts: Uint8Array[] = [];
    for (const part of this.kept) {
      if (skip >= part.length) {
        skip -= part.length;
        continue;
      }
      parts.push(skip > 0 ? part.subarray(skip) : part);
      skip = 0;
    }
    return concatBytes(parts);
  }

  private dropFront(excess: number): void {
    const head = this.kept[0];
    if (!head) return;
    if (head.length <= excess) {
      this.kept.shift();
      this.keptBytes -= head.length;
      this.droppedBytes += head.length;
    } else {
      this.kept[0] = head.subarray(excess);
      this.keptBytes -= excess;
      this.droppedBytes += excess;
    }
  }

  private notify(): void {
    for (const wake of [...this.wake]) wake();
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
