/**
 * What a saved state belongs to: the model's files and the context it was made in. A state is
 * restored only under the same key. The files are identified by their sizes and a SHA-256 of
 * each one's first and last MiB (the GGUF header names every tensor, its type and offset, and
 * the tail holds the last tensors' data), so the key is made in milliseconds for a model of
 * any size; llama.cpp itself refuses a state whose layers or cache types differ.
 */

/** The bytes hashed at each end of a file. */
const END_BYTES = 1024 * 1024;

/** Bump when what the engine writes into a state, or how it reads one back, changes. */
const STATE_FORMAT = 1;

export interface StateContext {
  /** The context's size in tokens. */
  contextLength: number;
  /** The KV cache's type (native/attention.cpp). */
  kvCacheType: string;
}

async function hex(data: BufferSource): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The fingerprint of one file: its size and the hash of its two ends. */
async function fileFingerprint(blob: Blob): Promise<string> {
  const head = await blob.slice(0, END_BYTES).arrayBuffer();
  const tail = await blob.slice(Math.max(END_BYTES, blob.size - END_BYTES)).arrayBuffer();
  const both = new Uint8Array(head.byteLength + tail.byteLength);
  both.set(new Uint8Array(head), 0);
  both.set(new Uint8Array(tail), head.byteLength);
  return `${blob.size}:${await hex(both)}`;
}

/**
 * The fingerprints of a model's `files`, read once per load: the keys for each context it may
 * get (stateKey) are made from them without reading the files again.
 */
export function modelFingerprints(files: ReadonlyArray<{ blob: Blob }>): Promise<string[]> {
  return Promise.all(files.map((file) => fileFingerprint(file.blob)));
}

/** The key of states made by the model whose files have `fingerprints`, in `context`. */
export function stateKey(fingerprints: readonly string[], context: StateContext): Promise<string> {
  const text = JSON.stringify({ format: STATE_FORMAT, files: fingerprints, ...context });
  return hex(new TextEncoder().encode(text));
}
