/**
 * What the model store keeps for one model, in the origin private file system (OPFS): one
 * folder per model under `MODELS_DIR`, holding `entry.json` (this record) and the bytes, one
 * OPFS file per downloaded range of each file (`f<file>.r<range>`). A range's progress is its
 * file's size, so a resumed download never asks for a byte it has. The engine worker writes
 * it; any page reads it (the model manager), online or offline.
 */

/** The OPFS folder of stored models. */
export const MODELS_DIR = 'inpage-llm-models';

/** The record's name in a model's folder. */
export const ENTRY_FILE = 'entry.json';

/** One file of a stored model (a GGUF, one part of a split GGUF, or an `mmproj`). */
export interface StoredFile {
  url: string;
  /** The name it is mounted under (`model.gguf`, or a split part's `model-00002-of-00003.gguf`). */
  name: string;
  /** Its length in bytes; null until the server said it (a compressed answer). */
  size: number | null;
  /** The validators its resume sends as `If-Range` (a strong ETag first, else Last-Modified). */
  etag: string | null;
  lastModified: string | null;
  /** The publisher's sha256 (hex), where one is known: checked before the file is used. */
  sha256: string | null;
  /** The stored bytes matched `sha256`. */
  verified: boolean;
  /** Its byte ranges `[start, end)`, each stored in its own OPFS file; empty until the first answer. */
  ranges: Array<[number, number | null]>;
}

export interface StoredEntry {
  version: 1;
  /** The model's id (`/v1/models`). */
  id: string;
  /** What named it: the GGUF URL, or the `hf:` id with its endpoint. */
  source: string;
  files: StoredFile[];
  /** Every file is stored whole (and verified, where a hash is known). */
  complete: boolean;
  /** Milliseconds since the epoch. */
  created: number;
  lastUsed: number;
}

/** A range's OPFS file name. */
export function rangeFileName(file: number, range: number): string {
  return `f${file}.r${range}`;
}

/** Whether `name` is a range's OPFS file name (`rangeFileName`'s). */
export function isRangeFileName(name: string): boolean {
  return /^f\d+\.r\d+$/.test(name);
}

/** The folder name of the model named by `source`: the first 32 hex digits of its sha256. */
export async function entryKey(source: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(source));
  return Array.from(new Uint8Array(digest).subarray(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** `value` read back from `entry.json`, or null where it is not a record of this version. */
export function parseEntry(value: unknown): StoredEntry | null {
  if (typeof value !== 'object' || value === null) return null;
  if (!('version' in value) || value.version !== 1) return null;
  if (!('files' in value) || !Array.isArray(value.files)) return null;
  if (!('id' in value) || typeof value.id !== 'string') return null;
  // The record is ours (written by this module); its version is the guard against older shapes.
  return value as StoredEntry;
}
