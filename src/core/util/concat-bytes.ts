/** Byte arrays end to end in one: the one part itself when there is only one (no copy). */
export function concatBytes<B extends ArrayBufferLike>(parts: readonly Uint8Array<B>[]): Uint8Array<B | ArrayBuffer> {
  if (parts.length === 1 && parts[0]) return parts[0];
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
