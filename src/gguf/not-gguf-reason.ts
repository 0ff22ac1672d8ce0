/**
 * Why a file's first bytes are not a GGUF file's, or null when they open with the magic
 * `GGUF` (or are fewer than 4 bytes that begin it: a short file is then a truncated one). An HTML page (a proxy's or host's error page, an SPA's fallback `index.html`, served
 * with status 200) and a JSON error body are named as such, since that is what usually happened.
 */
const MAGIC = [0x47, 0x47, 0x55, 0x46]; // "GGUF"

const decoder = new TextDecoder();

export function notGgufReason(head: Uint8Array): string | null {
  // Fewer bytes than the magic that agree with it so far: nothing to say yet.
  if (MAGIC.every((byte, i) => i >= head.length || head[i] === byte)) return null;
  const text = decoder
    .decode(head.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (text.startsWith('<'))
    return "it looks like an HTML page (a server's error or fallback page, sent instead of the model?)";
  if (text.startsWith('{') || text.startsWith('['))
    return 'it looks like JSON (an error response, sent instead of the model?)';
  const shown = Array.from(head.subarray(0, 4), (byte) =>
    byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '?',
  ).join('');
  return `it does not start with the GGUF magic (it starts with '${shown}')`;
}
