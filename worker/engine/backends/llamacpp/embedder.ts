/**
 * Embeddings on the llamacpp backend. llama.cpp's server refuses completions on a context made
 * for embeddings, so the generation context stays as it is and a second wllama instance of the
 * same GGUF blobs, loaded with `embeddings: true`, starts on the first embeddings request; it is
 * reused afterwards and unloaded with the model. Pooling: the model's own (`<arch>.pooling_type`),
 * else mean. Vectors come back as pooled (the SW scales them to unit length).
 */
import type { Wllama } from '@wllama/wllama';
import { InvalidRequestError } from '../../../../src/core/errors';
import type { EmbeddingResult } from '../../../../src/core/embedding';
import type { PromptInput } from '../../../../src/core/generation';
import type { GgufValue } from '../../../../src/gguf/read-gguf-metadata';
import { mapServerError } from './map-server-error';

/** The most tokens one input may have: the embedding context runs each input in one batch (its compute buffer grows with the square). */
export const EMBEDDING_BATCH = 1024;

/** `mean` unless the GGUF names a pooling of its own (llama.cpp's enum: 0 none, 1 mean, 2 cls, 3 last, 4 rank). */
export function poolingOf(metadata: Map<string, GgufValue>): 'mean' | 'unspecified' {
  const pooling = metadata.get(`${String(metadata.get('general.architecture'))}.pooling_type`);
  return typeof pooling === 'number' && pooling > 0 ? 'unspecified' : 'mean';
}

export class LlamaCppEmbedder {
  private instance: Promise<Wllama> | null = null;

  /** `start` loads the embedding instance (called once, on the first request; again after a failed load). */
  constructor(private readonly start: () => Promise<Wllama>) {}

  async embed(inputs: PromptInput[], signal: AbortSignal): Promise<EmbeddingResult> {
    const wllama = await this.ready();
    const vectors: number[][] = [];
    let promptTokens = 0;
    // One call per input: llama-server takes text or ids, and an abort stops between inputs.
    for (const input of inputs) {
      if (signal.aborted) break;
      const response = await wllama.createEmbedding({ input, embd_normalize: -1 }).catch((error: unknown) => {
        throw mapEmbeddingError(error);
      });
      const embedding = response.data[0]?.embedding;
      if (!Array.isArray(embedding)) throw new Error('llama-server returned no embedding');
      vectors.push(embedding);
      promptTokens += response.usage.prompt_tokens;
    }
    return { vectors, promptTokens };
  }

  async unload(): Promise<void> {
    const wllama = await this.instance?.catch(() => null);
    this.instance = null;
    await wllama?.exit();
  }

  private ready(): Promise<Wllama> {
    this.instance ??= this.start().catch((error: unknown) => {
      this.instance = null;
      throw error;
    });
    return this.instance;
  }
}

function mapEmbeddingError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (/too large/i.test(message)) {
    return new InvalidRequestError(
      `An input is longer than this backend embeds at once (${EMBEDDING_BATCH} tokens): ${message}`,
      'input',
      'context_length_exceeded',
    );
  }
  return mapServerError(error);
}
