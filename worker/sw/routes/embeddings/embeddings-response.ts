/**
 * The `/v1/embeddings` response: `{object:'list', data:[{object:'embedding', index, embedding}],
 * model, usage:{prompt_tokens, total_tokens}}`; base64 = the little-endian float32 bytes.
 * Plus the L2 normalisation most embedding models expect.
 */
export interface EmbeddingsResponse {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

export function embeddingsResponse(
  model: string,
  vectors: ReadonlyArray<ArrayLike<number>>,
  promptTokens: number,
  format: 'float' | 'base64',
): EmbeddingsResponse {
  return {
    object: 'list',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: format === 'base64' ? float32Base64(vector) : Array.from(vector),
    })),
    model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}

/** Base64 of the vector as little-endian float32 (what the openai SDK decodes). */
export function float32Base64(vector: ArrayLike<number>): string {
  const view = new DataView(new ArrayBuffer(vector.length * 4));
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i] ?? 0, true);
  const bytes = new Uint8Array(view.buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The vector scaled to unit L2 norm (a zero vector stays zero). */
export function l2Normalize(vector: ArrayLike<number>): number[] {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] ?? 0) ** 2;
  const norm = Math.sqrt(sum);
  return Array.from(vector, (x) => (norm === 0 ? 0 : x / norm));
}
