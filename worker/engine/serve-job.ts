/**
 * The one serve wrapper for every job kind: its control channel (a `generation.cancel`, or the
 * SW's keepalives stopping, aborts it; each keepalive is answered), its turn on the model's
 * queue (FIFO, every kind together), the kind's runner, exactly one `generation.error` for
 * what it throws, a record in the request log, and the port closed at the end.
 */
import { NotFoundError, toOpenAIError } from '#core/domain/errors';
import { message, type EngineToSw, type JobKind, type JobRequests } from '#core/protocol/protocol';
import type { LoadedModel } from './backend';
import type { ModelQueue } from './model-queue';
import type { RequestLog } from './request-log';
import { requestControl } from './request-control';
import type { ReasoningEnd } from './reasoning-end';
import { runGeneration } from './run-generation';
import { runEmbedding } from './run-embedding';
import { runRerank } from './run-rerank';
import { runApplyTemplate, runDetokenize, runTokenize } from './run-tokenize';
import { runProps } from './run-props';
import { runReady } from './run-ready';
import { runSlotAction } from './run-slot-action';
import { runLora } from './run-lora';

/** The part of a model's engine entry a job needs. */
export interface JobTarget {
  loaded: Promise<LoadedModel>;
  queue: ModelQueue;
}

/** Tokens a job counted (for the request log). */
export interface JobCounts {
  prompt: number;
  completion: number;
}

/** Runs one kind's request on a loaded model, posting its events to `port`; nothing once `signal` aborted. */
type Runner<K extends JobKind> = (
  model: LoadedModel,
  request: JobRequests[K],
  port: MessagePort,
  signal: AbortSignal,
  reasoningEnd: ReasoningEnd,
) => Promise<JobCounts>;

/** Each kind's runner: a new kind is one entry here (and one in `JobRequests`). */
const runners: { [K in JobKind]: Runner<K> } = {
  generation: runGeneration,
  embedding: runEmbedding,
  rerank: runRerank,
  tokenize: runTokenize,
  detokenize: runDetokenize,
  'apply-template': runApplyTemplate,
  props: runProps,
  ready: runReady,
  slot: runSlotAction,
  lora: runLora,
};

const postError = (port: MessagePort, error: unknown) =>
  port.postMessage(
    message<EngineToSw, 'generation.error'>('generation.error', { error: toOpenAIError(error).toWire() }),
  );

/** Serves `job` on `target` (its model's entry; undefined when that model is not loaded here). */
export function serveJob<K extends JobKind>(
  target: JobTarget | undefined,
  job: { kind: K; request: JobRequests[K] },
  port: MessagePort,
  log: RequestLog,
): void {
  const { request } = job;
  const control = requestControl(port);
  if (!target) {
    postError(port, new NotFoundError(`The model '${request.model}' is not loaded in this engine.`, 'model'));
    control.stop();
    return;
  }
  const run: Runner<K> = runners[job.kind];
  void target.queue.run(control.signal, async () => {
    let outcome: 'completed' | 'failed' = 'failed';
    let counts: JobCounts = { prompt: 0, completion: 0 };
    try {
      counts = await run(await target.loaded, request, port, control.signal, control.reasoningEnd);
      outcome = 'completed';
    } catch (error) {
      postError(port, error);
    } finally {
      const { aborted, reason } = control.signal;
      // A readiness proof is the runtime's own question, not a request of the app's: not logged.
      if (job.kind !== 'ready')
        log.add({
          model: request.model,
          outcome: aborted ? 'aborted' : outcome,
          ...(aborted ? { reason: String(reason) } : {}),
          promptTokens: counts.prompt,
          completionTokens: counts.completion,
        });
      control.stop();
      port.close();
    }
  });
}
