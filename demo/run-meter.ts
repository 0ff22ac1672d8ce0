/**
 * The timing of one playground request, shared by both tabs' runners: when it started, when
 * its first and last text arrived, the counts so far, and the "waiting" notice after
 * `QUEUED_AFTER_MS` without text. Its figures come from `runStats`.
 */
import { runStats, type RunStats } from './run-stats';

export const QUEUED_AFTER_MS = 1000;

/** What a response's `usage` says (the SDK's shape, nullable as it types it). */
type Usage = { completion_tokens: number; prompt_tokens: number } | null | undefined;

export class RunMeter {
  private readonly started = performance.now();
  private first: number | null = null;
  private last = this.started;
  private tokens = 0;
  private promptTokens: number | null = null;
  private readonly waiting: ReturnType<typeof setTimeout>;

  constructor(onWaiting: () => void) {
    this.waiting = setTimeout(() => this.first === null && onWaiting(), QUEUED_AFTER_MS);
  }

  /** A streamed chunk carried text: one more token (until `usage` gives the exact count). */
  text(): void {
    this.first ??= performance.now();
    this.last = performance.now();
    this.tokens += 1;
  }

  /** A non-streamed answer arrived whole: no first-token time, so prefill and decode cannot be told apart. */
  whole(usage: Usage): RunStats {
    this.last = performance.now();
    this.tokens = usage?.completion_tokens ?? 0;
    this.promptTokens = usage?.prompt_tokens ?? null;
    return this.stats(true);
  }

  /** The figures after a streamed chunk; exact once it carried `usage`. */
  chunk(usage: Usage): RunStats {
    if (usage) {
      this.tokens = usage.completion_tokens;
      this.promptTokens = usage.prompt_tokens;
    }
    return this.stats(usage !== undefined && usage !== null);
  }

  /** The request ended (or failed): no waiting notice after this. */
  stop(): void {
    clearTimeout(this.waiting);
  }

  private stats(exact: boolean): RunStats {
    const { started, first, last, promptTokens, tokens } = this;
    return runStats({ started, first, last, promptTokens, tokens, exact });
  }
}
