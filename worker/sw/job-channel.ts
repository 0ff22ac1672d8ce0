/**
 * One job's MessageChannel to the engine, the same for every kind: the job goes to the page
 * that owns the engine (or straight to its engine worker's inbox, `engine-inboxes.ts`), its
 * events arrive in order through `next()`, ending with exactly one terminal event (`JOB_KINDS`)
 * or `generation.error`; `cancel()` tells the engine to stop it. The engine acknowledges the job
 * at once (`ACK_TIMEOUT_MS`); keepalives go out every `KEEPALIVE_INTERVAL_MS`; no
 * acknowledgement, the page's goodbye, or silence from its engine ends the job with a 503
 * `engine_gone` (`openJob` sends an unacknowledged job again); the page saying its engine worker died ends it with a 503 `engine_crashed`.
 */
import { AsyncQueue } from '#core/util/async-queue';
import { KEEPALIVE_INTERVAL_MS, KEEPALIVE_TIMEOUT_MS, KeepaliveWatch, MAX_BUSY_MS } from '#core/protocol/keepalive';
import { OpenAIError, ServiceUnavailableError } from '#core/domain/errors';
import {
  isJobEvent,
  message,
  typeGuard,
  type EngineToSw,
  type Job,
  type JobEvents,
  type JobKind,
  type MessageOf,
  type SwToEngine,
  type SwToPage,
} from '#core/protocol/protocol';
import { HANDOVER_TIMEOUT_MS } from './engine-gone-clock';
import { jobTarget } from './engine-inboxes';
import { JobMeter } from './metrics/job-meter';
import { trackChannel } from './open-channels';

/** An event of a `K` job as a reader sees it (the `generation.alive` answers stay inside the channel). */
export type JobEvent<K extends JobKind> = Exclude<MessageOf<JobEvents[K]>, { type: 'generation.alive' }>;

/** The error event every kind ends with when it fails. */
export type JobError = MessageOf<Pick<EngineToSw, 'generation.error'>>;

type Alive = MessageOf<Pick<EngineToSw, 'generation.alive'>>;
const isAlive = typeGuard<EngineToSw, 'generation.alive'>('generation.alive');

/** What a channel knows of its job's kind: its port's messages, and the events that end it. */
export interface JobKindSpec<E extends { type: string }> {
  isEvent(data: unknown): data is E | Alive;
  ends: ReadonlySet<E['type']>;
}

/** Each kind's spec: a new kind is one entry here (and one in the protocol's `JobRequests`). */
export const JOB_KINDS: { [K in JobKind]: JobKindSpec<JobEvent<K>> } = {
  generation: { isEvent: isJobEvent.generation, ends: new Set(['generation.done', 'generation.error']) },
  embedding: { isEvent: isJobEvent.embedding, ends: new Set(['embedding.result', 'generation.error']) },
  rerank: { isEvent: isJobEvent.rerank, ends: new Set(['rerank.result', 'generation.error']) },
  tokenize: { isEvent: isJobEvent.tokenize, ends: new Set(['tokenize.result', 'generation.error']) },
  detokenize: { isEvent: isJobEvent.detokenize, ends: new Set(['detokenize.result', 'generation.error']) },
  'apply-template': {
    isEvent: isJobEvent['apply-template'],
    ends: new Set(['apply-template.result', 'generation.error']),
  },
  props: { isEvent: isJobEvent.props, ends: new Set(['props.result', 'generation.error']) },
  ready: { isEvent: isJobEvent.ready, ends: new Set(['ready.result', 'generation.error']) },
  slot: { isEvent: isJobEvent.slot, ends: new Set(['slot.result', 'generation.error']) },
  lora: { isEvent: isJobEvent.lora, ends: new Set(['lora.result', 'generation.error']) },
};

/**
 * How long the engine may take to acknowledge a job (its first `generation.alive`, posted as
 * soon as the job reaches the engine worker). A job not acknowledged by then reached no engine
 * (posted to an inbox or a page whose engine was going or not up yet, or dropped there): it
 * ends as `unacknowledged`, and `openJob` sends it again to the page that serves the model now.
 * A model load blocks the engine worker in one long call, so a job sent to a loading engine is
 * sent again until the load is over (each copy cancelled); one that was acknowledged waits for
 * the load (`LOADING_SILENCE_MS`).
 */
export const ACK_TIMEOUT_MS = 2000;

/**
 * How long an engine whose model is loading may stay silent before the job's first output: a
 * load blocks the engine worker in one long call (no keepalive answers meanwhile). The page's
 * watch reports a worker that dies meanwhile at once (`engineCrashed`).
 */
export const LOADING_SILENCE_MS = HANDOVER_TIMEOUT_MS;

/** How long a crashed engine's own last error for a job may take to arrive (see `engineCrashed`). */
const CRASH_GRACE_MS = 250;

/** A job that no engine acknowledged within `ACK_TIMEOUT_MS` (see there). */
const unacknowledged = (): JobError => ({
  type: 'generation.error',
  error: new ServiceUnavailableError(
    `No engine took the request within ${ACK_TIMEOUT_MS / 1000} s (its page's engine is going, restarting or busy in a model load).`,
    'engine_gone',
  ).toWire(),
});

const gone = (): JobError => ({
  type: 'generation.error',
  error: new ServiceUnavailableError(
    'The page running the engine went away during the request.',
    'engine_gone',
  ).toWire(),
});

/** A job whose engine stopped answering keepalives (beyond any `busy_ms` it announced). */
const silent = (): JobError => ({
  type: 'generation.error',
  error: new ServiceUnavailableError(
    `The engine stopped answering during the request (${KEEPALIVE_TIMEOUT_MS / 1000} s of silence beyond what it announced): its page went away or its thread is stuck.`,
    'engine_gone',
  ).toWire(),
});

/** The error of a job whose engine worker died under it (never retried: it may be what killed it). */
const crashed = (reason: string): JobError => ({
  type: 'generation.error',
  error: new ServiceUnavailableError(
    `The engine crashed during the request (${reason}); it is being restarted: send the request again.`,
    'engine_crashed',
  ).toWire(),
});

/** Whether `event` is the error of an engine that went away (its page closed or stopped it). */
export function isEngineGone(event: { type: string }): event is JobError {
  return isError(event) && event.error.body.error.code === 'engine_gone';
}

/** Whether `event` is a job's error (every kind's events include it). */
export function isError(event: { type: string }): event is JobError {
  return event.type === 'generation.error';
}

/** Whether `event` is a job's output (anything but its error). */
export function isOutput<E extends { type: string }>(event: E): event is Exclude<E, JobError> {
  return event.type !== 'generation.error';
}

/** One job's channel; `E`: the events its readers see (`JobEvent` of its kind). */
export class JobChannel<E extends { type: string }> {
  private readonly port: MessagePort;
  private readonly untrack: () => void;
  private readonly events = new AsyncQueue<E | JobError>();
  private readonly ends: ReadonlySet<string>;
  private open = true;
  /** Whether the job's terminal event arrived (nothing counts after it). */
  private ended = false;
  private readonly keepalive: ReturnType<typeof setInterval>;
  /** Whether the engine acknowledged the job (its first `generation.alive`). */
  private acknowledged = false;
  /** Silence from the engine (no acknowledgement, or its page closed: its worker died) ends the job with `engine_gone`. */
  private readonly watch = new KeepaliveWatch(() => this.push(this.acknowledged ? silent() : unacknowledged()));
  /** Counts the job for `/metrics` (generation, embedding and rerank jobs). */
  private readonly meter: JobMeter | null;

  /** Until the first output, with `loading`: the silence allowed (`LOADING_SILENCE_MS`). */
  private patience: number | null;

  /**
   * Posts `job` to `client`'s engine; `kind` must be `JOB_KINDS[job.kind]` (`openJob` pairs
   * them). `loading`: the model was loading, so silence is allowed until the first output.
   */
  constructor(client: Client, job: Job, kind: JobKindSpec<E>, loading = false) {
    this.patience = loading ? LOADING_SILENCE_MS : null;
    this.meter = JobMeter.of(job);
    this.untrack = trackChannel(client.id, this);
    this.ends = kind.ends;
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.onmessage = (event: MessageEvent<unknown>) => {
      const data = event.data;
      if (!kind.isEvent(data)) return;
      if (isAlive(data)) {
        this.acknowledged = true;
        // Before a long call the engine says how long it cannot answer (`busy_ms`): allow that too.
        const busy = Math.min(data.busy_ms ?? 0, MAX_BUSY_MS) + KEEPALIVE_TIMEOUT_MS;
        this.watch.beat(Math.max(this.patience ?? KEEPALIVE_TIMEOUT_MS, busy));
      } else {
        this.patience = null;
        this.push(data);
      }
    };
    // Where MessagePort 'close' events exist (not in Chromium 156): the page went away mid-request.
    this.port.addEventListener('close', () => this.engineGone());
    jobTarget(client).postMessage(message<SwToPage, 'job'>('job', { job }), [channel.port2]);
    const keepalive = () =>
      this.port.postMessage(message<SwToEngine, 'generation.keepalive'>('generation.keepalive', {}));
    keepalive();
    this.keepalive = setInterval(keepalive, KEEPALIVE_INTERVAL_MS);
    this.watch.beat(ACK_TIMEOUT_MS);
  }

  /** The next event; a channel that ended without a terminal event reads as `engine_gone`. */
  async next(): Promise<E | JobError> {
    return (await this.events.next()) ?? gone();
  }

  /** The events that already arrived, without waiting (lets a lagging reader catch up in one go). */
  drain(): Array<E | JobError> {
    return this.events.drain();
  }

  /** Stops the engine's work on this job (client aborted); safe to call more than once. */
  cancel(reason: string): void {
    if (!this.open) return;
    this.port.postMessage(message<SwToEngine, 'generation.cancel'>('generation.cancel', { reason }));
    this.close();
  }

  /** Whether the engine still runs the job: the channel is open and its terminal event has not come. */
  get running(): boolean {
    return this.open && !this.ended;
  }

  /** Asks the engine to end the reasoning of the job's running choices (llama-server's `reasoning_end`). */
  control(action: 'reasoning_end'): void {
    if (this.running)
      this.port.postMessage(message<SwToEngine, 'generation.control'>('generation.control', { action }));
  }

  /** The engine's page went away: the job ends with `engine_gone` (after what already arrived). */
  engineGone(): void {
    this.push(gone());
  }

  /**
   * The engine worker died (its page said so): the job ends with `engine_crashed`, unless the
   * engine's own error for it arrives within `CRASH_GRACE_MS`. The worker posts that error
   * (an `engine_out_of_memory` with the heap's size, say) before it closes, straight on this
   * port, while the page relays the crash; on a busy machine the relay can come first.
   */
  engineCrashed(reason: string): void {
    setTimeout(() => this.push(crashed(reason)), CRASH_GRACE_MS);
  }

  /** Ends the channel after the engine's last event. */
  close(): void {
    this.open = false;
    this.meter?.closed();
    this.untrack();
    clearInterval(this.keepalive);
    this.watch.stop();
    this.events.end();
    this.port.close();
  }

  private push(event: E | JobError): void {
    if (this.ended) return;
    this.events.push(event);
    this.meter?.see(event);
    // Nothing counts after the first terminal event (a 'close' may follow the 'done').
    if (this.ends.has(event.type)) {
      this.ended = true;
      this.watch.stop();
      this.events.end();
      this.untrack();
    }
  }
}

/** Throws the engine's error as an `OpenAIError`. */
export function raise(event: JobError): never {
  throw OpenAIError.fromWire(event.error);
}
