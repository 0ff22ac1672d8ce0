/**
 * A GGUF file that llama.cpp would refuse (or crash on): the message says what is wrong and
 * where, e.g. `tensor 'output.weight' extends past the end of the file`.
 */
export class GgufError extends Error {
  override name = 'GgufError';
}
