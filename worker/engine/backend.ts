/**
 * The engine's backend interface. A backend loads a model; a loaded model generates text for
 * one validated request at a time (the scheduler guarantees it). Both the llama.cpp-wasm and
 * the WebLLM backends implement exactly this.
 */
import type { BackendName } from '../../src/core/model-card';
import type { LoadProgress, ModelSpec } from '../../src/core/model-spec';
import type { CompletionRequest, FinishReason } from '../../src/core/openai/types';

/** What a generation yields: text pieces, then exactly one `end`. */
export type GenerationEvent =
  | { type: 'text'; text: string }
  | { type: 'end'; finishReason: FinishReason; promptTokens: number; completionTokens: number };

export interface LoadedModel {
  readonly contextLength: number;
  /**
   * Generates for `request`. When `signal` aborts, the generation stops within a few
   * milliseconds and the iterable ends (or throws); the model is then free for the next one.
   */
  generate(request: CompletionRequest, signal: AbortSignal): AsyncIterable<GenerationEvent>;
  unload(): Promise<void>;
}

export interface Backend {
  readonly name: BackendName;
  load(spec: ModelSpec, onProgress: (progress: LoadProgress) => void): Promise<LoadedModel>;
}
