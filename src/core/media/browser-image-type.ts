/**
 * Image formats the browser decodes and llama.cpp's mtmd does not (its stb_image reads JPEG, PNG,
 * BMP, GIF, TGA, PSD, HDR, PIC and PNM): WebP (`RIFF....WEBP`) and AVIF (an ISO-BMFF `ftyp` box
 * with the `avif` or `avis` brand). The Service Worker has the browser read these into a PNG
 * before the engine sees them (browser-image.ts); any other bytes go to the engine as they came.
 */
import { asciiAt } from './ascii-at';

export type BrowserImageType = 'webp' | 'avif';

/** Which of those formats `bytes` are, or null. */
export function browserImageType(bytes: Uint8Array): BrowserImageType | null {
  if (bytes.length < 12) return null;
  if (asciiAt(bytes, 0, 'RIFF') && asciiAt(bytes, 8, 'WEBP')) return 'webp';
  if (asciiAt(bytes, 4, 'ftyp') && (asciiAt(bytes, 8, 'avif') || asciiAt(bytes, 8, 'avis'))) return 'avif';
  return null;
}
