/**
 * The Service Worker's side of an engine handover. The tab running a model's engine went
 * (closed, crashed, navigated away, disposed its runtime); a tab standing by for that model
 * (a follower in line for its lock, `engine.info`'s `standby`) takes the lock, starts the
 * engine and loads the model from the browser's cache. Requests that reach the SW meanwhile,
 * and those the old engine had queued but not begun, wait for the new engine instead of
 * failing; with no tab standing by they fail at once.
 */
import type { ModelCard } from '#core/domain/model-card';
import { queryClient, type EngineClient } from './engine-clients';
import { announced, lastAnnouncement } from './engine-inboxes';
import { HANDOVER_TIMEOUT_MS } from './engine-gone-clock';

const POLL_MS = 200;
/**
 * How long one round waits for a page's answer. A page with a runtime answers in ms (a
 * follower's main thread is idle); one without never does, and must not hold every round up
 * for the usual 2 s query timeout.
 */
const ROUND_QUERY_MS = 600;

/**
 * A page's card for `model` that settles the wait: ready or loading (a loading model queues
 * requests until it is ready), or failed (the request gets the load's error).
 */
const serves = (card: ModelCard, model: string) =>
  (card.id === model || (card.aliases?.includes(model) ?? false)) && card.status !== 'available';

type Round = { serving: EngineClient } | { standby: boolean };

/**
 * Pages whose engine worker crashed and that start a new one (`client.crashed`): they stand
 * by for their models even when they do not answer in a round (the new worker answers for the
 * page once it has its inbox, and a model load blocks it).
 */
const restarting = new Set<string>();

/** The page `clientId` restarts its engine (its crash), until it serves again or goes. */
export function markRestarting(clientId: string, restarts: boolean): void {
  if (restarts) restarting.add(clientId);
  else restarting.delete(clientId);
}

/**
 * Asks every window at once: settles on the first that serves `model`, else,
 * once all answered (a page without a runtime never does: it times out), whether one stands by.
 */
function askWindows(windows: readonly Client[], model: string): Promise<Round> {
  return new Promise((settle) => {
    let pending = windows.length;
    let standby = false;
    if (pending === 0) settle({ standby });
    for (const window of windows) {
      // What its engine announced last settles it without a question: a worker busy in a model
      // load (one long call) cannot answer one, and this SW may have started after the page said
      // it was restarting (so `restarting` does not know it).
      const known = announced(window.id);
      if (known?.models.some((card) => serves(card, model))) return settle({ serving: known });
      const announcedStandby = lastAnnouncement(window.id)?.standby?.includes(model) ?? false;
      void queryClient(window, false, ROUND_QUERY_MS).then((answer) => {
        if (answer?.models.some((card) => serves(card, model))) {
          restarting.delete(window.id);
          settle({ serving: answer });
        }
        if (answer?.standby.includes(model) || (!answer && (restarting.has(window.id) || announcedStandby)))
          standby = true;
        if (--pending === 0) settle({ standby });
      });
    }
  });
}

/**
 * The page whose engine serves `model` after a handover: waits while some tab stands by for
 * it, until `deadline` (by default `HANDOVER_TIMEOUT_MS` from now). Null when no tab stands by,
 * the deadline passed, or `signal` aborted. The page that went needs no excluding: a page
 * that is going answers with no models, and a closed or crashed one does not answer.
 */
export async function awaitSuccessor(
  clients: Clients,
  model: string,
  signal?: AbortSignal,
  deadline = Date.now() + HANDOVER_TIMEOUT_MS,
): Promise<EngineClient | null> {
  while (Date.now() < deadline && !signal?.aborted) {
    const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
    const round = await askWindows(windows, model);
    if ('serving' in round) return round.serving;
    if (!round.standby) return null;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return null;
}
