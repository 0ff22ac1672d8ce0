/**
 * Checks where each tensor's data lies, as llama.cpp does before reading it: each offset a
 * multiple of `general.alignment`, the tensors stored in order with each one padded to the
 * alignment (gguf.cpp wants exactly that layout), and every tensor's bytes inside the file.
 */
import { GgufError } from './gguf-error';
import type { GgufHeader } from './read-gguf-header';

export function checkTensorData(header: GgufHeader): void {
  const alignment = BigInt(header.alignment);
  const size = BigInt(header.fileSize);
  let expected = 0n;
  for (const tensor of header.tensors) {
    const what = `tensor '${tensor.name}'`;
    if (tensor.offset % alignment !== 0n)
      throw new GgufError(
        `${what} is at offset ${tensor.offset}, not a multiple of the file's alignment (${header.alignment})`,
      );
    if (tensor.offset !== expected)
      throw new GgufError(
        `${what} is at offset ${tensor.offset} of the data section, expected ${expected} (llama.cpp needs the tensors in order, each padded to the alignment)`,
      );
    const end = BigInt(header.dataOffset) + tensor.offset + tensor.bytes;
    if (end > size)
      throw new GgufError(
        `${what} extends past the end of the file (its ${tensor.bytes} bytes end at byte ${end}, the file has ${size}): the file is truncated or corrupt`,
      );
    expected += ((tensor.bytes + alignment - 1n) / alignment) * alignment;
  }
}
