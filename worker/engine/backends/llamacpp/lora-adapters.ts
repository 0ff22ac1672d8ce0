/**
 * A model's LoRA adapters once loaded (llama-server's `--lora`): what `/lora-adapters` lists,
 * the model's scales (`POST /lora-adapters` sets them), and the scales in the engine now. A
 * request runs at the scales it names (those listed, the others 0) or the model's; the engine
 * takes them before the request's first decode (`use`). KV entries hold what the scales of
 * their decode gave, so a slot's cached prefix is kept only for a request at the same scales,
 * and with slots, requests at other scales wait for the running ones (slot-steps.ts's groups):
 * one set of scales at a time, where llama-server batches each set apart. The prompt cache
 * across reloads keeps states made at the load's scales only (its key names them: backend.ts).
 */
import { checkLoraScales, scalesFrom, type LoraAdapterInfo, type LoraScale } from '#core/domain/lora';

export class LoraAdapters {
  /** The model's scales, for requests that name none. */
  private own: number[];
  /** The scales it was loaded at (the spec's), those of the prompt cache's saved states. */
  readonly loadScales: readonly number[];
  /** The scales the engine's generation context has (all 0 after the load), and its embedding context. */
  private applied: number[];
  private appliedToEmbedding: number[];
  /** The scales each slot's cached cells were decoded at (its group), by slot. */
  private readonly cachedAt = new Map<number, string>();

  constructor(private readonly adapters: readonly LoraAdapterInfo[] = []) {
    this.own = adapters.map((adapter) => adapter.scale);
    this.loadScales = [...this.own];
    this.applied = adapters.map(() => 0);
    this.appliedToEmbedding = adapters.map(() => 0);
  }

  get count(): number {
    return this.adapters.length;
  }

  /** `GET /lora-adapters`: each adapter, at the model's scale now. */
  list(): LoraAdapterInfo[] {
    return this.adapters.map((adapter, i) => ({ ...adapter, scale: this.own[i] ?? 0 }));
  }

  /** `POST /lora-adapters`: the listed adapters at their scales, the others at 0 (llama-server's). */
  setOwn(listed: readonly LoraScale[]): void {
    checkLoraScales(listed, this.count, 'id');
    this.own = scalesFrom(listed, this.count);
  }

  /** The scales a request runs at: those it lists (the others 0), or, where it lists none, the model's. */
  scalesFor(listed: readonly LoraScale[]): number[] {
    checkLoraScales(listed, this.count);
    return listed.length > 0 ? scalesFrom(listed, this.count) : [...this.own];
  }

  /** Whether a request at `scales` may restore and save states of the prompt cache across reloads. */
  savesAt(scales: readonly number[]): boolean {
    return this.group(scales) === this.group(this.loadScales);
  }

  /** The group of requests that may run together: the same scales (every request, without adapters). */
  group(scales: readonly number[]): string {
    return scales.join(',');
  }

  /**
   * Before `slot` decodes at `scales`: gives the engine those scales where it has others
   * (`apply`), and says whether the slot's cached cells were decoded at them (else its caller
   * drops them). The slot's cells are at `scales` from now on.
   */
  use(slot: number, scales: readonly number[], apply: (scales: readonly number[]) => void): boolean {
    if (this.count === 0) return true;
    if (this.group(this.applied) !== this.group(scales)) {
      apply(scales);
      this.applied = [...scales];
    }
    const group = this.group(scales);
    const same = (this.cachedAt.get(slot) ?? this.group(this.adapters.map(() => 0))) === group;
    this.cachedAt.set(slot, group);
    return same;
  }

  /**
   * Before an embedding or a rerank: the model's scales on the embedding context (`apply`), as
   * llama-server embeds at them (native/lora.cpp drops its kept prefix on a change).
   */
  useOwn(apply: (scales: readonly number[]) => void): void {
    if (this.count === 0 || this.group(this.appliedToEmbedding) === this.group(this.own)) return;
    apply(this.own);
    this.appliedToEmbedding = [...this.own];
  }
}
