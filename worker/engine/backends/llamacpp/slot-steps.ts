/**
 * Continuous batching over the engine's slots (llama-server's `--parallel`, docs/design/sequences.md):
 * each running request holds a slot (one sequence, with a KV cache stream of its own), and the tokens its
 * slots sampled are decoded together, one `ip_step` for all of them, instead of one decode per
 * request in turn. A step's logits are sampled here, each row with its own slot's sampler, before
 * anything else is decoded (the next decode overwrites them); so is a prompt's first token, right
 * after its last chunk. A tick runs one step and one prompt chunk (sized by time, as the single
 * slot's are: prefill-steps.ts), so a long prompt delays the others' tokens by one chunk at most,
 * and the worker's events (aborts, keepalives) run between ticks.
 *
 * A prompt is read once where several requests start with it at once (`n` > 1, or the same
 * prompt sent twice): the first slot reads it, and the others wait and copy its cells (`share`),
 * as llama-server's `n_cmpl` children copy their parent's.
 *
 * A slot with speculative decoding (n-grams or a draft model: draft-batch.ts) that found a draft decodes its
 * token and the draft in a batch of its own, before the step of the others' tokens, and samples
 * all the draft's positions at once (`checkDraft`): each token taken, then the one after them.
 *
 * Requests at other LoRA scales (lora-adapters.ts) do not run together: a slot is given only to a
 * request in the running ones' group, and one of another group waits, and holds back those queued
 * behind it, until the running ones end.
 *
 * A slot's cache stream holds its share of the context (native/load.cpp), and a request ends at
 * its slot's end (model.ts): a step or a prompt chunk always has room. Where the engine says
 * otherwise, that is the engine's failure, not the request's.
 */
import { EngineError, SamplerError } from './engine-error';
import type { EngineGuard } from './engine-guard';
import type { LlamaWasm, SampledToken } from './llama-wasm';
import { DECODE_COST_IN_PROMPT_TOKENS, PrefillSteps } from './prefill-steps';
import { sharedPrefix } from '../../prompt-cache/saved-prefixes';
import { yieldToEvents } from './yield-to-events';
import { announceBusy } from '../../request-control';
import { recordStepSize } from './test-step-sizes';
import type { DraftBatch } from './draft-batch';

/** True only in test builds (vite.config.ts): see test-step-sizes.ts. */
declare const __INPAGE_TEST_HOOKS__: boolean;

/** How a slot's next token is sampled: `top` logprobs reported, end-of-generation banned (min_tokens). */
export interface SampleSpec {
  top: number;
  banEog: boolean;
  /** End the reasoning here first (a `reasoning_end` control: the budget's sampler forces the end tag). */
  endReasoning?: boolean;
}

/** What a slot's prompt gave: its first token, or 'aborted'. */
export type StepResult = SampledToken | 'aborted';

/**
 * What a slot's step gave: the tokens it sampled, or 'aborted'. One token, or, where the slot
 * checked a draft, each draft token taken and then the one sampled after them (the last is the
 * one to decode next; the others' cells are in the context already).
 */
export type TokensResult = SampledToken[] | 'aborted';

/** A slot's speculative decoding (draft-batch.ts) and how many draft tokens its request has room for. */
export interface SlotDrafts {
  batch: DraftBatch;
  room: number;
}

interface Settle<T> {
  resolve(result: T): void;
  reject(error: unknown): void;
}

interface TokenWork extends Settle<TokensResult> {
  slot: number;
  id: number;
  /** How the k-th token sampled in this step is sampled (k > 0 after draft tokens taken). */
  sample: (k: number) => SampleSpec;
  signal: AbortSignal;
  drafts: SlotDrafts | null;
}

interface PrefillWork extends Settle<StepResult | null> {
  slot: number;
  sample: SampleSpec | null;
  signal: AbortSignal;
}

/** A waiter for a slot: `wanted` is a slot's index, or null for any free one. */
interface Waiter {
  ids: readonly number[];
  wanted: number | null;
  group: string | null;
  grant(slot: number | null): void;
}

/** A slot reading a prompt: its ids, and `read`, settled once the prompt is read (or abandoned). */
interface Reading {
  ids: readonly number[];
  read: Promise<void>;
  finish(): void;
}

/** The longest a tick runs its steps on microtasks before it lets the worker's events in, in ms. */
const YIELD_EVERY_MS = 4;

export class SlotSteps {
  private readonly held: boolean[];
  /** Each held slot's group (its request's LoRA scales: lora-adapters.ts), null where any goes. */
  private readonly groups: (string | null)[];
  private readonly lastUsed: number[];
  private clock = 0;
  private readonly waiters: Waiter[] = [];
  /** Slots between their prompt's first sampled token and their release. */
  private readonly generating = new Set<number>();
  private readonly tokens = new Map<number, TokenWork>();
  private readonly prefills: PrefillWork[] = [];
  private readonly reading = new Map<number, Reading>();
  private readonly steps = new PrefillSteps();
  /** How long the last decode step took (all its slots), for `announceBusy`; null before one. */
  private stepMs: number | null = null;
  private scheduled = false;
  private lastYield = performance.now();
  /** Told the held slots whenever a slot is taken or given back (`/slots`' `is_processing`). */
  onBusy: ((busy: number[]) => void) | null = null;

  constructor(
    private readonly engine: LlamaWasm,
    private readonly guard: EngineGuard,
    readonly count: number,
  ) {
    this.held = new Array<boolean>(count).fill(false);
    this.groups = new Array<string | null>(count).fill(null);
    this.lastUsed = new Array<number>(count).fill(0);
  }

  /**
   * A slot for a request whose prompt is `ids` (null: it aborted while waiting): the free slot
   * whose kept tokens share the most of the prompt (its prefix is reused), else the one idle
   * longest, as llama-server picks. `wanted`: that slot only (a slot action). FIFO among waiters.
   * `group`: its LoRA scales; a slot is given only while every held slot is in its group (null:
   * any), so one set of scales decodes at a time, and a waiter of another group holds back
   * those behind it until the slots run dry.
   */
  acquire(
    ids: readonly number[],
    signal: AbortSignal,
    wanted: number | null = null,
    group: string | null = null,
  ): Promise<number | null> {
    if (signal.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        ids,
        wanted,
        group,
        grant: (slot) => {
          signal.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        resolve(null);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.grant();
    });
  }

  /**
   * Before `slot` begins the prompt `ids`: where another slot is reading a prompt that holds more
   * of `ids` than `slot` keeps, waits until it is read and copies that slot's cells into `slot`
   * (`begin` then reuses them as its own); else `slot` is the one reading `ids`, until its prompt
   * is read (`prefill`) or it is released. Synchronous up to its first wait, so that of several
   * choices started together the first reads and the rest wait.
   */
  async share(slot: number, ids: readonly number[], signal: AbortSignal): Promise<void> {
    const own = sharedPrefix(this.kept(slot), ids);
    let source: { slot: number; shared: number; read: Promise<void> } | null = null;
    for (const [other, reading] of this.reading) {
      const shared = sharedPrefix(reading.ids, ids);
      // The last prompt token is read again for its logits: sharing fewer than two more is no gain.
      if (other !== slot && shared > Math.max(own + 1, source?.shared ?? 0))
        source = { slot: other, shared, read: reading.read };
    }
    if (!source) {
      let finish = () => {};
      const read = new Promise<void>((resolve) => (finish = resolve));
      this.reading.set(slot, { ids, read, finish });
      return;
    }
    await new Promise<void>((resolve) => {
      const aborted = () => resolve();
      signal.addEventListener('abort', aborted, { once: true });
      void source.read.then(() => {
        signal.removeEventListener('abort', aborted);
        resolve();
      });
    });
    if (signal.aborted) return;
    const from = source.slot;
    if (sharedPrefix(this.kept(from), ids) > own + 1) await this.guard.section(() => this.engine.copySlot(from, slot));
  }

  /** `slot`'s prompt is read, or abandoned: the slots waiting for it go on. */
  private doneReading(slot: number): void {
    const reading = this.reading.get(slot);
    if (!reading) return;
    this.reading.delete(slot);
    reading.finish();
  }

  /** Gives `slot` back (its tokens stay cached for the next prompt that shares them). */
  release(slot: number): void {
    this.doneReading(slot);
    this.held[slot] = false;
    this.generating.delete(slot);
    this.tokens.delete(slot);
    this.lastUsed[slot] = ++this.clock;
    this.tellBusy();
    this.grant();
    if (this.tokens.size > 0 || this.prefills.length > 0) this.schedule();
  }

  /**
   * Reads the prompt `begin` left pending on `slot`, a chunk per tick; then, unless `sample` is
   * null, samples its first token. Null when aborted (or with no sample).
   */
  prefill(slot: number, sample: SampleSpec | null, signal: AbortSignal): Promise<StepResult | null> {
    return new Promise((resolve, reject) => {
      this.prefills.push({
        slot,
        sample,
        signal,
        resolve: (result) => {
          this.doneReading(slot);
          resolve(result);
        },
        reject: (error) => {
          this.doneReading(slot);
          reject(error);
        },
      });
      this.schedule();
    });
  }

  /**
   * Decodes `id` (the token `slot` sampled last) in the next step and samples the slot's next
   * one; with `drafts`, with a draft of the slot's own where one is found (`checkDraft`).
   */
  token(
    slot: number,
    id: number,
    sample: (k: number) => SampleSpec,
    signal: AbortSignal,
    drafts: SlotDrafts | null = null,
  ): Promise<TokensResult> {
    return new Promise((resolve, reject) => {
      this.tokens.set(slot, { slot, id, sample, signal, drafts, resolve, reject });
      this.schedule();
    });
  }

  private grant(): void {
    for (let i = 0; i < this.waiters.length; i++) {
      const waiter = this.waiters[i];
      if (!waiter) continue;
      if (this.otherGroupHeld(waiter.group)) return;
      const slot = this.pick(waiter);
      if (slot === null) {
        if (waiter.wanted === null) return;
        continue;
      }
      this.waiters.splice(i, 1);
      i -= 1;
      this.held[slot] = true;
      this.groups[slot] = waiter.group;
      this.tellBusy();
      waiter.grant(slot);
    }
  }

  /** Whether a held slot is in a group other than `group` (null: none is). */
  private otherGroupHeld(group: string | null): boolean {
    if (group === null) return false;
    return this.groups.some((other, slot) => this.held[slot] === true && other !== null && other !== group);
  }

  private tellBusy(): void {
    this.onBusy?.(this.held.flatMap((held, slot) => (held ? [slot] : [])));
  }

  private pick(waiter: Waiter): number | null {
    if (waiter.wanted !== null) return this.held[waiter.wanted] ? null : waiter.wanted;
    let best: number | null = null;
    let bestShared = -1;
    for (let slot = 0; slot < this.count; slot++) {
      if (this.held[slot]) continue;
      const shared = waiter.ids.length === 0 ? 0 : sharedPrefix(this.kept(slot), waiter.ids);
      const older = best !== null && shared === bestShared && (this.lastUsed[slot] ?? 0) < (this.lastUsed[best] ?? 0);
      if (shared > bestShared || older) {
        best = slot;
        bestShared = shared;
      }
    }
    return best;
  }

  private kept(slot: number): number[] {
    return this.guard.call(() => this.engine.slotTokens(slot));
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const allIn = this.prefills.length === 0 && this.tokens.size >= this.generating.size;
    if (allIn && performance.now() - this.lastYield < YIELD_EVERY_MS) queueMicrotask(() => this.tick());
    else
      void yieldToEvents().then(() => {
        this.lastYield = performance.now();
        this.tick();
      });
  }

  /** One step for the tokens submitted, then one prompt chunk: one section of the engine's lock. */
  private tick(): void {
    void this.engine.exclusive(() => this.tickSection());
  }

  private async tickSection(): Promise<void> {
    // Asked for from here on, a tick runs after this one (its work is submitted meanwhile: a step may suspend).
    this.scheduled = false;
    // In slot order: llama.cpp puts a step's sequences in one micro-batch only while their ids
    // rise one by one in the batch (llama_batch_allocr::split_equal, sequential with a cache
    // stream per sequence); in any other order each sequence is a micro-batch, a decode, of its own.
    const work = [...this.tokens.values()]
      .filter((item) => {
        if (!item.signal.aborted) return true;
        item.resolve('aborted');
        return false;
      })
      .sort((a, b) => a.slot - b.slot);
    this.tokens.clear();
    // A slot with a draft to check decodes it alone first (settled there, or failed alone); the others' tokens make the step.
    const joint: TokenWork[] = [];
    for (const item of work) {
      const drafts = item.drafts;
      let alone = false;
      if (drafts !== null) {
        alone = true;
        await this.settle([item], async () => void (alone = await this.checkDraft(item, drafts)));
      }
      if (!alone) joint.push(item);
    }
    if (joint.length > 0) await this.settle(joint, () => this.step(joint));
    const chunk = this.prefills.shift();
    if (chunk) await this.settle([chunk], () => this.prefillChunk(chunk));
    if (this.tokens.size > 0 || this.prefills.length > 0) this.schedule();
  }

  /** Runs `run`; a failure rejects each of `work` with the guard's account of it (a crash once). */
  private async settle(work: ReadonlyArray<Pick<Settle<never>, 'reject'>>, run: () => Promise<void>): Promise<void> {
    try {
      await this.guard.callAsync(run);
    } catch (error) {
      for (const item of work) item.reject(error);
    }
  }

  private async step(work: TokenWork[]): Promise<void> {
    announceBusy(this.stepMs ?? this.steps.expectedMs(DECODE_COST_IN_PROMPT_TOKENS * work.length));
    const started = performance.now();
    const status = await this.engine.step(
      work.map((item) => item.slot),
      work.map((item) => item.id),
    );
    if (status !== 'ok') throw new EngineError(`a step found no room in a slot's cache (${status})`);
    if (__INPAGE_TEST_HOOKS__) recordStepSize(work.length);
    for (const [row, item] of work.entries()) {
      // A request whose sampler fails ends alone; the step's other rows are sampled.
      try {
        item.resolve([await this.sampleAt(item.slot, item.sample(0), row)]);
      } catch (error) {
        if (!(error instanceof SamplerError)) throw error;
        item.reject(error);
      }
    }
    this.stepMs = performance.now() - started;
  }

  /**
   * Decodes `item`'s token with a draft of the slot's own, where one is found, in a batch of that
   * slot alone (below MAX_DRAFT_BATCH: the logits each token gets alone, draft-batch.ts), and
   * samples its positions at once, before anything else is decoded: each draft token taken, then
   * the one after them. False: no draft; the token joins the step.
   */
  private async checkDraft(item: TokenWork, drafts: SlotDrafts): Promise<boolean> {
    this.engine.use(item.slot);
    const found = await drafts.batch.propose(item.id, drafts.room, this.steps.next());
    if (found.length === 0) return false;
    if (!(await drafts.batch.check(item.id, found))) throw new EngineError("a draft found no room in its slot's cache");
    const sampled: SampledToken[] = [];
    for (let taken = true; taken;) {
      const token = await this.sampleAt(item.slot, item.sample(sampled.length), drafts.batch.position);
      sampled.push(token);
      // A miss, or the token after a draft taken whole, ends the draft (its untaken cells go).
      taken = drafts.batch.taken(token.id);
    }
    item.resolve(sampled);
    return true;
  }

  private async prefillChunk(chunk: PrefillWork): Promise<void> {
    if (chunk.signal.aborted) return chunk.resolve('aborted');
    this.engine.use(chunk.slot);
    const pending = await this.steps.read(this.engine);
    if (pending === null) throw new EngineError("a prompt found no room in its slot's cache");
    if (pending > 0) return void this.prefills.push(chunk);
    if (!chunk.sample) return chunk.resolve(null);
    this.generating.add(chunk.slot);
    chunk.resolve(await this.sampleAt(chunk.slot, chunk.sample, -1));
  }

  private async sampleAt(slot: number, spec: SampleSpec, row: number): Promise<SampledToken> {
    this.engine.use(slot);
    if (spec.endReasoning) this.engine.reasoningEnd();
    const sampled = await this.engine.sample(spec.top, spec.banEog, row);
    this.engine.accept(sampled.id);
    return sampled;
  }
}
