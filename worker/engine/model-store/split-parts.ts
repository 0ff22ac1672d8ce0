/**
 * A split GGUF's parts (llama.cpp's `gguf-split` names them `<prefix>-00001-of-00003.gguf`),
 * from its first part's URL: each part's URL and the name it is mounted under, so that
 * llama.cpp, given the first, finds the others beside it as it does on disk.
 */
import type { WantedFile } from './wanted-file';

const SPLIT = /-(\d{5})-of-(\d{5})\.gguf$/;

/** Whether `url` names a split model's part (any part: only the first loads it). */
export function splitOf(url: string): { index: number; count: number } | null {
  const match = SPLIT.exec(new URL(url).pathname);
  if (!match?.[1] || !match[2]) return null;
  const count = Number(match[2]);
  return count > 1 ? { index: Number(match[1]), count } : null;
}

/** The files of the model whose first file is at `url` (one, where it is not split). */
export function modelParts(url: string, sha256: string | null = null): WantedFile[] {
  const split = splitOf(url);
  if (!split) return [{ url, name: 'model.gguf', sha256 }];
  const parsed = new URL(url);
  const width = (n: number) => String(n).padStart(5, '0');
  return Array.from({ length: split.count }, (_, i) => {
    const suffix = `-${width(i + 1)}-of-${width(split.count)}.gguf`;
    const part = new URL(parsed.href);
    part.pathname = parsed.pathname.replace(SPLIT, suffix);
    return { url: part.href, name: `model${suffix}`, sha256: i === 0 ? sha256 : null };
  });
}
