/**
 * Speculative decoding in the generation loop (native/speculative.cpp): instead of decoding the
 * sampled token alone, `push` decodes it with a draft (ngram-simple, native/speculative.cpp: what
 * followed the last occurrence of the context's final n-gram; draft-simple: a draft model's
 * greedy tokens, draft-model.ts) in one batch, with logits at every
 * position. The loop then samples each position in turn (`position`); while a sampled token is
 * the draft's there (`taken`), its cell is already in the context and nothing is decoded. The
 * first one that differs (or the token after a draft taken whole) ends the draft: the cells of
 * the rest are dropped, and that token is pushed as any sampled one. Every output token is still
 * one sample from the model's own logits (the same bits as a one-token decode's: MAX_DRAFT_BATCH),
 * with one call of the sampler (grammar, penalties, seed), so the output is the one without a
 * draft; a draft only saves decodes.
 */
import type { DraftCounts, SpeculativeParams } from '#core/domain/speculative';

/**
 * The most tokens a draft's batch holds: below 64, the batch size from which the engine's F32
 * products go to tinyBLAS (patches/ggml-cpu-wasm-sgemm-strided.patch), whose sums run in another
 * order than a one-token decode's. Smaller batches take a decode's kernels, so the logits a
 * draft's check reads are the ones decoding each token alone would give, bit for bit.
 */
export const MAX_DRAFT_BATCH = 63;

/**
 * A draft's length adapts to how the last one fared: the first is at most FIRST_DRAFT tokens, one
 * taken whole doubles the next, one that missed makes the next one token longer than its taken
 * part (at least MIN_DRAFT). A long draft in text that does not repeat costs a long batch for
 * little (a 49-token check of a wrong draft took ~10 decodes' time on the bench's Q4_K model),
 * while a loop reaches full drafts in a few checks. llama-server drafts `n_max` every time.
 *
 * A draft missed at its first token (nothing taken) makes the next tokens decode alone for a
 * while: 1 after the first such miss, twice as many after each next one in a row, at most
 * MAX_IDLE; any taken token ends that. A draft model that never agrees (the bench's `other`
 * draft) cost 0.40x of the decode speed without it, checking a draft after every token.
 */
const FIRST_DRAFT = 8;
const MIN_DRAFT = 2;
const MAX_IDLE = 16;

/** What the loop uses of the engine (llama-wasm.ts). */
export interface DraftEngine {
  push(id: number): Promise<boolean>;
  pushDraft(ids: readonly number[]): Promise<boolean>;
  draftNgram(id: number, sizeN: number, sizeM: number): number[];
  keep(n: number): void;
  cachedTokens(): number[];
}

/** What the loop uses of a draft model (draft-model.ts). */
export interface Drafter {
  draft(context: readonly number[], most: number, pMin: number): Promise<number[]>;
}

export class DraftBatch {
  /** The draft being checked (empty: none), and the context's tokens before its batch. */
  private draft: number[] = [];
  private base = 0;
  /** The batch position sampled next, or -1: the last token decoded alone. */
  private at = -1;
  /** The next draft's most tokens (see FIRST_DRAFT). */
  private limit = FIRST_DRAFT;
  /** Tokens decoded alone after the last draft missed at its first token, and how many are left (MAX_IDLE). */
  private idle = 0;
  private wait = 0;
  readonly counts: DraftCounts = { drafted: 0, accepted: 0, checks: 0 };

  constructor(
    private readonly engine: DraftEngine,
    private readonly params: SpeculativeParams | null,
    private readonly drafter: Drafter | null = null,
  ) {}

  /** The logits the next sample reads: a position of the draft's batch, or -1. */
  get position(): number {
    return this.at;
  }

  /** Whether `id`, sampled at `position`, is the draft's token there (its cell is in the context: nothing to push). */
  taken(id: number): boolean {
    if (this.at < 0) return false;
    if (this.at < this.draft.length && this.draft[this.at] === id) {
      const perPos = this.counts.accepted_per_pos;
      if (perPos && this.at < perPos.length) perPos[this.at] = (perPos[this.at] ?? 0) + 1;
      this.at += 1;
      this.counts.accepted += 1;
      return true;
    }
    this.limit =
      this.at === this.draft.length ? Math.min(2 * this.limit, MAX_DRAFT_BATCH - 1) : Math.max(MIN_DRAFT, this.at + 1);
    this.idle = this.at === 0 ? Math.min(Math.max(1, 2 * this.idle), MAX_IDLE) : 0;
    this.wait = this.idle;
    this.finish();
    return false;
  }

  /**
   * Decodes the sampled token `id`, with a draft where one is found and worth checking: at most
   * `room` tokens after `id` (what the context and `max_tokens` leave for tokens whose logits
   * are read) and `batch` in all (the step the time budget allows). False: the context is full.
   * The engine's calls here and in `taken` and `finish` run inside the caller's section.
   */
  async push(id: number, room: number, batch: number): Promise<boolean> {
    const found = await this.propose(id, room, batch);
    return found.length === 0 ? this.engine.push(id) : this.check(id, found);
  }

  /**
   * The draft to check after the sampled token `id` (at most `room` tokens, `batch` with `id`),
   * or none (empty): speculative decoding is off, no draft was found or none is worth checking,
   * or drafts rest after a miss. With none, `id` is decoded as any sampled token.
   */
  async propose(id: number, room: number, batch: number): Promise<number[]> {
    const most = this.params
      ? Math.min(this.params.n_max, room, Math.min(batch, MAX_DRAFT_BATCH) - 1, Math.max(this.limit, this.params.n_min))
      : 0;
    if (!this.params || most < Math.max(1, this.params.n_min)) return [];
    if (this.wait > 0) {
      this.wait -= 1;
      return [];
    }
    // A draft model reads the context's tokens (copied out once); an n-gram draft is found in the glue.
    const drafter = this.params.type === 'draft-simple' ? this.drafter : null;
    const found = drafter
      ? await drafter.draft([...this.engine.cachedTokens(), id], most, this.params.p_min)
      : this.engine.draftNgram(id, this.params.ngram_size_n, this.params.ngram_size_m).slice(0, most);
    return found.length < Math.max(1, this.params.n_min) ? [] : found;
  }

  /**
   * Decodes `id` and the draft `found` (propose's) in one batch, with logits at every position:
   * the samples that follow read them (`position`, `taken`). False: the context is full.
   */
  async check(id: number, found: number[]): Promise<boolean> {
    this.base = this.engine.cachedTokens().length;
    if (!(await this.engine.pushDraft([id, ...found]))) return false;
    this.draft = found;
    this.at = 0;
    this.counts.drafted += found.length;
    this.counts.checks += 1;
    // One count a position up to the request's n_max, from the first check (llama-server's sizing).
    this.counts.accepted_per_pos ??= new Array<number>(this.params?.n_max ?? found.length).fill(0);
    return true;
  }

  /** Drops the cells of the draft's tokens not taken (at a mismatch, or when the choice ends mid-draft). */
  finish(): void {
    if (this.at < 0) return;
    this.engine.keep(this.base + 1 + this.at);
    this.draft = [];
    this.at = -1;
  }
}
