/**
 * Starts a job of any kind on its page's engine and waits for its first event; an error first
 * is thrown as the engine's `OpenAIError` (so it keeps its own HTTP status). A job whose engine
 * went before it produced anything (queued behind others when its tab closed, or sent to a
 * page that is going) starts again on the engine that takes over, if a tab stands by for the
 * model; otherwise it ends with the 503 `engine_gone`.
 */
import type { Job, JobKind, JobRequests } from '#core/protocol/protocol';
import { HANDOVER_TIMEOUT_MS } from './engine-gone-clock';
import { InternalServerError } from '#core/domain/errors';
import {
  JOB_KINDS,
  JobChannel,
  isEngineGone,
  isError,
  isOutput,
  raise,
  type JobError,
  type JobEvent,
  type JobKindSpec,
} from './job-channel';

/** Where a job runs, and who runs it once that page goes (`Routed`). */
export interface JobRoute {
  client: Client;
  /** Its model was loading when the job was routed (`JobChannel`'s patience). */
  loading: boolean;
  successor(deadline: number): Promise<Client | null>;
}

/** A job that has produced its first event, which is not an error; `E`: its kind's events. */
export interface OpenJob<E extends { type: string }> {
  channel: JobChannel<E>;
  first: Exclude<E, JobError>;
}

type Opener<K extends JobKind> = (
  route: JobRoute,
  request: JobRequests[K],
  signal: AbortSignal,
) => Promise<OpenJob<JobEvent<K>>>;

/** `openJob.generation(route, request, signal)`, ...: a job of each kind, paired with its kind's spec. */
export const openJob: { [K in JobKind]: Opener<K> } = {
  generation: (route, request, signal) => open(route, { kind: 'generation', request }, JOB_KINDS.generation, signal),
  embedding: (route, request, signal) => open(route, { kind: 'embedding', request }, JOB_KINDS.embedding, signal),
  rerank: (route, request, signal) => open(route, { kind: 'rerank', request }, JOB_KINDS.rerank, signal),
  tokenize: (route, request, signal) => open(route, { kind: 'tokenize', request }, JOB_KINDS.tokenize, signal),
  detokenize: (route, request, signal) => open(route, { kind: 'detokenize', request }, JOB_KINDS.detokenize, signal),
  'apply-template': (route, request, signal) =>
    open(route, { kind: 'apply-template', request }, JOB_KINDS['apply-template'], signal),
  props: (route, request, signal) => open(route, { kind: 'props', request }, JOB_KINDS.props, signal),
  ready: (route, request, signal) => open(route, { kind: 'ready', request }, JOB_KINDS.ready, signal),
  slot: (route, request, signal) => open(route, { kind: 'slot', request }, JOB_KINDS.slot, signal),
  lora: (route, request, signal) => open(route, { kind: 'lora', request }, JOB_KINDS.lora, signal),
};

async function open<E extends { type: string }>(
  route: JobRoute,
  job: Job,
  kind: JobKindSpec<E>,
  signal: AbortSignal,
): Promise<OpenJob<E>> {
  let client = route.client;
  // A successor's engine has just started: its model is loading, as far as the SW knows.
  let loading = route.loading;
  // Retries (a new engine can be slow to take a job on a busy machine) share one handover bound.
  let deadline: number | null = null;
  for (;;) {
    const channel = new JobChannel(client, job, kind, loading);
    const onAbort = () => channel.cancel('client aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    const first = await channel.next();
    if (isOutput(first)) return { channel, first };
    signal.removeEventListener('abort', onAbort);
    if (!isError(first)) throw new InternalServerError(`The engine sent an unknown event '${first.type}'.`);
    if (!isEngineGone(first) || signal.aborted) {
      channel.close();
      raise(first);
    }
    // Its page is going (it said goodbye) or gone: drop the job there, run it on the successor.
    channel.cancel('engine gone');
    deadline ??= Date.now() + HANDOVER_TIMEOUT_MS;
    const next = await route.successor(deadline);
    if (!next) raise(first);
    client = next;
    loading = true;
  }
}
