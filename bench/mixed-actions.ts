/**
 * The actions of the mixed-fault soak (`bench/mixed-soak.ts`), each done to one page the way a
 * client or the world does it: an exact request (JSON or SSE), a request with a lone surrogate
 * (a 400), `inpage.load()` of a truncated GGUF (a rejected load), the engine worker closed
 * mid-stream (`close()` in the worker, through the DevTools protocol), a stream aborted after
 * its first bytes, the Service Worker stopped (`ServiceWorker.stopAllWorkers`).
 */
import type { Page } from 'playwright';
import { isExact, sendFromPage, type SoakAnswer, type SoakRequest } from './soak-traffic';

export type ActionKind = 'json' | 'sse' | 'surrogate' | 'bad load' | 'kill mid-stream' | 'abort' | 'stop sw';
export const ACTIONS: readonly ActionKind[] = [
  'json',
  'sse',
  'surrogate',
  'bad load',
  'kill mid-stream',
  'abort',
  'stop sw',
];

/** How an action ended: `ok` as it must, `error` a proper error answer, `bad` a failure of the soak. */
export interface ActionOutcome {
  verdict: 'ok' | 'error' | 'bad';
  detail: string;
  ms: number;
}

/** A request's outcome: exact, a proper error (a status and a code) in time, or bad (late, inexact, a 5xx but 503). */
export function judge(request: SoakRequest, answer: SoakAnswer): ActionOutcome {
  const ms = Math.round(answer.ms);
  if (answer.kind === 'hung') return { verdict: 'bad', detail: 'UNANSWERED', ms };
  if (answer.kind === 'network') return { verdict: 'error', detail: `network error (${answer.code})`, ms };
  if (answer.kind === 'ok')
    return isExact(request, answer)
      ? { verdict: 'ok', detail: '200 exact', ms }
      : { verdict: 'bad', detail: '200 NOT EXACT', ms };
  const detail = answer.status === 200 ? `200 then error ${answer.code}` : `${answer.status} ${answer.code}`;
  return { verdict: /^5(?!03)\d\d/.test(String(answer.status)) ? 'bad' : 'error', detail, ms };
}

/** Starts a long stream in the page (`window.soakStream`); resolves once its first bytes came. */
async function startLongStream(page: Page, abortAfterFirst: boolean): Promise<void> {
  await page.evaluate((abort) => {
    const state = window as unknown as { soakStream: Promise<string>; soakFirst: Promise<void> };
    let first!: () => void;
    state.soakFirst = new Promise((resolve) => (first = resolve));
    const controller = new AbortController();
    const body = { model: 'inpage-test', prompt: 'hi ', max_tokens: 4000, temperature: 0, stream: true };
    state.soakStream = fetch('/v1/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
    })
      .then(async (response) => {
        if (response.status !== 200) return `${response.status} ${(await response.json()).error?.code}`;
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        let tail = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return /"code":"([a-z_]+)"/.exec(tail)?.[1] ?? (tail.includes('[DONE]') ? 'done' : 'cut');
          tail = (tail + value).slice(-400);
          first();
          if (abort) controller.abort();
        }
      })
      .catch((error: Error) => error.name)
      .finally(() => first());
  }, abortAfterFirst);
  await page.evaluate(() => (window as unknown as { soakFirst: Promise<void> }).soakFirst);
}

const streamOutcome = (page: Page, boundMs: number) =>
  page.evaluate(
    (bound) =>
      Promise.race([
        (window as unknown as { soakStream: Promise<string> }).soakStream,
        new Promise<string>((resolve) => setTimeout(() => resolve('UNANSWERED'), bound)),
      ]),
    boundMs,
  );

/** Closes the page's engine worker(s) from outside; how many. */
export function killEngine(page: Page): number {
  const workers = page.workers().filter((worker) => worker.url().includes('engine-worker'));
  for (const worker of workers) void worker.evaluate(() => setTimeout(() => self.close(), 0)).catch(() => undefined);
  return workers.length;
}

/** Does `kind` on `page`; `request` for the request actions, `badUrl` for the load. */
export async function act(
  page: Page,
  kind: ActionKind,
  request: SoakRequest,
  badUrl: string,
  boundMs: number,
): Promise<ActionOutcome> {
  const started = Date.now();
  const took = () => Date.now() - started;
  switch (kind) {
    case 'json':
    case 'sse': {
      const stream = kind === 'sse' && request.route !== 'embeddings';
      const { stream: _given, ...rest } = request.body;
      const sent = { ...request, stream, body: stream ? { ...rest, stream: true } : rest };
      return judge(sent, await sendFromPage(page, sent, boundMs));
    }
    case 'surrogate': {
      const status = await page.evaluate(async () => {
        const body = '{"model":"inpage-test","messages":[{"role":"user","content":"ab\\ud83d"}]}';
        const response = await fetch('/v1/chat/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        return `${response.status} ${(await response.json()).error?.code}`;
      });
      return { verdict: status === '400 invalid_unicode' ? 'ok' : 'bad', detail: status, ms: took() };
    }
    case 'bad load': {
      const outcome = await page.evaluate(
        ({ url, bound }) =>
          Promise.race([
            window.inpage.load(url).then(
              () => 'resolved',
              (error: { code?: string }) => `rejected ${error.code}`,
            ),
            new Promise<string>((resolve) => setTimeout(() => resolve('UNANSWERED'), bound)),
          ]),
        { url: badUrl, bound: boundMs * 3 },
      );
      const verdict =
        outcome === 'rejected model_load_failed' ? 'ok' : outcome.startsWith('rejected') ? 'error' : 'bad';
      return { verdict, detail: outcome, ms: took() };
    }
    case 'kill mid-stream':
    case 'abort': {
      await startLongStream(page, kind === 'abort');
      const killed = kind === 'kill mid-stream' ? killEngine(page) : 0;
      const end = await streamOutcome(page, boundMs);
      const expected = kind === 'abort' ? 'AbortError' : 'engine_crashed';
      const verdict = end === 'UNANSWERED' ? 'bad' : end === expected ? 'ok' : 'error';
      return { verdict, detail: kind === 'abort' ? end : `closed ${killed} worker(s); stream: ${end}`, ms: took() };
    }
    case 'stop sw': {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      await cdp.detach();
      return { verdict: 'ok', detail: 'stopped', ms: took() };
    }
  }
}
