/**
 * Reads of a mounted Blob through a window of a few MB. llama.cpp reads a GGUF's header in
 * thousands of tiny reads (a token's text is one), and WORKERFS turns each into a
 * `FileReaderSync` call on a Blob slice: ~150k of them for a 150k-token vocabulary, 20 s and
 * more. Small reads are served from one window read ahead; large ones (tensor data) go straight
 * to the Blob.
 */
import type { EmscriptenWorkerFs, WorkerFsStream } from './engine-module';

const WINDOW = 4 * 2 ** 20;

export function bufferBlobReads(fs: EmscriptenWorkerFs): void {
  const reader = new FileReaderSync();
  let blob: Blob | null = null;
  let start = 0;
  let window = new Uint8Array(0);
  fs.stream_ops.read = (stream: WorkerFsStream, buffer, offset, length, position) => {
    const { size, contents } = stream.node;
    if (position >= size) return 0;
    const n = Math.min(length, size - position);
    if (n >= WINDOW) {
      buffer.set(new Uint8Array(reader.readAsArrayBuffer(contents.slice(position, position + n))), offset);
      return n;
    }
    if (blob !== contents || position < start || position + n > start + window.length) {
      blob = contents;
      start = position;
      window = new Uint8Array(reader.readAsArrayBuffer(contents.slice(position, Math.min(size, position + WINDOW))));
    }
    buffer.set(window.subarray(position - start, position - start + n), offset);
    return n;
  };
}
