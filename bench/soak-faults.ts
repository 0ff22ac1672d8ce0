/**
 * The four faults of the fault soak (`bench/fault-soak.ts`), each done to a set of tabs of one
 * browser context the way the world does it: the leader tab closes (a new tab opens in its
 * place), the engine's dedicated worker is closed from outside (the DevTools protocol: attach
 * to the worker target, evaluate `close()`), the Service Worker is stopped
 * (`ServiceWorker.stopAllWorkers`), and the leader loads a truncated GGUF by URL.
 */
import type { BrowserContext, Page } from 'playwright';

export type FaultKind = 'close leader tab' | 'kill engine worker' | 'restart service worker' | 'load bad model';
/**
 * The rotation of the three-tab run (`npm run soak:tabs`). Its order (the kill last, the tab
 * closed next) let each other fault meet a working engine, which hid the states in which a
 * replaced engine was not served; the mixed soak (`npm run soak`, `mixed-soak.ts`) does the
 * faults in a random order from a seed instead.
 */
export const FAULTS: readonly FaultKind[] = [
  'close leader tab',
  'load bad model',
  'restart service worker',
  'kill engine worker',
];

/** The tabs the traffic runs in; a fault may replace one. */
export interface Tabs {
  context: BrowserContext;
  origin: string;
  pages: Page[];
}

/** The most a fault's own steps may take (opening a tab, a load) before it is reported as stuck. */
const STEP_MS = 90_000;

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The tab whose runtime holds the engine (the first tab when none says so). */
async function leaderOf(tabs: Tabs): Promise<{ page: Page; index: number }> {
  for (const [index, page] of tabs.pages.entries()) {
    const role = await within(
      page.evaluate(() => window.inpage.role),
      10_000,
      'role',
    ).catch(() => null);
    if (role === 'leader') return { page, index };
  }
  return { page: tabs.pages[0] as Page, index: 0 };
}

/** Opens a tab on the demo, waiting (bounded) for its runtime; a runtime that does not start is reported, not thrown. */
export async function openTab(tabs: Tabs): Promise<{ page: Page; ready: string }> {
  const page = await tabs.context.newPage();
  await page.goto(`${tabs.origin}/?model=inpage-test`);
  const ready = await within(
    page.evaluate(() => window.inpage.ready.then(() => 'ready')),
    STEP_MS,
    'ready',
  ).catch((error: unknown) => `not ready: ${String(error)}`);
  return { page, ready };
}

/** A GGUF cut short: the model's first `fraction` of bytes. */
export function truncatedModel(model: Uint8Array, fraction: number): Uint8Array {
  return model.slice(0, Math.max(8, Math.floor(model.length * fraction)));
}

/** Does `kind` to `tabs`; says what happened. `badModelUrl` is the truncated GGUF for `load bad model`. */
export async function injectFault(tabs: Tabs, kind: FaultKind, badModelUrl: string): Promise<string> {
  const leader = await leaderOf(tabs);
  switch (kind) {
    case 'close leader tab': {
      await leader.page.close();
      const { page, ready } = await openTab(tabs);
      tabs.pages[leader.index] = page;
      return `closed tab ${leader.index}; its new tab: ${ready}`;
    }
    case 'kill engine worker': {
      const workers = leader.page.workers();
      for (const worker of workers) {
        // close() ends the worker, so the evaluation itself may never answer.
        void worker.evaluate(() => (self as unknown as { close(): void }).close()).catch(() => undefined);
      }
      return `closed ${workers.length} worker(s) of tab ${leader.index}: ${workers.map((w) => w.url().split('/').pop()).join(', ')}`;
    }
    case 'restart service worker': {
      const cdp = await tabs.context.newCDPSession(leader.page);
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      await cdp.detach();
      return 'stopped the Service Worker (it starts again on the next fetch)';
    }
    case 'load bad model': {
      const outcome = await within(
        leader.page.evaluate(
          (url) =>
            window.inpage.load(url).then(
              (card) => `resolved ${JSON.stringify(card).slice(0, 120)}`,
              (error: { status?: number; code?: string; message?: string }) =>
                `rejected ${error.status ?? ''} ${error.code ?? ''}: ${String(error.message).slice(0, 160)}`,
            ),
          badModelUrl,
        ),
        STEP_MS,
        'load',
      ).catch((error: unknown) => `load stuck: ${String(error)}`);
      return `tab ${leader.index} loaded ${badModelUrl}: ${outcome}`;
    }
  }
}
