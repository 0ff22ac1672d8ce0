/**
 * POSTed LoRA scales across a tab handover. `POST /lora-adapters` sets a model's scales in the
 * leading tab's engine, and llama-server keeps such scales until it stops; here the server is
 * the origin's tabs together, so they must outlive the tab that ran the engine. That tab tells
 * the others (a BroadcastChannel), a tab that begins to follow asks it, and the tab that takes
 * the engine over (or restarts it after a crash) loads the model at the last scales it knows.
 * A page alone on its origin starts from the scales it loads the model with, as a restarted
 * llama-server does.
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

export class LoraScalesChannel {
  /** The last scales this origin's engine set, by model id. */
  private readonly known = new Map<string, KnownScales>();
  private readonly channel: BroadcastChannel | null =
    typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(TABS_CHANNEL);

  /** `leads`: whether this tab runs the engine now (only that tab answers a question). */
  constructor(private readonly leads: () => boolean) {
    this.channel?.addEventListener('message', this.onMessage);
  }

  /** This tab's engine set `spec`'s model at `scales` (one per adapter): keep them and tell the other tabs. */
  set(spec: ModelSpec, scales: number[]): void {
    if (!spec.lora) return;
    const known = { adapters: spec.lora.map((adapter) => adapter.id), scales };
    this.known.set(spec.id, known);
    this.post(message<PageToPage, 'tab.lora'>('tab.lora', { model: spec.id, ...known }));
  }

  /** This tab begins to follow for `model`: the leading tab's answer is kept as if it had been told. */
  ask(model: string): void {
    this.post(message<PageToPage, 'tab.lora.query'>('tab.lora.query', { model }));
  }

  /** `spec` at the last scales set for its model, where they were set for the same adapters; else as it is. */
  apply(spec: ModelSpec): ModelSpec {
    const known = this.known.get(spec.id);
    const lora = spec.lora;
    if (!known || !lora || known.adapters.join('\n') !== lora.map((adapter) => adapter.id).join('\n')) return spec;
    return { ...spec, lora: lora.map((adapter, i) => ({ ...adapter, scale: known.scales[i] ?? adapter.scale })) };
  }

  close(): void {
    this.channel?.close();
  }

  private post(data: MessageOf<PageToPage>): void {
    this.channel?.postMessage(data);
  }

  private readonly onMessage = (event: MessageEvent<unknown>) => {
    const data = event.data;
    if (!isPageToPage(data)) return;
    if (data.type === 'tab.lora') {
      this.known.set(data.model, { adapters: data.adapters, scales: data.scales });
      return;
    }
    const known = this.known.get(data.model);
    if (known && this.leads()) this.post(message<PageToPage, 'tab.lora'>('tab.lora', { model: data.model, ...known }));
  };
}
