/**
 * How many prompt tokens the next step reads: as many as fit in `STEP_BUDGET_MS`, at the speed
 * measured on this model's own previous steps (its size, its thread count, the machine's load
 * and the context's depth all show in it). An abort lands between two steps, and the worker
 * answers the Service Worker's keepalives only between steps, so `read` announces each step's
 * expected time first (`announceBusy`); unannounced, a step past KEEPALIVE_TIMEOUT_MS (1.5 s)
 * would end the request with 503 `engine_gone`. Sized in tokens, one step was wrong at both ends:
 * 64 tokens took ~0.5 s on the bench's Q8_0 at load 12 on 2 cores (~45 tok/s), while small
 * models ran 3-5% faster with 256-token steps than with 64.
 */
import { announceBusy } from '../../request-control';
import type { LlamaWasm } from './llama-wasm';
import { testSlowStep } from './test-slow-step';

/** True only in test builds (vite.config.ts): see test-slow-step.ts. */
declare const __INPAGE_TEST_HOOKS__: boolean;

/** The time one prompt step is sized to take, in ms: well under the 1.5 s keepalive, long enough that a step's fixed cost is small. */
export const STEP_BUDGET_MS = 200;

/** The first step of a model (no speed measured yet): the fixed step of before, which no bench model outlasted the keepalive with. */
const FIRST_STEP = 64;
/** The largest: the glue's batch (native/engine.h `n_batch`). */
const MAX_STEP = 512;
/**
 * Steps are whole multiples of the F32-cache micro-batch (native/attention.cpp, 64 tokens) where
 * one fits, so no step leaves a short micro-batch behind; below it, of 16 (at least 16), for
 * models too slow for 64 tokens in the budget.
 */
const MICRO_BATCH = 64;
const GRAIN = 16;
/** How much a step's measured speed moves the estimate (the rest is the earlier steps'). */
const WEIGHT = 0.5;
/**
 * What a step is said to take before any was measured (`announceBusy`): 64 tokens of a 1.5B model
 * on one wasm thread take ~4 s here; a slow phone and a larger model, several times that.
 */
const UNMEASURED_STEP_MS = 20_000;
/**
 * What a step of a prompt with media is said to take: one may run the projector on an image or
 * 30 s of audio, which a large encoder on one wasm thread takes seconds for (not measured per
 * model yet, so not counted in the prompt's speed either).
 */
const MEDIA_STEP_MS = 60_000;
/** What one decoded token costs before it is measured, in prompt tokens (`announceBusy`): prompts are read in batches. */
export const DECODE_COST_IN_PROMPT_TOKENS = 4;

export class PrefillSteps {
  /** Measured ms per prompt token on this model, or null before its first step. */
  private msPerToken: number | null = null;

  /** The tokens the next step reads. */
  next(): number {
    if (this.msPerToken === null) return FIRST_STEP;
    const fit = STEP_BUDGET_MS / Math.max(this.msPerToken, 1e-3);
    const grain = fit >= MICRO_BATCH ? MICRO_BATCH : GRAIN;
    return Math.min(MAX_STEP, Math.max(GRAIN, Math.floor(fit / grain) * grain));
  }

  /** How long reading `tokens` prompt tokens should take, at the speed measured so far. */
  expectedMs(tokens: number): number {
    return this.msPerToken === null ? UNMEASURED_STEP_MS : tokens * this.msPerToken;
  }

  /**
   * Reads one step of the selected slot's prompt on `engine`: its size from `next`, announced to
   * the Service Worker (`announceBusy`: no keepalive is answered meanwhile) and timed for
   * `record`. Returns the tokens still pending, or null where the slot's cache had no room.
   */
  async read(engine: LlamaWasm): Promise<number | null> {
    const before = engine.pendingTokens();
    const tokens = this.next();
    const media = engine.readsMedia();
    announceBusy(media ? MEDIA_STEP_MS : this.expectedMs(tokens));
    const started = performance.now();
    if (__INPAGE_TEST_HOOKS__) testSlowStep();
    const pending = await engine.prefill(tokens);
    if (pending !== null && !media) this.record(before - pending, performance.now() - started);
    return pending;
  }

  /** A step read `tokens` tokens in `ms`. */
  record(tokens: number, ms: number): void {
    if (tokens <= 0) return;
    const rate = ms / tokens;
    this.msPerToken = this.msPerToken === null ? rate : WEIGHT * rate + (1 - WEIGHT) * this.msPerToken;
  }
}
