/**
 * A stored file's sha256, read back from storage in 4 MiB slices and hashed as they come
 * (`@noble/hashes`: WebCrypto's `digest` takes one whole buffer, which a multi-GB model is not),
 * so memory holds one slice. Reports its progress in bytes.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

const SLICE = 4 * 2 ** 20;

export async function sha256Of(blob: Blob, onBytes: (hashed: number) => void): Promise<string> {
  const hash = sha256.create();
  for (let at = 0; at < blob.size; at += SLICE) {
    hash.update(new Uint8Array(await blob.slice(at, at + SLICE).arrayBuffer()));
    onBytes(Math.min(blob.size, at + SLICE));
  }
  return bytesToHex(hash.digest());
}
