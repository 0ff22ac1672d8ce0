/**
 * What `startInpage` returns for a model it cannot resolve (an unknown id, a catalogue id on
 * backend `llamacpp`, a GGUF URL on `webllm`): nothing starts (no Service Worker registration,
 * no engine), `ready` rejects with the error, and every other call fails with it too. So a
 * failure always shows in one place, `ready`, as the drop-in's and the playground's
 * `window.inpage` do for a model that fails to load. Its `models` works: the model store needs
 * no engine, and a page whose model cannot start may still want to free the space.
 */
import type { RequestRecord } from '../core/protocol/engine-api';
import type { BackendName } from '../core/domain/backend-name';
import type { ModelCard } from '../core/domain/model-card';
import type { LoadProgress } from '../core/domain/model-spec';
import type { DirectEvent } from './direct-stream';
import { toOpenAIError } from '../core/domain/errors';
import type { DeviceState, Inpage, ModelManager } from './inpage-options';
import { createModelManager } from './model-manager';

export class FailedInpage extends EventTarget implements Inpage {
  readonly ready: Promise<void>;
  /** No other tab is involved: the start failed in this one. */
  readonly role = 'leader' as const;
  readonly device: DeviceState;
  readonly models: ModelManager = createModelManager();

  constructor(
    readonly model: string,
    readonly backend: BackendName,
    readonly apiKey: string | null,
    private readonly error: unknown,
  ) {
    super();
    this.device = { model, status: 'failed', error: toOpenAIError(error) };
    this.ready = Promise.reject(error);
    // Awaited by the caller; handled here so an app that never awaits it sees no unhandled rejection.
    this.ready.catch(() => undefined);
    // As a runtime whose load failed: an `error` event, after the caller could listen.
    setTimeout(() => this.dispatchEvent(new CustomEvent('error', { detail: error })));
  }

  private fail<T>(): Promise<T> {
    return Promise.reject(this.error);
  }

  isCached(): Promise<boolean> {
    return this.fail();
  }

  deleteCached(): Promise<void> {
    return this.fail();
  }

  onProgress(_listener: (progress: LoadProgress) => void): () => void {
    return () => undefined;
  }

  async *stream(): AsyncIterable<DirectEvent> {
    throw this.error;
  }

  recentRequests(): Promise<RequestRecord[]> {
    return this.fail();
  }

  load(): Promise<ModelCard> {
    return this.fail();
  }

  dispose(): Promise<void> {
    return Promise.resolve();
  }
}
