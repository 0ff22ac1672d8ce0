/**
 * Image formats the browser decodes and llama.cpp's mtmd does not (its stb_image reads JPEG, PNG,
 * BMP, GIF, TGA, PSD, HDR, PIC and PNM): WebP (`RIFF....WEBP`) and AVIF (an ISO-BMFF `ftyp` box
 * with the `avif` or `avis` brand). The Service Worker has the browser read these into a PNG
 * before the engine sees them (browser-image.ts); any other bytes go to the engine as they came.
 */
export type BrowserImageType = 'webp' | 'avif';

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  [...text].every((char, i) => bytes[at + i] === char.charCodeAt(0));

/** Which of those formats `bytes` are, or null. */
export function browserImageType(bytes: Uint8Array): BrowserImageType | null {
  if (bytes.length < 12) return null;
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return 'webp';
  if (ascii(bytes, 4, 'ftyp') && (ascii(bytes, 8, 'avif') || ascii(bytes, 8, 'avis'))) return 'avif';
  return null;
}
