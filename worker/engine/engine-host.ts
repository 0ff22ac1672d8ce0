import { ServiceUnavailableError, toOpenAIError } from '#core/domain/errors';
import type { BackendName } from '#core/domain/backend-name';
import type { ModelCard } from '#core/domain/model-card';
import type { ModelSlots } from '#core/domain/slots';
import type { LoadProgress, ModelSpec } from '#core/domain/model-spec';
import type { EngineApi, EngineAssets, EngineSettings, RequestRecord } from '#core/protocol/engine-api';
import type { InboxInfo, Job } from '#core/protocol/protocol';
import { DISTINCT_LOAD_CODES } from '#core/domain/webllm-source';
import type { Backend, LoadedModel } from './backend';
import { setEngineAssets } from './engine-assets';
import { setEngineSettings } from './engine-settings';
import { holdForLife } from './hold-for-life';
import { ModelQueue } from './model-queue';
import { RequestLog } from './request-log';
import { steadyProgress } from './steady-progress';
import { serveInbox, type Inbox } from './serve-inbox';
import { serveJob } from './serve-job';

const NO_DECODES = { decodes: 0, decodedSlots: 0 };

/** How many of the page's inboxes the engine serves (the newest). */
const KEPT_INBOXES = 2;

interface ModelEntry {
  card: ModelCard;
  loaded: Promise<LoadedModel>;
  queue: ModelQueue;
  /** The model, once loaded (its slots' state: `slotStates`). */
  model?: LoadedModel;
}

/**
 * The engine worker's API (exposed to the page with comlink): loads models on their backend,
 * queues jobs (generations, embeddings) per model (FIFO, one at a time), and cancels exactly
 * the job whose client went away.
 */
export class EngineHost implements EngineApi {
  private readonly entries = new Map<string, ModelEntry>();
  private readonly backends: Map<BackendName, Backend>;
  private readonly log = new RequestLog();
  private catalogues = new Set<BackendName>();
  private readonly inboxes: Inbox[] = [];

  constructor(backends: Backend[]) {
    this.backends = new Map(backends.map((backend) => [backend.name, backend]));
  }

  /** Where the prebuilt worker's wasm and WebLLM module are (engine-assets-prebuilt.ts). */
  useAssets(assets: EngineAssets): void {
    setEngineAssets(assets);
  }

  /** The engine-wide settings (threads, slots, downloads, prompt cache), sent once by the page (engine-settings.ts). */
  useSettings(settings: EngineSettings): void {
    setEngineSettings(settings);
  }

  /**
   * Loads `spec` (once; a second call waits for the first) and resolves with its card. Its
   * progress never goes back within a phase (`steadyProgress`), whatever the backend reports.
   */
  async load(spec: ModelSpec, report: (progress: LoadProgress) => void): Promise<ModelCard> {
    const onProgress = steadyProgress(report);
    const existing = this.entries.get(spec.id);
    if (existing && existing.card.status !== 'failed') {
      await existing.loaded;
      return existing.card;
    }
    const backend = this.backends.get(spec.backend);
    if (!backend)
      throw new ServiceUnavailableError(
        `The '${spec.backend}' backend is not available in this engine.`,
        'backend_unavailable',
      );
    const card: ModelCard = {
      id: spec.id,
      object: 'model',
      created: Math.floor(Date.now() / 1000),
      owned_by: 'inpage-llm',
      backend: spec.backend,
      status: 'loading',
      // llama-server's list names each model's aliases (a set: sorted, its id among them) and tags;
      // on the loading card already, so a request naming an alias waits for the load as its id's does.
      aliases: [...new Set([spec.id, ...(spec.aliases ?? [])])].sort(),
      tags: [],
    };
    const loaded = backend.load(spec, onProgress);
    const queue = new ModelQueue();
    const entry: ModelEntry = { card, loaded, queue };
    this.entries.set(spec.id, entry);
    this.announce();
    try {
      const model = await loaded;
      // A model with slots runs as many jobs at once (its generations are batched: slot-steps.ts).
      queue.limit = model.details?.slots ?? 1;
      card.status = 'ready';
      card.context_length = model.capabilities.context_length;
      card.capabilities = model.capabilities;
      Object.assign(card, model.details);
      entry.model = model;
      if (model.watchSlots) {
        card.processing = [];
        model.watchSlots((busy) => {
          card.processing = busy;
          this.announce();
        });
      }
      this.announce();
      onProgress({ model: spec.id, phase: 'ready', fraction: 1 });
      return card;
    } catch (error) {
      card.status = 'failed';
      const failure = toOpenAIError(error);
      card.error = failure.message;
      if (failure.code && DISTINCT_LOAD_CODES.has(failure.code)) card.error_code = failure.code;
      this.announce();
      throw error;
    }
  }

  /** Backends whose catalogues `/v1/models` lists (the runtime turns WebLLM's on for webllm/auto). */
  offerCatalogue(backends: BackendName[]): void {
    this.catalogues = new Set(backends);
  }

  /** What the offered backends could load here, minus what is loaded: `available` cards. */
  async catalogue(): Promise<ModelCard[]> {
    const lists = await Promise.all(
      [...this.catalogues].map((name) => this.backends.get(name)?.catalogue?.() ?? Promise.resolve([])),
    );
    return lists.flat().filter((card) => !this.entries.has(card.id));
  }

  /** The last requests' outcomes, newest last. */
  recent(): RequestRecord[] {
    return this.log.list();
  }

  /** The models this engine knows, with their status. */
  models(): ModelCard[] {
    return [...this.entries.values()].map((entry) => ({ ...entry.card }));
  }

  /** Each loaded model's slots: their last generations and its engine's decodes (`GET /slots`, `/metrics`), by model id. */
  slotStates(): Record<string, ModelSlots> {
    return Object.fromEntries(
      [...this.entries].flatMap(([id, { model }]) =>
        model?.slotTasks ? [[id, { tasks: model.slotTasks.list(), ...(model.decodeCounts?.() ?? NO_DECODES) }]] : [],
      ),
    );
  }

  /** Queues `job` on its model's queue; its events go to `port`, and a cancel on `port` stops only this job. */
  run(job: Job, port: MessagePort): void {
    serveJob(this.entries.get(job.request.model), job, port, this.log);
  }

  /** Answers the Service Worker's queries and jobs on `inbox` (it posts them there, past the page). */
  openInbox(inbox: MessagePort, page: InboxInfo): void {
    this.inboxes.push(serveInbox(inbox, this, page));
    // A page has one SW at a time; a new inbox means the SW that held an older one is gone
    // (the newest two are kept: an offer can cross a relayed message at start).
    for (const old of this.inboxes.splice(0, Math.max(0, this.inboxes.length - KEPT_INBOXES))) old.release();
  }

  /** Tells each inbox's Service Worker the models now (they changed). */
  private announce(): void {
    for (const inbox of this.inboxes) inbox.announce();
  }

  /** Whether `spec`'s files are all cached (false where its backend does not cache). */
  async isCached(spec: ModelSpec): Promise<boolean> {
    return (await this.backends.get(spec.backend)?.isCached?.(spec)) ?? false;
  }

  /** Deletes `spec`'s files from the browser's cache (nothing where its backend does not cache). */
  async deleteCached(spec: ModelSpec): Promise<void> {
    await this.backends.get(spec.backend)?.deleteCached?.(spec);
  }

  /** Holds the Web Lock `name` while this worker lives (the page's watch asks for it too). */
  holdLife(name: string): Promise<void> {
    return holdForLife(name);
  }

  /** The page's keepalive. */
  ping(): boolean {
    return true;
  }

  /** Unloads every model. */
  async dispose(): Promise<void> {
    for (const inbox of this.inboxes.splice(0)) inbox.close();
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map(async (entry) => (await entry.loaded.catch(() => null))?.unload()));
  }
}
