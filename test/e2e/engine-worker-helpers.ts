/**
 * The e2e tests' handles on the page's engine worker and a long stream through it, for the tests
 * that make the worker fail under a request (engine-crash, out-of-memory).
 */
import type { Page, Worker } from 'playwright';
import { postFromPage } from './page-helpers';

const ABC = { model: 'inpage-test', prompt: 'abc', max_tokens: 5, temperature: 0 };

/** The page's engine worker (the one that is running now). */
export async function engineWorker(page: Page): Promise<Worker> {
  for (let i = 0; i < 200; i++) {
    const found = page.workers().filter((worker) => worker.url().includes('engine-worker'));
    if (found.length === 1 && found[0]) return found[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no single engine worker: ${page.workers().map((worker) => worker.url())}`);
}

/**
 * The engine wasm files `worker` fetched, in order (resource timing: each engine's loader fetches
 * its wasm in the worker); with `loaders`, the loaders imported by URL too.
 */
export function engineFilesFetched(worker: Worker, loaders = false): Promise<string[]> {
  return worker.evaluate(
    (pattern) =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((url) => new RegExp(pattern).test(url)),
    loaders ? 'llama-engine[^/]*\\.(wasm|mjs)' : 'llama-engine[^/]*\\.wasm',
  );
}

/** Starts a long stream in the page; resolves once its first bytes arrived (`window.crashStream` holds the outcome). */
export async function startStream(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = window as unknown as { crashStream: Promise<object>; firstBytes: Promise<void> };
    let first!: () => void;
    state.firstBytes = new Promise((resolve) => (first = resolve));
    const body = { model: 'inpage-test', prompt: 'hi ', max_tokens: 4000, temperature: 0, stream: true };
    state.crashStream = fetch('/v1/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (response) => {
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      let lastPieceAt = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return { status: response.status, tail: text.slice(-600), endedAt: performance.now(), lastPieceAt };
        if (!value.includes('"error"')) lastPieceAt = performance.now();
        text += value;
        first();
      }
    });
  });
  await page.evaluate(() => (window as unknown as { firstBytes: Promise<void> }).firstBytes);
}

export interface StreamEnd {
  status: number;
  tail: string;
  endedAt: number;
  lastPieceAt: number;
}

export const streamEnd = (page: Page) =>
  page.evaluate(() => (window as unknown as { crashStream: Promise<StreamEnd> }).crashStream);

/** Sends ABC until it is answered 200 (a request during the restart waits for it); the answer and how long. */
export async function nextAnswer(page: Page) {
  const started = Date.now();
  const response = await postFromPage(page, '/v1/completions', ABC);
  return { ...response, ms: Date.now() - started };
}
