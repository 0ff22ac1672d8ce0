/**
 * This tab's side of the one-engine-per-model election: the engine worker and its bridge to the
 * Service Worker when this tab leads, a bridge that answers "no models here" while it follows,
 * and the lock, handed on when the page goes for good or into the back/forward cache. The
 * engine worker is watched (`watch-engine.ts`): when it dies, the Service Worker is told at
 * once (its requests end with `engine_crashed`) and `onCrash` decides what follows.
 */
import type { Remote } from 'comlink';
import type { EngineApi, EngineSettings } from '../core/protocol/engine-api';
import { ServiceUnavailableError } from '../core/domain/errors';
import type { BackendName } from '../core/domain/backend-name';
import { isEngineToPage, message, type PageToSw } from '../core/protocol/protocol';
import { createEngine } from './create-engine';
import { electEngine, type EngineElection } from './engine-election';
import { bridgeServiceWorker } from './sw-bridge';
import { watchEngine, type EngineWatch } from './watch-engine';

/** How long a crashed worker is left before it is terminated: terminating drops the answers it posted last. */
const LAST_ANSWERS_MS = 2000;

/** What the tab's owner (the runtime) is told. */
export interface TabEvents {
  /** The engine worker died (`reason`); it is stopped and the SW told. Start another, or `abdicate()`. */
  onCrash(reason: string): void;
  /** Back from the back/forward cache: the tab entered the election again, as a follower. */
  onRejoin(): void;
  /** The engine says `POST /lora-adapters` set `model`'s LoRA scales (`model.lora`). */
  onLoraScales(model: string, scales: number[]): void;
  /** The models besides this tab's own that it would load on taking over (a follower stands by for them too). */
  otherModels(): string[];
}

interface Running {
  worker: Worker;
  engine: Remote<EngineApi>;
  watch: EngineWatch;
}

/** The engine of one tab, present only while the tab leads for its model. */
export class TabEngine {
  private current: EngineElection;
  private running: Running | null = null;
  private detach: (goodbye?: boolean) => void = () => undefined;
  /** An engine of this tab crashed while it ran a model on the GPU: the next ones keep models on the CPU. */
  private gpuCrashed = false;

  constructor(
    private readonly modelId: string,
    private readonly apiKey: string | null,
    private readonly events: TabEvents,
    /** The engine's threads and downloads as the page asked (the worker's defaults where absent). */
    private readonly settings: EngineSettings = {},
  ) {
    this.current = electEngine(modelId);
    addEventListener('pagehide', this.onPageHide);
    addEventListener('pageshow', this.onPageShow);
  }

  /** This tab's place in the election (a new one after a return from the back/forward cache). */
  get election(): EngineElection {
    return this.current;
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

  /** `work` (a call into the engine), rejected with a 503 `engine_crashed` if the worker dies first. */
  guarded<T>(work: Promise<T>): Promise<T> {
    return this.running ? this.running.watch.during(work) : work;
  }

  /** Calls `listener` if the running engine worker dies (never on a follower); returns the unsubscribe. */
  whenDead(listener: (reason: string) => void): () => void {
    return this.running ? this.running.watch.whenDead(listener) : () => undefined;
  }

  /**
   * Follows: answers the SW's queries with no models (so it never waits on this page) and
   * says it stands by for this model and the others it would load (so the SW holds their
   * requests through a handover).
   */
  follow(standby = true): void {
    this.detach();
    this.detach = bridgeServiceWorker(null, this.apiKey, () =>
      standby ? [this.modelId, ...this.events.otherModels()] : [],
    );
  }

  /**
   * Leads: starts the engine worker (offering `catalogues`, with the page's settings as
   * `overrides` change them), watches it and bridges the SW to it. The SW holds requests for
   * this tab's model while the engine loads it, and for the models `reloads` names (those a
   * restart loads again), which until then would be 404s.
   */
  lead(catalogues: BackendName[], overrides: EngineSettings = {}, reloads: string[] = []): Remote<EngineApi> {
    this.detach();
    const { worker, engine } = createEngine({
      ...this.settings,
      ...overrides,
      ...(this.gpuCrashed ? { gpuCrashed: true } : {}),
    });
    const watch = watchEngine(worker, engine, (reason, onGpu) => this.crashed(reason, onGpu));
    worker.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (isEngineToPage(event.data) && event.data.type === 'model.lora')
        this.events.onLoraScales(event.data.model, event.data.scales);
    });
    this.running = { worker, engine, watch };
    const standby = [...new Set([this.modelId, ...reloads])];
    this.detach = bridgeServiceWorker(engine, this.apiKey, () => standby);
    if (catalogues.length > 0) void engine.offerCatalogue(catalogues);
    return engine;
  }

  /** Tells the SW that this page now runs an engine (a follower promoted). */
  sayHello(): void {
    navigator.serviceWorker.controller?.postMessage(message<PageToSw, 'client.hello'>('client.hello', {}));
  }

  /**
   * Gives the model up (its engine cannot run here): the lock goes to the next tab in line, and
   * this one answers the SW as a follower that stands by for nothing.
   */
  abdicate(): void {
    this.stopEngine();
    this.follow(false);
    this.current.release();
  }

  /** Stops the engine, detaches from the SW and gives the lock back (or leaves its queue). */
  async dispose(): Promise<void> {
    removeEventListener('pagehide', this.onPageHide);
    removeEventListener('pageshow', this.onPageShow);
    this.detach();
    const running = this.running;
    this.running = null;
    if (running) {
      running.watch.stop();
      await running.engine.dispose().catch(() => undefined);
      running.worker.terminate();
    }
    this.current.release();
  }

  /** `lastAnswersMs`: terminate only after that long (a retiring worker's last answers are still on their way). */
  private stopEngine(lastAnswersMs = 0): void {
    const running = this.running;
    this.running = null;
    running?.watch.stop();
    if (running) setTimeout(() => running.worker.terminate(), lastAnswersMs);
  }

  /** The worker died: the SW ends what it held now; this page keeps standing by for the model. */
  private crashed(reason: string, onGpu: boolean): void {
    if (onGpu) this.gpuCrashed = true;
    this.stopEngine(LAST_ANSWERS_MS);
    this.detach(false);
    this.detach = () => undefined;
    navigator.serviceWorker.controller?.postMessage(message<PageToSw, 'client.crashed'>('client.crashed', { reason }));
    this.events.onCrash(reason);
  }

  /**
   * Leaving for good: hand the lock on at once. Into the back/forward cache: a frozen page
   * cannot serve, so a leader stops its engine and hands the lock on too (a follower leaves
   * the queue); `onPageShow` enters the election again.
   */
  private readonly onPageHide = (event: PageTransitionEvent) => {
    if (event.persisted) {
      this.stopEngine();
      this.detach();
      this.detach = () => undefined;
    }
    this.current.release();
  };

  /**
   * Enters the election again as a follower standing by (after a return from the back/forward
   * cache, or after giving the model up): the lock comes back to this tab when no other holds it.
   */
  rejoin(): void {
    this.current.release();
    this.current = electEngine(this.modelId);
    this.follow();
    this.events.onRejoin();
  }

  /** Back from the back/forward cache: a follower now (another tab may lead), in line for the lock again. */
  private readonly onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) this.rejoin();
  };
}
