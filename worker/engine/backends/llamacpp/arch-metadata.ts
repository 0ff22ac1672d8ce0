/**
 * Reading a GGUF's own architecture's keys (`<general.architecture>.<key>`), as llama.cpp's
 * loader does, for the decisions made before the load (heap-choice.ts, encoder-model.ts).
 */
import type { GgufValue } from '#gguf/read-gguf-header';

/** The GGUF's metadata, values by key (as `validateGgufParts` gives it). */
export type Metadata = ReadonlyMap<string, GgufValue>;

/** `<arch>.<key>` for the model's architecture; undefined where it has no architecture or no such key. */
export function archValue(metadata: Metadata, key: string): GgufValue | undefined {
  const arch = metadata.get('general.architecture');
  return typeof arch === 'string' ? metadata.get(`${arch}.${key}`) : undefined;
}

/** `<arch>.<key>` as a number (a per-layer array's first), else undefined. */
export function archNumber(metadata: Metadata, key: string): number | undefined {
  const value = archValue(metadata, key);
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'number' ? first : undefined;
}
