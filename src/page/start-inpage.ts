/**
 * The page runtime: registers the Service Worker and, in the one tab elected for the model
 * (`engine-election.ts`), starts the engine worker, loads the model and bridges the two; the
 * other tabs follow (served through the SW) until the leader goes, then one of them takes over.
 */
import { proxy, type Remote } from 'comlink';
import { BUILD_STAMP } from '../core/protocol/build-stamp';
import { DEFAULT_ROUTE_PREFIX, normalizeRoutePrefix, withRoutePrefix } from '../core/domain/route-prefix';
import { readIsolation, withIsolation } from '../core/domain/isolation';
import { readPromptCache } from '../core/domain/prompt-cache';
import { readThreads } from '../core/domain/threads';
import { readSlots } from '../core/domain/slot-count';
import { readGpuLayers } from '../core/domain/accelerator';
import { readDownloads } from '../core/domain/downloads';
import type { LoadProgress, ModelSpec } from '../core/domain/model-spec';
import { withDraftModel } from './draft-model-option';
import { withProjector } from './mmproj-option';
import { withLoraAdapters } from './lora-option';
import { withAliases } from './alias-option';
import type { EngineApi, EngineSettings, RequestRecord } from '../core/protocol/engine-api';
import type { DeviceState, Inpage, InpageOptions, ModelManager } from './inpage-options';
import { toOpenAIError } from '../core/domain/errors';
import { checkRouteTable, fetchRouteTable } from './load-route-table';
import { hasRemoteTarget, type RouteInfo } from '../core/route-table/route-info';
import type { RouteTable } from '../core/route-table/route-table-schema';
import { announceRoutes } from './announce-routes';
import { answerServiceWorker } from './answer-service-worker';
import { ONE_THREAD_AFTER_HANG, STARTING_HANG } from './watch-engine';
import { ServiceUnavailableError } from '../core/domain/errors';
import { checkSwVersion } from './check-sw-version';
import { controlPage } from './control-page';
import { directStream, type DirectEvent } from './direct-stream';
import { probeEndpoint } from './probe-endpoint';
import { probeLeader } from './probe-leader';
import type { BackendName } from '../core/domain/backend-name';
import type { ModelCard } from '../core/domain/model-card';
import { loadWithFallback } from './load-with-fallback';
import { createModelManager } from './model-manager';
import { requestPersistence } from './request-persistence';
import { FailedInpage } from './failed-inpage';
import {
  backendsOf,
  chooseBackend,
  resolveModels,
  type BackendChoice,
  type ResolvedModels,
  type WebLLMModelOptions,
} from './resolve-backend';
import { INPAGE_TEST_MODEL } from './resolve-model';
import { RestartBudget } from './restart-budget';
import { TabEngine } from './tab-engine';
import { EngineStateChannel } from './engine-state-channel';
import { warnIfNotIsolated } from './warn-not-isolated';
import { readReasoningBudgetOption } from '#core/domain/reasoning-budget';

export type {
  DeviceState,
  Inpage,
  InpageOptions,
  ModelManager,
  StoredModelInfo,
  StoredModelsUsage,
} from './inpage-options';

/**
 * Starts the in-page OpenAI endpoint: registers the Service Worker, starts the engine worker,
 * loads the model and bridges the two. It does not throw: a model it cannot resolve, like one
 * that fails to load, makes `ready` reject with an `OpenAIError` saying why (its `code`).
 *
 * @example
 * const inpage = startInpage({ model: 'inpage-test' });
 * await inpage.ready;
 * const openai = new OpenAI({ baseURL: location.origin + '/v1', apiKey: 'none', dangerouslyAllowBrowser: true });
 */
export function startInpage(options: InpageOptions = {}): Inpage {
  const model = options.model ?? INPAGE_TEST_MODEL;
  const backend = chooseBackend(model, options.backend);
  let models: ResolvedModels;
  let routes: Promise<RouteTable | null>;
  let settings: EngineSettings;
  try {
    const given = options.routes;
    routes =
      given === undefined
        ? Promise.resolve(null)
        : typeof given === 'string'
          ? fetchRouteTable(given)
          : Promise.resolve(checkRouteTable(given));
    if (options.isolate !== undefined) readIsolation(options.isolate, 'isolate');
    settings = {
      ...(options.threads === undefined ? {} : { threads: readThreads(options.threads, 'threads') }),
      ...(options.slots === undefined ? {} : { slots: readSlots(options.slots, 'slots') }),
      ...(options.gpuLayers === undefined ? {} : { gpuLayers: readGpuLayers(options.gpuLayers, 'gpuLayers') }),
      ...(options.downloads === undefined ? {} : { downloads: readDownloads(options.downloads) }),
      ...(options.promptCache === undefined ? {} : { promptCache: readPromptCache(options.promptCache) }),
      ...(options.reasoningBudget === undefined
        ? {}
        : { reasoningBudget: readReasoningBudgetOption(options.reasoningBudget, 'reasoningBudget') }),
    };
    models = resolveModels(model, backend, document.baseURI, {
      ...(options.fallbackModel ? { fallbackModel: options.fallbackModel } : {}),
      ...(options.webllmCache ? { cache: options.webllmCache } : {}),
      ...(options.hfEndpoint ? { hfEndpoint: options.hfEndpoint } : {}),
    });
    if (options.draftModel !== undefined)
      models = {
        ...models,
        primary: withDraftModel(models.primary, options.draftModel, document.baseURI, options.hfEndpoint),
      };
    if (options.mmproj !== undefined)
      models = {
        ...models,
        primary: withProjector(models.primary, options.mmproj, document.baseURI, options.hfEndpoint),
      };
    if (options.lora !== undefined)
      models = {
        ...models,
        primary: withLoraAdapters(models.primary, options.lora, document.baseURI, options.hfEndpoint),
      };
    if (options.alias !== undefined) models = { ...models, primary: withAliases(models.primary, options.alias) };
  } catch (error) {
    const name = typeof model === 'string' ? model : model.id;
    return new FailedInpage(name, backend === 'auto' ? 'webllm' : backend, options.apiKey ?? null, error);
  }
  return new InpageRuntime(options, models, backend, routes, settings);
}

/** The SW's registration URL: its two inputs, the route prefix and the isolation mode, ride on it. */
function serviceWorkerUrl(options: InpageOptions, prefix: string): string {
  return withIsolation(
    withRoutePrefix(options.serviceWorkerUrl ?? '/sw.js', prefix, location.href),
    options.isolate ?? null,
  );
}

class InpageRuntime extends EventTarget implements Inpage {
  readonly apiKey: string | null;
  private serving: ModelSpec;
  readonly ready: Promise<void>;
  readonly models: ModelManager = createModelManager();
  private readonly tab: TabEngine;
  /** The models the engine serves and the scales `POST /lora-adapters` set, shared with the origin's other tabs. */
  private readonly engineState: EngineStateChannel;
  private readonly options: InpageOptions;
  private deviceState: DeviceState;
  private routes: RouteTable | null = null;

  get device(): DeviceState {
    return this.deviceState;
  }

  /** What the SW is told (and told again after a restart) about this page's routing. */
  private routeInfo(): RouteInfo {
    return { table: this.routes, device: this.serving.id, apiKey: this.apiKey };
  }
  /** The models this tab's engine loaded (reloaded after a crash), by id. */
  private readonly loaded = new Map<string, ModelSpec>();
  /** Hangs of the engine worker while it started the engine, before `ready` (firstLoad replaces the first). */
  private startHangs = 0;
  /** After such a hang this page's engines run on one thread (no pthread workers to create). */
  private oneThread = false;
  /** Whether this tab's `ready` resolved (a crash before that fails `ready` instead of restarting). */
  private started = false;
  private readonly restarts = new RestartBudget();
  /** The number of this tab's latest engine bring-up (a crash or a newer bring-up supersedes one in flight). */
  private attempt = 0;
  /** How often in a row this tab gave its model up (its back-off doubles each time). */
  private giveUps = 0;
  private rejoinTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  get role(): 'leader' | 'follower' {
    return this.tab.leads ? 'leader' : 'follower';
  }

  /** The engine, in the leader tab; a follower's direct-engine calls get a 503 `engine_in_other_tab`. */
  private get engine(): Remote<EngineApi> {
    return this.tab.engineFor(this.model);
  }

  get model(): string {
    return this.serving.id;
  }

  get backend(): BackendName {
    return this.serving.backend;
  }

  async isCached(model?: string | WebLLMModelOptions): Promise<boolean> {
    return this.engine.isCached(this.specOf(model));
  }

  async deleteCached(model?: string | WebLLMModelOptions): Promise<void> {
    return this.engine.deleteCached(this.specOf(model));
  }

  private specOf(model: string | WebLLMModelOptions | undefined): ModelSpec {
    if (model === undefined) return this.serving;
    return this.resolveOne(model, this.options.backend === 'llamacpp' ? 'webllm' : (this.options.backend ?? 'webllm'));
  }

  /** A model named after start, resolved with this runtime's WebLLM cache choice. */
  private resolveOne(model: string | ModelSpec | WebLLMModelOptions, backend: BackendChoice): ModelSpec {
    return resolveModels(model, backend, document.baseURI, {
      ...(this.options.webllmCache ? { cache: this.options.webllmCache } : {}),
      ...(this.options.hfEndpoint ? { hfEndpoint: this.options.hfEndpoint } : {}),
    }).primary;
  }

  /** `choice`: the backend named, or the one the model implies. */
  constructor(
    options: InpageOptions,
    models: ResolvedModels,
    private readonly choice: BackendChoice,
    routeTable: Promise<RouteTable | null>,
    settings: EngineSettings,
  ) {
    super();
    this.serving = models.primary;
    this.deviceState = { model: models.primary.id, status: 'loading', error: null };
    answerServiceWorker(() => this.routeInfo());
    warnIfNotIsolated(models.fallback ?? models.primary, options.isolate);
    if (options.persist === true) void requestPersistence();
    this.options = options;
    this.apiKey = options.apiKey ?? null;
    this.engineState = new EngineStateChannel(models.primary.id, () => this.tab.leads);
    this.tab = new TabEngine(
      models.primary.id,
      this.apiKey,
      {
        onCrash: (reason) => void this.recover(models, reason),
        onRejoin: () => {
          this.engineState.ask();
          void this.tab.election.leads.then(() => this.takeOver(models));
        },
        onLoraScales: (model, scales) => this.keepLoraScales(model, scales),
        otherModels: () => this.engineState.others(models.primary.id).map((spec) => spec.id),
      },
      settings,
    );
    this.ready = Promise.all([routeTable, this.tab.election.first]).then(([table, leads]) => {
      this.routes = table;
      return leads ? this.start(models, options) : this.follow(models, options);
    });
    this.ready.catch((error: unknown) => {
      // A tab whose start failed neither keeps the engine lock nor waits for it: another tab may try.
      this.tab.election.release();
      this.dispatchEvent(new CustomEvent('error', { detail: error }));
    });
  }

  onProgress(listener: (progress: LoadProgress) => void): () => void {
    const handler = (event: Event) => {
      if (event instanceof CustomEvent) listener(event.detail);
    };
    this.addEventListener('progress', handler);
    return () => this.removeEventListener('progress', handler);
  }

  async recentRequests(): Promise<RequestRecord[]> {
    return this.engine.recent();
  }

  async load(model: string | ModelSpec | WebLLMModelOptions): Promise<ModelCard> {
    const backend =
      this.options.backend === 'llamacpp' || this.options.backend === undefined ? 'auto' : this.options.backend;
    const spec = this.resolveOne(model, backend);
    const card = await this.tab.guarded(this.engine.load(spec, proxy(this.report)));
    this.loaded.set(spec.id, spec);
    this.engineState.serve([...this.loaded.values()]);
    return card;
  }

  /** `POST /lora-adapters` set `model`'s scales: a restart, here or in the tab that takes over, loads them again. */
  private keepLoraScales(model: string, scales: number[]): void {
    const spec = this.loaded.get(model);
    if (spec) this.engineState.setScales(spec, scales);
  }

  private readonly report = (progress: LoadProgress) =>
    this.dispatchEvent(new CustomEvent('progress', { detail: progress }));

  stream(body: Record<string, unknown>): AsyncIterable<DirectEvent> {
    return directStream(this.engine, { model: this.model, ...body }, (listener) => this.tab.whenDead(listener));
  }

  dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.rejoinTimer);
    this.engineState.close();
    return this.tab.dispose();
  }

  /** Starts this tab's engine worker, offering the catalogues of the chosen backends. */
  private run(): Remote<EngineApi> {
    const catalogues = backendsOf(this.choice).filter((backend) => backend.offersCatalogue);
    // The SW holds requests for the models it loads again, and for those the last leading tab served.
    const reloads = [...this.loaded.keys(), ...this.engineState.others(this.serving.id).map((spec) => spec.id)];
    return this.tab.lead(
      catalogues.map((backend) => backend.name),
      this.oneThread ? { threads: { prefill: 1, decode: 1 } } : {},
      reloads,
    );
  }

  /**
   * A follower: no engine here; ready once another tab's engine answers through the SW. When
   * the leader goes, the lock comes to one follower, which starts the engine and says hello.
   */
  private async follow(models: ResolvedModels, options: InpageOptions): Promise<void> {
    this.tab.follow();
    this.engineState.ask();
    const timeoutMs = options.timeoutMs ?? 15_000;
    const prefix = normalizeRoutePrefix(options.routePrefix ?? DEFAULT_ROUTE_PREFIX);
    await controlPage(serviceWorkerUrl(options, prefix), options.scope ?? '/', timeoutMs, false);
    void this.tab.election.leads.then(() => this.takeOver(models));
    await announceRoutes(this.routeInfo(), timeoutMs);
    this.serving = await probeLeader(prefix, models, this.apiKey, timeoutMs);
    this.deviceState = { model: this.serving.id, status: 'ready', error: null };
    this.started = true;
  }

  /** Promoted (or back in line after giving the model up): load the model and tell the SW this page serves it. */
  private takeOver(models: ResolvedModels): Promise<void> {
    return this.bringUp(models, 'leader');
  }

  /**
   * The engine worker died (the SW already ended its requests with `engine_crashed`): a new
   * worker loads the same models and serves the next requests. A tab that cannot (the model
   * crashes again on every reload, or no longer loads) gives the model up for a while.
   */
  private recover(models: ResolvedModels, reason: string): Promise<void> | void {
    // Whatever bring-up was under way, its worker is the one that died: this crash supersedes it.
    this.attempt += 1;
    this.dispatchEvent(new CustomEvent('crash', { detail: reason }));
    if (!this.started) {
      // A worker that hung while it started its engine (Firefox: worker/engine/announce-start.ts)
      // is replaced once by the start itself (firstLoad), which keeps the lock for it.
      if (reason === STARTING_HANG && this.startHangs++ === 0) return;
      return this.tab.abdicate();
    }
    if (!this.restarts.take()) {
      const error = new ServiceUnavailableError(
        `The engine crashed again (${reason}) before a restart could load '${this.model}'; this tab gave it up to another tab, and stands by for it again in ${this.backoffMs() / 1000} s.`,
        'engine_crashed',
      );
      return this.giveUp(error);
    }
    return this.bringUp(models, 'restart');
  }

  /**
   * Starts an engine worker in this tab, loads the models on it (those this tab served, else the
   * runtime's own, with its fallback) and tells the SW. Bring-ups are numbered: when the new
   * worker dies during its load, that crash starts the next one, and this one (whose load then
   * rejects) steps aside. It used to give the model up then, stopping the newer worker: a lone
   * tab was left with no engine until a reload.
   */
  private async bringUp(models: ResolvedModels, event: 'leader' | 'restart'): Promise<void> {
    const attempt = ++this.attempt;
    try {
      const engine = this.run();
      // At the scales POST /lora-adapters last set, in this tab or in the one that ran the engine.
      if (this.loaded.size === 0) {
        const primary = this.engineState.apply(models.primary);
        this.serving = await this.tab.guarded(loadWithFallback(engine, { ...models, primary }, proxy(this.report)));
        this.loaded.set(this.serving.id, this.serving);
      } else {
        for (const spec of [...this.loaded.values()])
          await this.tab.guarded(engine.load(this.engineState.apply(spec), proxy(this.report)));
      }
      await this.loadOthers(engine, attempt);
      if (attempt !== this.attempt) return;
      this.engineState.serve([...this.loaded.values()]);
      this.restarts.clear();
      this.giveUps = 0;
      this.started = true;
      this.tab.sayHello();
      this.dispatchEvent(new CustomEvent(event));
    } catch (error) {
      if (attempt === this.attempt) this.giveUp(error);
    }
  }

  /**
   * The models the last leading tab served that this one has not loaded (all but its own when it
   * takes over; none when it restarts its own engine). One that no longer loads here (a blob URL
   * of the tab that went, say) is left out, with a warning: the tab's own model serves.
   */
  private async loadOthers(engine: Remote<EngineApi>, attempt: number): Promise<void> {
    for (const spec of this.engineState.others(this.serving.id).filter(({ id }) => !this.loaded.has(id))) {
      try {
        await this.tab.guarded(engine.load(spec, proxy(this.report)));
        this.loaded.set(spec.id, spec);
      } catch (error) {
        if (attempt !== this.attempt) throw error;
        console.warn(
          `[inpage-llm] '${spec.id}', which the tab that ran the engine served, did not load here: ${toOpenAIError(error).message}`,
        );
      }
    }
  }

  /** How long a tab that gave its model up waits before it stands by for it again (5 s, doubling to 60 s). */
  private backoffMs(): number {
    return Math.min(60_000, 5000 * 2 ** this.giveUps);
  }

  /**
   * Gives the model up: the lock goes to the next tab in line (a follower takes over), and after
   * `backoffMs` this tab stands by for it again, so a lone tab takes it back instead of staying
   * without an engine until a reload (requests meanwhile get a 503 at once).
   */
  private giveUp(error: unknown): void {
    this.attempt += 1;
    const wait = this.backoffMs();
    this.giveUps += 1;
    this.tab.abdicate();
    this.dispatchEvent(new CustomEvent('error', { detail: error }));
    clearTimeout(this.rejoinTimer);
    this.rejoinTimer = setTimeout(() => {
      if (!this.disposed && !this.tab.leads) this.tab.rejoin();
    }, wait);
  }

  private async start(models: ResolvedModels, options: InpageOptions): Promise<void> {
    const engine = this.run();
    const scope = options.scope ?? '/';
    const timeoutMs = options.timeoutMs ?? 15_000;
    const report = proxy(this.report);
    const prefix = normalizeRoutePrefix(options.routePrefix ?? DEFAULT_ROUTE_PREFIX);
    const firstVisit = !navigator.serviceWorker.controller;
    const controlled = controlPage(serviceWorkerUrl(options, prefix), scope, timeoutMs);
    // On a first visit the SW's install downloads its precache (the ~10 MB wasm among it):
    // loading after it lets the engine's fetch revalidate that copy instead of downloading the
    // same bytes again at the same time.
    const after = firstVisit ? controlled.then(() => undefined) : Promise.resolve();
    // A failed load settles `ready` only once the SW controls the page, so /v1 then answers
    // with the OpenAI error (503 model_load_failed) instead of reaching the network.
    const loaded = after
      .then(() => this.firstLoad(engine, models, report))
      .then(
        (spec) => {
          this.serving = spec;
          this.deviceState = { model: spec.id, status: 'ready', error: null };
          this.loaded.set(spec.id, spec);
          this.engineState.serve([...this.loaded.values()]);
          return true;
        },
        async (error: unknown) => {
          await controlled.catch(() => undefined);
          // With somewhere else to send requests, a device that cannot load does not fail the start.
          if (!hasRemoteTarget(this.routes)) throw error;
          this.deviceFailed(error);
          return false;
        },
      );
    const [registration, deviceReady] = await Promise.all([controlled, loaded]);
    // In the background: a stale Service Worker still answers; the check warns and updates it.
    if (options.checkServiceWorker !== false && BUILD_STAMP.checksum !== 'dev') void checkSwVersion(registration);
    await announceRoutes(this.routeInfo(), timeoutMs);
    if (deviceReady) {
      await probeEndpoint(prefix, this.serving.id, this.apiKey, timeoutMs);
      this.started = true;
    }
  }

  /**
   * The first load. Where its worker hung while it started the engine (recover kept the lock),
   * a new worker loads the models on one thread, for the rest of this page's life: in Firefox
   * 153 the hang is in creating the pthread workers (4 starts in 91 after another page in the
   * tab), and a second worker of the same page with threads hung there again. A hang there too
   * fails the start with its reason.
   */
  private async firstLoad(
    engine: Remote<EngineApi>,
    models: ResolvedModels,
    report: (progress: LoadProgress) => void,
  ): Promise<ModelSpec> {
    try {
      return await this.tab.guarded(loadWithFallback(engine, models, report));
    } catch (error) {
      if (this.startHangs !== 1 || this.oneThread) throw error;
      this.oneThread = true;
      console.warn(ONE_THREAD_AFTER_HANG);
      const spec = await this.tab.guarded(loadWithFallback(this.run(), models, report));
      this.tab.sayHello();
      return spec;
    }
  }

  private deviceFailed(thrown: unknown): void {
    const error = toOpenAIError(thrown);
    this.deviceState = { model: this.serving.id, status: 'failed', error };
    console.warn(
      `[inpage-llm] the in-page model '${this.serving.id}' failed to load (${error.code ?? error.status}): ${error.message} Its routes use their other targets.`,
    );
    this.report({ model: this.serving.id, phase: 'failed', fraction: null, error: error.message });
  }
}
