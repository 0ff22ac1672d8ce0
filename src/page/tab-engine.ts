/**
 * This tab's side of the one-engine-per-model election: the engine worker and its bridge to the
 * Service Worker when this tab leads, a bridge that answers "no models here" while it follows,
 * and the lock, handed on when the page goes for good.
 */
import type { Remote } from 'comlink';
import type { EngineApi } from '../core/protocol/engine-api';
import { ServiceUnavailableError } from '../core/domain/errors';
import type { BackendName } from '../core/domain/backend-name';
import { message, type PageToSw } from '../core/protocol/protocol';
import { createEngine } from './create-engine';
import { electEngine, type EngineElection } from './engine-election';
import { bridgeServiceWorker } from './sw-bridge';

/** The engine of one tab, present only while the tab leads for its model. */
export class TabEngine {
  readonly election: EngineElection;
  private running: ReturnType<typeof createEngine> | null = null;
  private detach: () => void = () => undefined;

  constructor(
    private readonly modelId: string,
    private readonly apiKey: string | null,
  ) {
    this.election = electEngine(modelId);
    addEventListener('pagehide', this.onPageHide);
  }

  get leads(): boolean {
    return this.running !== null;
  }

  /** The engine; on a follower a 503 `engine_in_other_tab` naming `model`. */
  engineFor(model: string): Remote<EngineApi> {
    if (this.running) return this.running.engine;
    throw new ServiceUnavailableError(
      `The engine for '${model}' runs in another tab of this origin: use the endpoint (fetch('/v1/...')), which it serves.`,
      'engine_in_other_tab',
    );
  }

  /**
   * Follows: answers the SW's queries with no models (so it never waits on this page) and
   * says it stands by for this model (so the SW holds requests through a handover).
   */
  follow(): void {
    this.detach();
    this.detach = bridgeServiceWorker(null, this.apiKey, [this.modelId]);
  }

  /** Leads: starts the engine worker (offering `catalogues`) and bridges the SW to it. */
  lead(catalogues: BackendName[]): Remote<EngineApi> {
    this.detach();
    this.running = createEngine();
    const { engine } = this.running;
    this.detach = bridgeServiceWorker(engine, this.apiKey, [this.modelId]);
    if (catalogues.length > 0) void engine.offerCatalogue(catalogues);
    return engine;
  }

  /** Tells the SW that this page now runs an engine (a follower promoted). */
  sayHello(): void {
    navigator.serviceWorker.controller?.postMessage(message<PageToSw, 'client.hello'>('client.hello', {}));
  }

  /** Stops the engine, detaches from the SW and gives the lock back (or leaves its queue). */
  async dispose(): Promise<void> {
    removeEventListener('pagehide', this.onPageHide);
    this.detach();
    const running = this.running;
    this.running = null;
    if (running) {
      await running.engine.dispose().catch(() => undefined);
      running.worker.terminate();
    }
    this.election.release();
  }

  /** Leaving for good (not into the back/forward cache): hand the lock on at once. */
  private readonly onPageHide = (event: PageTransitionEvent) => {
    if (!event.persisted) this.election.release();
  };
}
