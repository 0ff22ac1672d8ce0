import { Wllama, type RawCompletionChunk } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { AsyncQueue } from '../../../src/core/async-queue';
import { InvalidRequestError, ServiceUnavailableError } from '../../../src/core/errors';
import type { LoadProgress, ModelSpec } from '../../../src/core/model-spec';
import type { CompletionRequest, FinishReason } from '../../../src/core/openai/types';
import { buildInpageTestModel, inpageTestSpec } from '../../../src/test-model/inpage-test-model';
import type { Backend, GenerationEvent, LoadedModel } from '../backend';
import { checkGgufUrl } from './check-gguf-url';
import { toLlamaCppParams } from './llamacpp-params';

const DEFAULT_CONTEXT = 4096;

const quietLogger = { debug: () => {}, log: () => {}, warn: console.warn, error: console.error };

/** Threads: several only when the page is cross-origin isolated (SharedArrayBuffer). */
export function llamaCppThreads(): number {
  if (!self.crossOriginIsolated) return 1;
  return Math.max(1, Math.min(navigator.hardwareConcurrency || 1, 4));
}

/** The `llamacpp` backend: llama.cpp compiled to wasm (`@wllama/wllama`), CPU only. */
export class LlamaCppBackend implements Backend {
  readonly name = 'llamacpp' as const;

  async load(spec: ModelSpec, onProgress: (progress: LoadProgress) => void): Promise<LoadedModel> {
    const wllama = new Wllama({ default: new URL(wasmUrl, self.location.href).href }, { suppressNativeLog: true, logger: quietLogger });
    const contextLength = spec.contextLength ?? (spec.source.kind === 'builtin' ? inpageTestSpec.contextLength : DEFAULT_CONTEXT);
    const params = { n_gpu_layers: 0, n_ctx: contextLength, n_threads: llamaCppThreads(), n_parallel: 1 };
    try {
      if (spec.source.kind === 'builtin') {
        onProgress({ model: spec.id, phase: 'load', fraction: 0 });
        await wllama.loadModel([new Blob([buildInpageTestModel()])], params);
      } else {
        const model = spec.id;
        await checkGgufUrl(spec.source.url, model);
        await wllama.loadModelFromUrl(
          spec.source.url,
          {
            ...params,
            progressCallback: ({ loaded, total }: { loaded: number; total: number }) =>
              onProgress({ model, phase: 'download', fraction: total > 0 ? loaded / total : 0, loadedBytes: loaded, totalBytes: total }),
          },
        );
      }
    } catch (error) {
      await wllama.exit().catch(() => undefined);
      if (error instanceof ServiceUnavailableError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ServiceUnavailableError(`Loading '${spec.id}' on the llamacpp backend failed: ${reason}`, 'model_load_failed');
    }
    return new LlamaCppModel(wllama, contextLength);
  }
}

class LlamaCppModel implements LoadedModel {
  constructor(
    private readonly wllama: Wllama,
    readonly contextLength: number,
  ) {}

  async *generate(request: CompletionRequest, signal: AbortSignal): AsyncIterable<GenerationEvent> {
    // The callback form: wllama's own promise is always awaited here, so an abort (which
    // rejects it) never becomes an unhandled rejection, however early the consumer stops.
    const chunks = new AsyncQueue<RawCompletionChunk>();
    this.wllama
      .createCompletion({ ...toLlamaCppParams(request, signal), onData: (chunk: RawCompletionChunk) => chunks.push(chunk) })
      .then(
        () => chunks.end(),
        (error: unknown) => chunks.fail(error),
      );
    let finishReason: FinishReason | null = null;
    let usage = { prompt: 0, completion: 0 };
    try {
      for await (const chunk of chunks) {
        for (const choice of chunk.choices) {
          if (choice.text) yield { type: 'text', text: choice.text };
          if (choice.finish_reason === 'stop' || choice.finish_reason === 'length') finishReason = choice.finish_reason;
        }
        if (chunk.usage) usage = { prompt: chunk.usage.prompt_tokens, completion: chunk.usage.completion_tokens };
      }
    } catch (error) {
      if (signal.aborted) return;
      throw mapServerError(error);
    }
    if (signal.aborted) return;
    yield { type: 'end', finishReason: finishReason ?? 'stop', promptTokens: usage.prompt, completionTokens: usage.completion };
  }

  unload(): Promise<void> {
    return this.wllama.exit();
  }
}

/** llama-server's own errors, mapped to the OpenAI error they mean. */
function mapServerError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (/exceed|context size|context length/i.test(message)) {
    return new InvalidRequestError(`The prompt is longer than the model's context: ${message}`, 'prompt', 'context_length_exceeded');
  }
  return error instanceof Error ? error : new Error(message);
}
