/**
 * llama.cpp's `common_embd_normalize`, as llama-server's `embd_normalize` applies it: -1 none,
 * 0 the largest magnitude scaled to 32760 (int16's range), 2 Euclidean, any other p the p-norm
 * (1: taxicab). A zero vector stays zero.
 */
export function normalizeEmbedding(vector: readonly number[], norm: number): number[] {
  let sum = 0;
  if (norm === -1) sum = 1;
  else if (norm === 0) sum = vector.reduce((most, x) => Math.max(most, Math.abs(x)), 0) / 32760;
  else if (norm === 2) sum = Math.sqrt(vector.reduce((total, x) => total + x * x, 0));
  else sum = vector.reduce((total, x) => total + Math.abs(x) ** norm, 0) ** (1 / norm);
  // As llama.cpp: a float32 scale from the double sum, float32 products.
  const scale = Math.fround(sum > 0 ? 1 / sum : 0);
  return vector.map((x) => Math.fround(x * scale));
}
