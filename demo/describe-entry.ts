/** The picker's one-line description of a catalogue model: backend, download, cache, needs. */
import { formatBytes, type CatalogueEntry } from './catalogue';

/** `inpage-test: built-in test model · llamacpp · built in, no download, works offline`. */
export function describeEntry(entry: CatalogueEntry, cached: boolean, webgpu: boolean): string {
  const where =
    entry.downloadBytes === 0
      ? 'built in, no download, works offline'
      : `${formatBytes(entry.downloadBytes)} download, ${cached ? 'cached' : 'not cached'}`;
  const needs = entry.requires === 'webgpu' && !webgpu ? ' · needs WebGPU' : '';
  return `${entry.label} · ${entry.backend} · ${where}${needs}`;
}
