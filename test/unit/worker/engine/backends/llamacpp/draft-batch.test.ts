import { describe, expect, it } from 'vitest';
import { SPECULATIVE_DEFAULTS, type SpeculativeParams } from '../../../../../../src/core/domain/speculative';
import {
  DraftBatch,
  MAX_DRAFT_BATCH,
  type DraftEngine,
} from '../../../../../../worker/engine/backends/llamacpp/draft-batch';

/** A context of token ids, and the draft the engine would find next. */
class FakeEngine implements DraftEngine {
  context: number[] = [1, 2, 3];
  found: number[] = [];
  calls: string[] = [];
  full = false;
  async push(id: number): Promise<boolean> {
    this.calls.push(`push ${id}`);
    if (this.full) return false;
    this.context.push(id);
    return true;
  }
  async pushDraft(ids: readonly number[]): Promise<boolean> {
    this.calls.push(`pushDraft ${ids.join(',')}`);
    if (this.full) return false;
    this.context.push(...ids);
    return true;
  }
  draftNgram(): number[] {
    return this.found;
  }
  keep(n: number): void {
    this.calls.push(`keep ${n}`);
    this.context.length = n;
  }
  cachedTokens(): number[] {
    return [...this.context];
  }
}

const NGRAM: SpeculativeParams = { type: 'ngram-simple', ...SPECULATIVE_DEFAULTS };

/** The per-position counts: `first`, then zeros up to n_max (llama-server sizes them so). */
const perPos = (first: number[]) => [...first, ...new Array<number>(NGRAM.n_max - first.length).fill(0)];

describe('DraftBatch', () => {
  it('without speculative decoding pushes each token alone and samples the last logits', async () => {
    const engine = new FakeEngine();
    engine.found = [5, 6];
    const drafts = new DraftBatch(engine, null);
    expect(await drafts.push(4, 10, 64)).toBe(true);
    expect(drafts.position).toBe(-1);
    expect(drafts.taken(5)).toBe(false);
    expect(engine.calls).toEqual(['push 4']);
  });

  it('takes the draft while the samples match it, then keeps only the taken part', async () => {
    const engine = new FakeEngine();
    engine.found = [5, 6, 7];
    const drafts = new DraftBatch(engine, NGRAM);
    expect(await drafts.push(4, 10, 64)).toBe(true);
    expect(engine.context).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(drafts.position).toBe(0);
    expect(drafts.taken(5)).toBe(true);
    expect(drafts.position).toBe(1);
    expect(drafts.taken(9)).toBe(false);
    // 4 and 5 stay; 6 and 7 were drafted after a token that was not sampled.
    expect(engine.context).toEqual([1, 2, 3, 4, 5]);
    expect(drafts.position).toBe(-1);
    expect(drafts.counts).toEqual({ drafted: 3, accepted: 1, checks: 1, accepted_per_pos: perPos([1]) });
  });

  it('samples the token after a draft taken whole at its last position, and keeps everything', async () => {
    const engine = new FakeEngine();
    engine.found = [5, 6];
    const drafts = new DraftBatch(engine, NGRAM);
    await drafts.push(4, 10, 64);
    expect(drafts.taken(5)).toBe(true);
    expect(drafts.taken(6)).toBe(true);
    expect(drafts.position).toBe(2);
    expect(drafts.taken(7)).toBe(false);
    expect(engine.context).toEqual([1, 2, 3, 4, 5, 6]);
    expect(drafts.counts).toEqual({ drafted: 2, accepted: 2, checks: 1, accepted_per_pos: perPos([1, 1]) });
  });

  it('bounds a draft by n_max, the room left and the step, and skips one shorter than n_min', async () => {
    const engine = new FakeEngine();
    engine.found = [5, 6, 7, 8, 9];
    await new DraftBatch(engine, { ...NGRAM, n_max: 4 }).push(4, 3, 64);
    expect(engine.calls.at(-1)).toBe('pushDraft 4,5,6,7');
    await new DraftBatch(engine, NGRAM).push(4, 10, 3);
    expect(engine.calls.at(-1)).toBe('pushDraft 4,5,6');
    engine.found = [5, 6, 7, 8, 9];
    await new DraftBatch(engine, { ...NGRAM, n_min: 6 }).push(4, 10, 64);
    expect(engine.calls.at(-1)).toBe('push 4');
    await new DraftBatch(engine, NGRAM).push(4, 0, 64);
    expect(engine.calls.at(-1)).toBe('push 4');
  });

  it('drops the cells of an unfinished draft when the choice ends inside it', async () => {
    const engine = new FakeEngine();
    engine.found = [5, 6, 7];
    const drafts = new DraftBatch(engine, NGRAM);
    await drafts.push(4, 10, 64);
    drafts.taken(5);
    drafts.finish();
    expect(engine.context).toEqual([1, 2, 3, 4, 5]);
    drafts.finish();
    expect(engine.calls.filter((call) => call.startsWith('keep'))).toEqual(['keep 5']);
  });

  it('starts with short drafts, doubles one taken whole up to the batch bound, and shortens one that missed', async () => {
    const engine = new FakeEngine();
    engine.found = Array.from({ length: 100 }, (_, i) => 100 + i);
    const drafts = new DraftBatch(engine, { ...NGRAM, n_max: 100 });
    const lengths: number[] = [];
    /** One check: the draft pushed after token 1, its first `take` tokens taken, then a miss. */
    const check = async (take: number) => {
      await drafts.push(1, 1000, 512);
      const pushed = (engine.calls.at(-1) ?? '').split(',').length - 1;
      lengths.push(pushed);
      for (let i = 0; i < Math.min(take, pushed); i++) drafts.taken(100 + i);
      drafts.taken(-1);
    };
    for (const take of [100, 100, 100, 100, 100, 3, 100]) await check(take);
    expect(lengths).toEqual([8, 16, 32, MAX_DRAFT_BATCH - 1, MAX_DRAFT_BATCH - 1, MAX_DRAFT_BATCH - 1, 4]);
  });

  it('reports a full context', async () => {
    const engine = new FakeEngine();
    engine.full = true;
    engine.found = [5];
    expect(await new DraftBatch(engine, NGRAM).push(4, 10, 64)).toBe(false);
    expect(await new DraftBatch(engine, null).push(4, 10, 64)).toBe(false);
  });
});

describe('DraftBatch with a draft model', () => {
  it("asks the draft model after the context and the sampled token, within the draft's bounds", async () => {
    const engine = new FakeEngine();
    const asked: Array<[number[], number, number]> = [];
    const drafter = {
      async draft(context: readonly number[], most: number, pMin: number): Promise<number[]> {
        asked.push([[...context], most, pMin]);
        return [5, 6, 7, 8].slice(0, most);
      },
    };
    const params: SpeculativeParams = { type: 'draft-simple', ...SPECULATIVE_DEFAULTS, n_max: 3, p_min: 0.5 };
    const drafts = new DraftBatch(engine, params, drafter);
    expect(await drafts.push(4, 10, 64)).toBe(true);
    expect(asked).toEqual([[[1, 2, 3, 4], 3, 0.5]]);
    expect(engine.calls).toEqual(['pushDraft 4,5,6,7']);
    expect(drafts.taken(5)).toBe(true);
    expect(drafts.taken(9)).toBe(false);
    expect(engine.context).toEqual([1, 2, 3, 4, 5]);
    // Room for one draft token only: the draft model is asked for one.
    expect(await drafts.push(9, 1, 64)).toBe(true);
    expect(asked[1]?.[1]).toBe(1);
  });
});

describe('DraftBatch after drafts that miss at once', () => {
  it('decodes 1, 2, 4 ... (at most 16) tokens alone after each draft missed at its first token, until one is taken', async () => {
    const engine = new FakeEngine();
    engine.found = [5, 6];
    const drafts = new DraftBatch(engine, NGRAM);
    /** Pushes tokens until a draft is checked; returns how many went alone before it. */
    const untilDraft = async () => {
      let alone = 0;
      for (;;) {
        await drafts.push(4, 10, 64);
        if (drafts.position === 0) return alone;
        alone += 1;
      }
    };
    const gaps: number[] = [];
    for (let i = 0; i < 7; i++) {
      gaps.push(await untilDraft());
      drafts.taken(9); // missed at its first token
    }
    expect(gaps).toEqual([0, 1, 2, 4, 8, 16, 16]);
    gaps.length = 0;
    await untilDraft();
    drafts.taken(5); // one taken: drafting every token again
    drafts.taken(9);
    for (let i = 0; i < 2; i++) {
      gaps.push(await untilDraft());
      drafts.taken(5);
      drafts.taken(9);
    }
    expect(gaps).toEqual([0, 0]);
  });
});
