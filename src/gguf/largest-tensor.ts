import type { GgufTensorInfo } from './read-gguf-header';

/** The bytes of the largest of `tensors` (0 for none): what one GPU buffer must hold to place it. */
export function largestTensorBytes(tensors: readonly GgufTensorInfo[]): number {
  let largest = 0n;
  for (const tensor of tensors) if (tensor.bytes > largest) largest = tensor.bytes;
  return Number(largest);
}
