/**
 * The page's watch over its engine worker. Any of four signs means the worker is dead, and
 * `onDead(reason)` is called once:
 * - the worker says so (`engine.crashed`: its guard caught a trap or an abort in the wasm; it
 *   then closes itself; `onDead`'s `onGpu` says whether that engine ran its model on the GPU);
 * - its life lock is released: the worker holds a Web Lock the page also asks for
 *   (`EngineApi.holdLife`), which the browser grants the page the moment the worker ends,
 *   however it ends (closed, terminated, killed under memory pressure);
 * - an `error` event: an uncaught error in its script, or the script failed to load;
 * - no answer to the keepalive ping for `hangMs` while no load runs (a loop that never yields).
 *   A load blocks the worker in one long call, so loads run with the check off (`during`),
 *   except while the worker starts an engine build (`engine.starting` to `engine.started`):
 *   nothing there blocks it for long, and Firefox can block it for good (worker/engine/
 *   announce-start.ts), so there no answer for STARTING_HANG_MS is a hang;
 * - it has not started within `START_MS` (it never took its life lock): its script's fetches
 *   hang when the Service Worker is stopped while they are in flight (DevTools'
 *   `stopAllWorkers`, measured), and such a worker never runs a line, so it never answers the
 *   load it was given, and the page would wait on it for good.
 */
import { ServiceUnavailableError } from '../core/domain/errors';
import { isEngineToPage } from '../core/protocol/protocol';

export const PING_EVERY_MS = 1000;
/** Longer than any one engine step outside a load (a 512-token prompt batch of a large model on a slow CPU). */
export const HANG_MS = 30_000;
/** How long a new worker may take to start (measured 1-4 s on the 2-core machine at load 20). */
export const START_MS = 20_000;
/** How long a worker starting an engine build may leave a ping unanswered (answered in ms when not hung). */
export const STARTING_HANG_MS = 10_000;
/** The reason a worker that hung while it started an engine build is dead. */
export const STARTING_HANG = `the engine worker stopped answering while it started the engine (${STARTING_HANG_MS / 1000} s)`;
/** The console warning of a page whose first load hung there and runs again on one thread. */
export const ONE_THREAD_AFTER_HANG =
  '[inpage-llm] the engine worker hung while it started its threads; a new worker loads the model on one thread.';

/** What the watch needs of the worker and its engine. */
export type WatchedWorker = Pick<Worker, 'addEventListener' | 'removeEventListener'>;
export interface WatchedEngine {
  ping(): Promise<boolean>;
  holdLife(name: string): Promise<void>;
}

export interface EngineWatch {
  /**
   * Settles like `work` (a call into the engine), with the hang check off meanwhile, or rejects
   * with a 503 `engine_crashed` when the worker dies first (its answer would never come).
   */
  during<T>(work: Promise<T>): Promise<T>;
  /**
   * Calls `listener` with the reason when the worker is found dead, after the last answers it
   * posted had their time to arrive (at once if it is dead already). The returned function
   * unsubscribes.
   */
  whenDead(listener: (reason: string) => void): () => void;
  /** Stops watching (the page stops the worker itself). */
  stop(): void;
}

/** How long a call may still settle after its worker died (with the answer the worker sent last). */
const LAST_ANSWER_MS = 500;

let lifeLocks = 0;

export function watchEngine(
  worker: WatchedWorker,
  engine: WatchedEngine,
  onDead: (reason: string, onGpu: boolean) => void,
  hangMs = HANG_MS,
): EngineWatch {
  let dead: string | null = null;
  let stopped = false;
  let loads = 0;
  let lastAnswer = Date.now();
  let pinging = false;
  const mourners = new Set<(reason: string) => void>();
  const leave = new AbortController();
  const die = (reason: string, onGpu = false) => {
    if (stopped || dead !== null) return;
    dead = reason;
    stop();
    for (const mourn of mourners) mourn(reason);
    onDead(reason, onGpu);
  };
  let engineStarting = false;
  const onMessage = (event: MessageEvent<unknown>) => {
    if (!isEngineToPage(event.data)) return;
    const { type } = event.data;
    if (type === 'engine.crashed') die(event.data.reason, event.data.onGpu === true);
    else if (type === 'engine.starting' || type === 'engine.started') {
      engineStarting = type === 'engine.starting';
      lastAnswer = Date.now();
    }
  };
  const onError = (event: ErrorEvent) => {
    // Handled here: the page is not told of an uncaught error, it sees the engine restart.
    event.preventDefault();
    die(`the engine worker failed: ${event.message || 'its script did not load'}`);
  };
  worker.addEventListener('message', onMessage);
  worker.addEventListener('error', onError);
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  let starting: ReturnType<typeof setTimeout> | undefined;
  if (locks) {
    const name = `inpage-llm:engine-worker:${Date.now()}-${++lifeLocks}-${Math.random().toString(36).slice(2)}`;
    starting = setTimeout(() => die(`the engine worker did not start within ${START_MS / 1000} s`), START_MS);
    void engine.holdLife(name).then(
      () => {
        clearTimeout(starting);
        locks.request(name, { signal: leave.signal }, () => die('the engine worker stopped')).catch(() => undefined);
      },
      () => undefined,
    );
  }
  const tick = setInterval(() => {
    if (loads > 0 && !engineStarting) lastAnswer = Date.now();
    else if (Date.now() - lastAnswer > (engineStarting ? STARTING_HANG_MS : hangMs))
      die(engineStarting ? STARTING_HANG : `the engine worker did not answer for ${hangMs / 1000} s`);
    if (pinging) return;
    pinging = true;
    void engine.ping().then(
      () => ((pinging = false), (lastAnswer = Date.now())),
      () => undefined,
    );
  }, PING_EVERY_MS);
  function stop() {
    stopped = true;
    clearInterval(tick);
    clearTimeout(starting);
    leave.abort();
    worker.removeEventListener('message', onMessage);
    worker.removeEventListener('error', onError);
  }
  return {
    during<T>(work: Promise<T>): Promise<T> {
      if (dead !== null) return Promise.reject(crashed(dead));
      loads += 1;
      return new Promise<T>((resolve, reject) => {
        // Its answer may still come: a worker that retires posts its last answers before closing.
        const mourn = (reason: string) => setTimeout(() => reject(crashed(reason)), LAST_ANSWER_MS);
        mourners.add(mourn);
        void work.then(resolve, reject).finally(() => {
          mourners.delete(mourn);
          loads -= 1;
          lastAnswer = Date.now();
        });
      });
    },
    whenDead(listener: (reason: string) => void): () => void {
      if (dead !== null) {
        const reason = dead;
        const timer = setTimeout(() => listener(reason), 0);
        return () => clearTimeout(timer);
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const mourn = (reason: string) => (timer = setTimeout(() => listener(reason), LAST_ANSWER_MS));
      mourners.add(mourn);
      return () => {
        mourners.delete(mourn);
        clearTimeout(timer);
      };
    },
    stop,
  };
}

export const crashed = (reason: string) =>
  new ServiceUnavailableError(`The engine crashed (${reason}).`, 'engine_crashed');
