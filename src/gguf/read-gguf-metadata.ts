/**
 * Reads the metadata (key/value) section of a GGUF file (v2/v3, little-endian) from a Blob,
 * fetching only as many bytes as the header needs (a large vocabulary is a few MB). The header
 * is checked as `readGgufHeader` checks it; a whole model is checked by `validateGguf`.
 */
import { readGgufHeader, type GgufValue } from './read-gguf-header';

export type { GgufValue } from './read-gguf-header';

export async function readGgufMetadata(blob: Blob): Promise<Map<string, GgufValue>> {
  const header = await readGgufHeader(blob);
  return new Map([...header.metadata].map(([key, entry]) => [key, entry.value]));
}
