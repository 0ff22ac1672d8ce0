/**
 * Checks a file's place in a split model (`gguf-split`'s `split.no`, `split.count`): each part
 * says the index it is given at and the count of parts given. A part given alone, or one given
 * in another's place, is refused as llama.cpp refuses it, naming the part.
 */
import { GgufError } from './gguf-error';
import type { GgufHeader } from './read-gguf-header';

export function checkSplit(header: GgufHeader, index: number, count: number): void {
  const split = header.metadata.get('split.count')?.value;
  const no = header.metadata.get('split.no')?.value;
  const parts = typeof split === 'number' ? split : 1;
  if (count === 1 && parts > 1)
    throw new GgufError(
      `the file is part ${typeof no === 'number' ? no + 1 : '?'} of a model split in ${parts} files: load it by its first part's URL (...-00001-of-${String(parts).padStart(5, '0')}.gguf)`,
    );
  if (count === 1) return;
  if (parts !== count) throw new GgufError(`its split.count is ${parts}, but the model has ${count} parts`);
  if (no !== index)
    throw new GgufError(`its split.no is ${String(no)}, where it is part ${index + 1} (split.no ${index})`);
}
