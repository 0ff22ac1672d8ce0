/**
 * A Web Worker for Node, run in the same thread (a `vm` context of its own): what wllama needs to
 * run where there is no browser (wllama-node.ts), since it starts its engine with `new Worker(blob
 * URL)` and Node has no Web Worker. The worker's script sees a worker's globals (postMessage,
 * onmessage, self, location, navigator with the host's `gpu`) and the host's fetch and timers;
 * messages pass by reference, a task later (no structured clone, no transfer: neither side
 * reuses what it sent). Test-only.
 */
import { createContext, runInContext } from 'node:vm';

/** The sources of the blob URLs made since install(), which is what a worker is started from. */
const blobSources = new Map<string, Promise<string>>();

type Listener = ((event: { data: unknown }) => void) | null;

export class InThreadWorker {
  onmessage: Listener = null;
  onerror: ((error: unknown) => void) | null = null;
  private readonly scope: Record<string, unknown>;
  /** Settles once the worker's script has run (messages posted before wait for it). */
  private readonly started: Promise<void>;

  constructor(url: string | URL, extraGlobals: Record<string, unknown>) {
    const source = blobSources.get(String(url));
    if (!source) throw new Error(`InThreadWorker: no blob source for ${String(url)}`);
    const deliver = (data: unknown) =>
      setImmediate(() => {
        try {
          this.onmessage?.({ data });
        } catch (error) {
          this.onerror?.(error);
        }
      });
    this.scope = {
      ...extraGlobals,
      postMessage: deliver,
      onmessage: null,
      WorkerGlobalScope: class {},
      console,
      fetch: globalThis.fetch,
      Blob,
      URL,
      Response,
      TextDecoder,
      TextEncoder,
      performance,
      crypto: globalThis.crypto,
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      queueMicrotask,
    };
    this.scope.self = this.scope;
    this.scope.globalThis = this.scope;
    const context = createContext(this.scope);
    this.started = source.then((code) => {
      runInContext(code, context, { filename: 'worker.js' });
    });
    this.started.catch((error: unknown) => this.onerror?.(error));
  }

  postMessage(data: unknown): void {
    void this.started.then(() =>
      setImmediate(() => {
        const listener = this.scope.onmessage;
        if (typeof listener === 'function') (listener as (event: { data: unknown }) => void)({ data });
      }),
    );
  }

  terminate(): void {
    this.scope.onmessage = null;
  }
}

/**
 * Records each blob URL's text (URL.createObjectURL), so that a worker can be started from it, and
 * makes `Worker` an InThreadWorker with `extraGlobals` (e.g. `navigator`, `location`).
 */
export function installInThreadWorkers(extraGlobals: Record<string, unknown>): void {
  const create = URL.createObjectURL.bind(URL);
  URL.createObjectURL = (blob: Blob) => {
    const url = create(blob);
    blobSources.set(url, blob.text());
    return url;
  };
  Object.assign(globalThis, {
    Worker: class extends InThreadWorker {
      constructor(url: string | URL) {
        super(url, extraGlobals);
      }
    },
  });
}
