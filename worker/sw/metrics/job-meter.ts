/**
 * Counts one job for `/metrics` (`model-metrics.ts`) from the events its channel sees:
 * generation, embedding and rerank jobs only (a tokenizer or props job is not a request to the model).
 * Deferred until the engine's first output, processing until the job ends. The seconds are
 * the Service Worker's clock: a prompt's from the engine taking it (`generation.prompt`, else
 * the job's start) to its first token, generation's from there to the choice's end; an
 * embedding's or rerank's whole time is prompt time. Tokens are the counts the engine reports at the end,
 * the ones the answer reports. A job that ends before its first output because its engine went
 * is not counted: it is started again on the engine that takes over.
 */
import type { TokenCounts } from '#core/domain/generation';
import { isJobEvent, type Job } from '#core/protocol/protocol';
import { countersOf, type ModelCounters } from './model-metrics';

type Phase = 'prompt' | 'decode' | 'ended';

export class JobMeter {
  private phase: Phase = 'prompt';
  private phaseStart = performance.now();
  private started = false;
  private promptSeconds = 0;
  private predictedSeconds = 0;

  private constructor(private readonly counters: ModelCounters) {
    counters.deferred++;
  }

  /** A meter for `job`, or null for a kind that is not counted. */
  static of(job: Job): JobMeter | null {
    return job.kind === 'generation' || job.kind === 'embedding' || job.kind === 'rerank'
      ? new JobMeter(countersOf(job.request.model))
      : null;
  }

  /** Sees one event of the job (in order). */
  see(event: { type: string }): void {
    if (this.phase === 'ended' || !isJobEvent.generation(event) || event.type === 'generation.alive') {
      const pooled =
        (isJobEvent.embedding(event) && event.type === 'embedding.result') ||
        (isJobEvent.rerank(event) && event.type === 'rerank.result');
      if (this.phase !== 'ended' && pooled) {
        this.start();
        this.turn(performance.now(), 'prompt');
        this.record({ prompt: event.prompt_tokens, completion: 0, cached: event.cached_tokens });
      }
      return;
    }
    const now = performance.now();
    if (event.type === 'generation.error') {
      const gone = event.error.body.error.code === 'engine_gone';
      this.finish(gone && !this.started ? null : 'failed');
      return;
    }
    this.start();
    if (event.type === 'generation.choice-end' && event.draft) {
      this.counters.draftTokens += event.draft.drafted;
      this.counters.draftAccepted += event.draft.accepted;
      this.counters.drafts += event.draft.checks;
      const perPos = this.counters.draftAcceptedPerPos;
      for (const [position, count] of (event.draft.accepted_per_pos ?? []).entries())
        perPos[position] = (perPos[position] ?? 0) + count;
    }
    if (event.type === 'generation.done') this.record(event.counts);
    else if (event.type === 'generation.piece') {
      if (this.phase === 'prompt') this.turn(now, 'decode');
    } else this.turn(now, 'prompt');
  }

  /** The channel closed: a job that did not end (the client aborted) counts as aborted. */
  closed(): void {
    this.finish('aborted');
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.counters.deferred--;
    this.counters.processing++;
  }

  /** Ends the current phase at `now`, adding its time to its counter, and starts `next`. */
  private turn(now: number, next: Phase): void {
    const seconds = (now - this.phaseStart) / 1000;
    if (this.phase === 'prompt') this.promptSeconds += seconds;
    else if (this.phase === 'decode') this.predictedSeconds += seconds;
    this.phase = next;
    this.phaseStart = now;
  }

  private record(counts: TokenCounts): void {
    const c = this.counters;
    const evaluated = counts.prompt - counts.cached;
    c.promptTokens += evaluated;
    c.promptCached += counts.cached;
    c.promptSeconds += this.promptSeconds;
    c.predictedTokens += counts.completion;
    c.predictedSeconds += this.predictedSeconds;
    c.maxTokens = Math.max(c.maxTokens, counts.prompt + counts.completion);
    c.bucket.promptTokens += evaluated;
    c.bucket.promptSeconds += this.promptSeconds;
    c.bucket.predictedTokens += counts.completion;
    c.bucket.predictedSeconds += this.predictedSeconds;
    this.finish('completed');
  }

  private finish(outcome: keyof ModelCounters['requests'] | null): void {
    if (this.phase === 'ended') return;
    this.phase = 'ended';
    if (this.started) this.counters.processing--;
    else this.counters.deferred--;
    if (outcome) this.counters.requests[outcome]++;
  }
}
