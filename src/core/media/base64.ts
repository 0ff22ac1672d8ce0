/**
 * Standard base64 (RFC 4648, `+/`, padding optional, ASCII whitespace ignored) to bytes; null
 * when any other character is in it or its length cannot be base64's. For media in requests:
 * megabytes, so no string copies per byte.
 */
const VALUES = (() => {
  const table = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c;

export function decodeBase64(text: string): Uint8Array | null {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  let pad = 0;
  while (end > 0 && text.charCodeAt(end - 1) === 0x3d && pad < 2) {
    end--;
    pad++;
  }
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let bits = 0;
  let count = 0;
  let length = 0;
  let chars = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) continue;
    const value = code < 128 ? (VALUES[code] ?? -1) : -1;
    if (value < 0) return null;
    chars++;
    bits = ((bits << 6) | value) & 0xffffff;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out[length++] = (bits >> count) & 0xff;
    }
  }
  // A lone character past the last group of four is no byte; padding completes a group of four.
  if (chars % 4 === 1 || (pad > 0 && (chars + pad) % 4 !== 0)) return null;
  return out.subarray(0, length);
}
