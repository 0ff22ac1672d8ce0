/** Whether `bytes` hold the ASCII `text` at offset `at` (a file's magic numbers: `RIFF`, `WEBP`, `%PDF-`). */
export const asciiAt = (bytes: Uint8Array, at: number, text: string): boolean =>
  [...text].every((char, i) => bytes[at + i] === char.charCodeAt(0));
