import { Wllama } from '@wllama/wllama';
import { ServiceUnavailableError } from '../../../../src/core/errors';
import type { LoadProgress, ModelSpec } from '../../../../src/core/model-spec';
import { readGgufMetadata } from '../../../../src/gguf/read-gguf-metadata';
import { chatTemplateFromMetadata } from '../../../../src/gguf/chat-template';
import { vocabularyFromMetadata } from '../../../../src/gguf/vocabulary';
import { buildInpageTestModel, inpageTestSpec } from '../../../../src/test-model/inpage-test-model';
import type { Backend, LoadedModel } from '../../backend';
import { wllamaWasmUrl } from '../../engine-assets';
import { checkGgufUrl } from './check-gguf-url';
import { EMBEDDING_BATCH, LlamaCppEmbedder, poolingOf } from './embedder';
import { LlamaCppModel } from './model';

const DEFAULT_CONTEXT = 4096;

const quietLogger = { debug: () => {}, log: () => {}, warn: console.warn, error: console.error };

const newWllama = () => new Wllama({ default: wllamaWasmUrl() }, { suppressNativeLog: true, logger: quietLogger });

/** A second instance of the model's blobs, for embeddings only (llama-server completes nothing on it). */
async function startEmbeddingContext(
  blobs: Blob[],
  contextLength: number,
  pooling: 'mean' | 'unspecified',
): Promise<Wllama> {
  const wllama = newWllama();
  const batch = Math.min(contextLength, EMBEDDING_BATCH);
  try {
    await wllama.loadModel(blobs, {
      n_gpu_layers: 0,
      n_ctx: batch,
      n_batch: batch,
      n_ubatch: batch,
      n_threads: llamaCppThreads(),
      n_parallel: 1,
      embeddings: true,
      pooling_type: pooling,
    });
    return wllama;
  } catch (error) {
    await wllama.exit().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new ServiceUnavailableError(
      `Loading the embedding context on the llamacpp backend failed: ${reason}`,
      'model_load_failed',
    );
  }
}

/**
 * Threads: several only when the page is cross-origin isolated (SharedArrayBuffer), and one per
 * physical core (hardwareConcurrency / 2, at most 4): ggml's threads spin at barriers, so on a
 * 2-core machine a second thread competes with the page, the Service Worker and the browser and
 * decode got slower (measured in `npm run bench`).
 */
export function llamaCppThreads(): number {
  if (!self.crossOriginIsolated) return 1;
  return Math.max(1, Math.min(Math.floor((navigator.hardwareConcurrency || 1) / 2), 4));
}

/** The `llamacpp` backend: llama.cpp compiled to wasm (`@wllama/wllama`), CPU only. */
export class LlamaCppBackend implements Backend {
  readonly name = 'llamacpp' as const;

  async load(spec: ModelSpec, onProgress: (progress: LoadProgress) => void): Promise<LoadedModel> {
    const wllama = newWllama();
    const contextLength =
      spec.contextLength ?? (spec.source.kind === 'builtin' ? inpageTestSpec.contextLength : DEFAULT_CONTEXT);
    const params = { n_gpu_layers: 0, n_ctx: contextLength, n_threads: llamaCppThreads(), n_parallel: 1 };
    try {
      const blobs = await this.fetchModel(wllama, spec, onProgress);
      onProgress({ model: spec.id, phase: 'load', fraction: 0 });
      const [first] = blobs;
      if (!first) throw new Error('the model has no files');
      const metadata = await readGgufMetadata(first);
      const vocab = vocabularyFromMetadata(metadata);
      await wllama.loadModel(blobs, params);
      const embedder = new LlamaCppEmbedder(() => startEmbeddingContext(blobs, contextLength, poolingOf(metadata)));
      return new LlamaCppModel(wllama, vocab, contextLength, chatTemplateFromMetadata(metadata, vocab), embedder);
    } catch (error) {
      await wllama.exit().catch(() => undefined);
      if (error instanceof ServiceUnavailableError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ServiceUnavailableError(
        `Loading '${spec.id}' on the llamacpp backend failed: ${reason}`,
        'model_load_failed',
        { cause: error },
      );
    }
  }

  /** The model's GGUF file(s): generated in memory, or downloaded (and cached) with progress. */
  private async fetchModel(
    wllama: Wllama,
    spec: ModelSpec,
    onProgress: (progress: LoadProgress) => void,
  ): Promise<Blob[]> {
    if (spec.source.kind === 'builtin') return [new Blob([buildInpageTestModel()])];
    if (spec.source.kind !== 'url')
      throw new ServiceUnavailableError(
        `'${spec.id}' is not a GGUF model: use the webllm backend for it.`,
        'model_load_failed',
      );
    const model = spec.id;
    await checkGgufUrl(spec.source.url, model);
    const file = await wllama.modelManager.getModelOrDownload(
      { url: spec.source.url },
      {
        progressCallback: ({ loaded, total }: { loaded: number; total: number }) =>
          onProgress({
            model,
            phase: 'download',
            fraction: total > 0 ? loaded / total : 0,
            loadedBytes: loaded,
            totalBytes: total,
          }),
      },
    );
    return file.open();
  }
}
