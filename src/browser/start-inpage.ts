import { proxy } from 'comlink';
import { BUILD_STAMP } from '../core/build-stamp';
import type { LoadProgress, ModelSpec } from '../core/model-spec';
import type { RequestRecord } from '../../worker/engine/request-log';
import { checkSwVersion } from './check-sw-version';
import { controlPage } from './control-page';
import { directStream, type DirectEvent } from './direct-stream';
import { createEngine } from './create-engine';
import { probeEndpoint } from './probe-endpoint';
import { resolveModel, INPAGE_TEST_MODEL } from './resolve-model';
import { bridgeServiceWorker } from './sw-bridge';

export interface InpageOptions {
  /** `'inpage-test'` (default), a GGUF URL (relative to the page), or a full `ModelSpec`. */
  model?: string | ModelSpec;
  /** URL of the Service Worker script (default `/sw.js`: it must be served from this origin). */
  serviceWorkerUrl?: string;
  /** Registration scope; must cover `/v1/` (default `/`). */
  scope?: string;
  /**
   * When set, every `/v1` request this page's engine serves must carry
   * `Authorization: Bearer <apiKey>` (else 401). When not set, any key is accepted.
   */
  apiKey?: string;
  /** Upper bound for each start-up wait (SW activation, control), in ms (default 15000). */
  timeoutMs?: number;
  /**
   * Ask the Service Worker for its version on start and, when it is not the one this runtime
   * was built with, `console.warn` and `registration.update()` (default true).
   */
  checkServiceWorker?: boolean;
}

/** A running in-page endpoint. */
export interface Inpage extends EventTarget {
  /** The id clients pass as `model`. */
  readonly model: string;
  /** The key requests must carry (`Authorization: Bearer`), or null when any key is accepted. */
  readonly apiKey: string | null;
  /** Resolves once `fetch('/v1/completions')` from this page is answered by the engine. */
  readonly ready: Promise<void>;
  /** Calls `listener` with each load progress report; returns an unsubscribe function. */
  onProgress(listener: (progress: LoadProgress) => void): () => void;
  /**
   * Runs a completion body on the engine directly (no HTTP, no Service Worker; same validation
   * and queue). Yields text deltas, then one `completion.done` with finish reason and usage.
   */
  stream(body: Record<string, unknown>): AsyncIterable<DirectEvent>;
  /** How the engine's last requests ended (newest last): outcome, abort reason, token counts. */
  recentRequests(): Promise<RequestRecord[]>;
  /** Stops the engine and detaches from the Service Worker (which stays for other tabs). */
  dispose(): Promise<void>;
}

/**
 * Starts the in-page OpenAI endpoint: registers the Service Worker, starts the engine worker,
 * loads the model and bridges the two.
 *
 * @example
 * const inpage = startInpage({ model: 'inpage-test' });
 * await inpage.ready;
 * const openai = new OpenAI({ baseURL: location.origin + '/v1', apiKey: 'none', dangerouslyAllowBrowser: true });
 */
export function startInpage(options: InpageOptions = {}): Inpage {
  return new InpageRuntime(options);
}

class InpageRuntime extends EventTarget implements Inpage {
  readonly model: string;
  readonly apiKey: string | null;
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly detach: () => void;
  private readonly engine: ReturnType<typeof createEngine>['engine'];

  constructor(options: InpageOptions) {
    super();
    const spec = resolveModel(options.model ?? INPAGE_TEST_MODEL, document.baseURI);
    this.model = spec.id;
    const { worker, engine } = createEngine();
    this.worker = worker;
    this.engine = engine;
    this.apiKey = options.apiKey ?? null;
    this.detach = bridgeServiceWorker(engine, this.apiKey);
    this.ready = this.start(spec, options);
    this.ready.catch((error: unknown) => this.dispatchEvent(new CustomEvent('error', { detail: error })));
  }

  onProgress(listener: (progress: LoadProgress) => void): () => void {
    const handler = (event: Event) => {
      if (event instanceof CustomEvent) listener(event.detail);
    };
    this.addEventListener('progress', handler);
    return () => this.removeEventListener('progress', handler);
  }

  recentRequests(): Promise<RequestRecord[]> {
    return this.engine.recent();
  }

  stream(body: Record<string, unknown>): AsyncIterable<DirectEvent> {
    return directStream(this.engine, { model: this.model, ...body });
  }

  async dispose(): Promise<void> {
    this.detach();
    await this.engine.dispose().catch(() => undefined);
    this.worker.terminate();
  }

  private async start(spec: ModelSpec, options: InpageOptions): Promise<void> {
    const scope = options.scope ?? '/';
    const timeoutMs = options.timeoutMs ?? 15_000;
    const report = proxy((progress: LoadProgress) => this.dispatchEvent(new CustomEvent('progress', { detail: progress })));
    const controlled = controlPage(options.serviceWorkerUrl ?? '/sw.js', scope, timeoutMs);
    // A failed load settles `ready` only once the SW controls the page, so /v1 then answers
    // with the OpenAI error (503 model_load_failed) instead of reaching the network.
    const loaded = this.engine.load(spec, report).catch(async (error: unknown) => {
      await controlled.catch(() => undefined);
      throw error;
    });
    const [registration] = await Promise.all([controlled, loaded]);
    // In the background: a stale Service Worker still answers; the check warns and updates it.
    if (options.checkServiceWorker !== false && BUILD_STAMP.checksum !== 'dev') void checkSwVersion(registration);
    await probeEndpoint(new URL('v1', new URL(scope, location.href)).pathname, spec.id, this.apiKey);
  }
}
