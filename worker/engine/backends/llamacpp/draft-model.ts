/**
 * A draft model (llama-server's `--model-draft`, speculative type `draft-simple`): a smaller GGUF
 * of the model's vocabulary, loaded in an engine instance of its own beside the model's. It
 * drafts as llama.cpp's draft-simple does (common/speculative.cpp): greedily, its top token at
 * each step, while that token's probability among its top 10 (llama.cpp's draft sampler is
 * top-k 10) is at least `p_min`, up to the draft's length. The model then checks the draft in one
 * batch (draft-batch.ts), so the output is the model's own, token for token.
 *
 * Its context follows the model's: each draft starts by reading the model's context into it,
 * keeping the prefix it already holds (llama.cpp's prompt reuse), so after the prompt (read in
 * steps before the first token: `beginPrompt`, `readStep`) a draft reads only the tokens taken
 * since the last. With slots, each slot drafts in its own sequence of the draft's context (the
 * draft model is loaded with the model's slots); every call names its slot.
 */
import type { LlamaWasm, SampledToken } from './llama-wasm';
import { PrefillSteps } from './prefill-steps';

/** llama.cpp's draft sampler keeps the top 10 candidates; `p_min` is read among them. */
const DRAFT_TOP_K = 10;

export class DraftModel {
  private readonly steps = new PrefillSteps();

  private constructor(
    readonly id: string,
    private readonly engine: LlamaWasm,
  ) {}

  /** The draft model on `engine` (loaded), each of its `slots` with the greedy sampler. */
  static async create(id: string, engine: LlamaWasm, slots = 1): Promise<DraftModel> {
    await engine.exclusive(() => {
      for (let slot = 0; slot < slots; slot++) {
        engine.use(slot);
        engine.sampler({ temperature: 0 });
      }
    });
    return new DraftModel(id, engine);
  }

  /** Starts reading `ids` (the model's prompt) into `slot`'s draft context; `readStep` reads it. */
  beginPrompt(ids: readonly number[], slot = 0): Promise<void> {
    return this.engine.exclusive(async () => {
      this.engine.use(slot);
      await this.engine.begin(ids, true);
    });
  }

  /** Reads one step of the prompt `beginPrompt` started on `slot`; returns the tokens still to read. */
  readStep(slot = 0): Promise<number> {
    return this.engine.exclusive(() => this.read(slot));
  }

  /** `readStep` inside a section. */
  private async read(slot: number): Promise<number> {
    this.engine.use(slot);
    return (await this.steps.read(this.engine)) ?? 0;
  }

  /**
   * Up to `most` draft tokens after `context` (the model's tokens and the token it just sampled),
   * each with at least `pMin` of the probability among the draft's top 10.
   */
  draft(context: readonly number[], most: number, pMin: number, slot = 0): Promise<number[]> {
    return this.engine.exclusive(async () => {
      const draft: number[] = [];
      if (most <= 0) return draft;
      this.engine.use(slot);
      await this.engine.begin(context, true);
      while ((await this.read(slot)) > 0);
      for (;;) {
        const sampled = await this.engine.sample(DRAFT_TOP_K, false);
        if (topProbability(sampled) < pMin) break;
        draft.push(sampled.id);
        if (draft.length >= most || !(await this.engine.push(sampled.id))) break;
      }
      return draft;
    });
  }

  dispose(): void {
    this.engine.dispose();
  }
}

/** The sampled (greedy: top) token's probability among the top candidates, as llama.cpp's top-k then softmax gives it. */
function topProbability(sampled: SampledToken): number {
  const top = sampled.top.length > 0 ? sampled.top : [sampled];
  const best = Math.max(...top.map((c) => c.logprob));
  const sum = top.reduce((total, c) => total + Math.exp(c.logprob - best), 0);
  return Math.exp(sampled.logprob - best) / sum;
}
