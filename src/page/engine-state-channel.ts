/**
 * What an engine serves outlives the tab that ran it. The server here is the origin's tabs
 * together, and llama-server keeps its models and the scales `POST /lora-adapters` set until it
 * stops; so the tab that takes the engine over (the lock's next holder, when the leading tab
 * closes) loads the models the leading tab served, its own first, at the last scales set. The
 * leading tab tells the others on a BroadcastChannel whenever they change, a tab that begins to
 * follow asks it, and a restart after a crash in the same tab reads the same state. A page alone
 * on its origin starts from its own model at its own scales, as a restarted llama-server does.
 */
import type { ModelSpec } from '../core/domain/model-spec';
import { isPageToPage, message, type MessageOf, type PageToPage } from '../core/protocol/protocol';

/** The channel's name: every tab of the origin listens on it. */
export const TABS_CHANNEL = 'inpage-llm:tabs';

/** A model's scales as the engine that set them had its adapters (their ids, in order). */
interface KnownScales {
  adapters: string[];
  scales: number[];
}

export class EngineStateChannel {
  /** The last scales this origin's engines set, by model id. */
  private readonly scales = new Map<string, KnownScales>();
  /** The models the leading tab of this tab's election served, as it last said. */
  private served: ModelSpec[] = [];
  /** The channel; closed while the page is in the back/forward cache (an open one keeps it out). */
  private channel: BroadcastChannel | null = null;

  /**
   * `election`: the model id of this tab's lock; `leads`: whether this tab runs its engine now
   * (only that tab answers a question).
   */
  constructor(
    private readonly election: string,
    private readonly leads: () => boolean,
  ) {
    this.open();
    if (typeof addEventListener === 'function') addEventListener('pagehide', this.onPageHide);
  }

  /** This tab's engine serves `models` (in load order): keep them and tell the other tabs. */
  serve(models: ModelSpec[]): void {
    this.served = models;
    this.post(message<PageToPage, 'tab.models'>('tab.models', { election: this.election, models }));
  }

  /** This tab's engine set `spec`'s model at `scales` (one per adapter): keep them and tell the other tabs. */
  setScales(spec: ModelSpec, scales: number[]): void {
    if (!spec.lora) return;
    const known = { adapters: spec.lora.map((adapter) => adapter.id), scales };
    this.scales.set(spec.id, known);
    this.post(message<PageToPage, 'tab.lora'>('tab.lora', { model: spec.id, ...known }));
  }

  /** This tab begins to follow: the leading tab's answers are kept as if it had told them. */
  ask(): void {
    this.post(message<PageToPage, 'tab.query'>('tab.query', { election: this.election }));
  }

  /** The models the leading tab served besides `own` (the model this tab loads first), at the last scales. */
  others(own: string): ModelSpec[] {
    return this.served.filter((spec) => spec.id !== own).map((spec) => this.apply(spec));
  }

  /** `spec` at the last scales set for its model, where they were set for the same adapters; else as it is. */
  apply(spec: ModelSpec): ModelSpec {
    const known = this.scales.get(spec.id);
    const lora = spec.lora;
    if (!known || !lora || known.adapters.join('\n') !== lora.map((adapter) => adapter.id).join('\n')) return spec;
    return { ...spec, lora: lora.map((adapter, i) => ({ ...adapter, scale: known.scales[i] ?? adapter.scale })) };
  }

  close(): void {
    if (typeof removeEventListener === 'function') removeEventListener('pagehide', this.onPageHide);
    this.channel?.close();
    this.channel = null;
  }

  /** Opens the channel where it is closed (a page back from the back/forward cache asks first: `ask`). */
  private open(): void {
    if (this.channel || typeof BroadcastChannel === 'undefined') return;
    this.channel = new BroadcastChannel(TABS_CHANNEL);
    this.channel.addEventListener('message', this.onMessage);
  }

  private post(data: MessageOf<PageToPage>): void {
    this.open();
    this.channel?.postMessage(data);
  }

  /** Into the back/forward cache: Chromium keeps a page with an open BroadcastChannel out of it. */
  private readonly onPageHide = (event: PageTransitionEvent) => {
    if (!event.persisted) return;
    this.channel?.close();
    this.channel = null;
  };

  private readonly onMessage = (event: MessageEvent<unknown>) => {
    const data = event.data;
    if (!isPageToPage(data)) return;
    if (data.type === 'tab.lora') this.scales.set(data.model, { adapters: data.adapters, scales: data.scales });
    else if (data.election !== this.election) return;
    else if (data.type === 'tab.models') this.served = data.models;
    else if (this.leads()) {
      this.post(message<PageToPage, 'tab.models'>('tab.models', { election: this.election, models: this.served }));
      for (const [model, known] of this.scales)
        this.post(message<PageToPage, 'tab.lora'>('tab.lora', { model, ...known }));
    }
  };
}
