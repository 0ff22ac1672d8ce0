/**
 * The engine worker's side of a job inbox (`EngineApi.openInbox`): it answers the Service
 * Worker's `engine.query` and runs its `job`s as the page's bridge would, so neither passes
 * through the page's main thread, and it announces the engine's models unasked whenever they
 * change (`EngineToSwInbox`). Once closed (the engine is being disposed), it answers as a page
 * that no longer runs the engine: no models, and `engine_gone` for jobs. Once released (a newer
 * inbox replaced it; the host announces on it no more), it still runs the jobs that arrive for
 * `RELEASED_INBOX_MS`: a job the SW posted there before it took the newer inbox may still be on
 * its way. Closing the port at once dropped such a job (a handover's re-routed jobs, posted while
 * the new leader's engine was starting and the page offered one inbox after another), and its
 * request waited out the SW's loading silence (60 s).
 */
import { ServiceUnavailableError } from '#core/domain/errors';
import type { ModelCard } from '#core/domain/model-card';
import {
  isSwToPage,
  message,
  type EngineToSw,
  type InboxInfo,
  type Job,
  type Reply,
  type SlotsByModel,
} from '#core/protocol/protocol';

/** How long a released inbox still takes the jobs posted to it before its replacement arrived. */
export const RELEASED_INBOX_MS = 30_000;

/** What the inbox needs of the engine host. */
export interface InboxEngine {
  run(job: Job, port: MessagePort): void;
  models(): ModelCard[];
  catalogue(): Promise<ModelCard[]>;
  slotStates(): SlotsByModel;
}

export interface Inbox {
  /** Posts the engine's models now (the host calls it whenever they change). */
  announce(): void;
  /** The engine stops: from now on, answer as a page that no longer runs it. */
  close(): void;
  /** A newer inbox replaced this one: let go of the port once jobs posted before can no longer be on their way. */
  release(): void;
}

export function serveInbox(inbox: MessagePort, engine: InboxEngine, page: InboxInfo): Inbox {
  let open = true;
  inbox.onmessage = (event: MessageEvent<unknown>) => {
    const data = event.data;
    const port = event.ports[0];
    if (!isSwToPage(data) || !port) return;
    if (data.type === 'job') {
      if (open) engine.run(data.job, port);
      else {
        const error = new ServiceUnavailableError('This page no longer runs the engine.', 'engine_gone');
        port.postMessage(message<EngineToSw, 'generation.error'>('generation.error', { error: error.toWire() }));
        port.close();
      }
      return;
    }
    const models = !open
      ? Promise.resolve([])
      : data.catalogue
        ? engine.catalogue().then((more) => [...engine.models(), ...more])
        : Promise.resolve(engine.models());
    const slots = open && data.slots ? { slots: engine.slotStates() } : {};
    void models.then(
      (list) => port.postMessage(info(list, slots)),
      () => port.postMessage(info([])),
    );
  };
  const info = (models: ModelCard[], slots: { slots?: SlotsByModel } = {}) =>
    message<Reply, 'engine.info'>('engine.info', { models, apiKey: page.apiKey, standby: page.standby, ...slots });
  const announce = () => inbox.postMessage(info(open ? engine.models() : []));
  announce();
  return {
    announce,
    close: () => {
      open = false;
      announce();
    },
    release: () => {
      setTimeout(() => inbox.close(), RELEASED_INBOX_MS);
    },
  };
}
