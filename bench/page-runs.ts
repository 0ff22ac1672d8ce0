/**
 * Measurements inside the page: one streamed completion through the endpoint (fetch -> Service
 * Worker -> engine, SSE) or direct from the engine (`inpage.stream()`, no HTTP, no SW), and a
 * request queued behind a running one. The functions passed to `page.evaluate` are self-contained.
 */
import type { Page } from 'playwright';

/** One streamed completion: time to the first event and to the end, and the token counts. */
export interface RunSample {
  ttftMs: number;
  totalMs: number;
  tokens: number;
  promptTokens: number;
}

export type Route = 'endpoint' | 'direct';

/** Runs one streamed completion `body` by `route` in the page. */
export function runInPage(page: Page, route: Route, body: Record<string, unknown>): Promise<RunSample> {
  if (route === 'direct') {
    return page.evaluate(async (body) => {
      const start = performance.now();
      let ttftMs = 0;
      let tokens = 0;
      let promptTokens = 0;
      for await (const event of window.inpage.stream(body)) {
        // The first token is the first piece: `generation.prompt` comes before the prefill.
        if (!ttftMs && event.type === 'generation.piece') ttftMs = performance.now() - start;
        if (event.type === 'generation.done') ({ completion: tokens, prompt: promptTokens } = event.counts);
      }
      return { ttftMs, totalMs: performance.now() - start, tokens, promptTokens };
    }, body);
  }
  return page.evaluate(async (body) => {
    const start = performance.now();
    const response = await fetch('/v1/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } }),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let ttftMs = 0;
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!ttftMs) ttftMs = performance.now() - start;
      text += value;
    }
    const totalMs = performance.now() - start;
    if (!response.ok || text.includes('"error"'))
      throw new Error(`endpoint failed (${response.status}): ${text.slice(0, 300)}`);
    const tokens = Number(text.match(/"completion_tokens":(\d+)/)?.[1] ?? 0);
    const promptTokens = Number(text.match(/"prompt_tokens":(\d+)/)?.[1] ?? 0);
    return { ttftMs, totalMs, tokens, promptTokens };
  }, body);
}

/** A request queued behind a running one: its time to first token, and its gap after the first ends. */
export interface QueuedSample {
  queuedTtftMs: number;
  gapMs: number;
}

/**
 * Starts `running` through the endpoint; once its first bytes arrive, sends `queued` (one token)
 * the same way, and times the queued request's first bytes against its start and against the
 * end of the running one.
 */
export function queuedInPage(
  page: Page,
  running: Record<string, unknown>,
  queued: Record<string, unknown>,
): Promise<QueuedSample> {
  return page.evaluate(
    async ({ running, queued }) => {
      const post = (body: Record<string, unknown>) =>
        fetch('/v1/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...body, stream: true }),
        });
      let firstSeen: () => void = () => {};
      const started = new Promise<void>((resolve) => (firstSeen = resolve));
      const first = (async () => {
        const reader = (await post(running)).body!.getReader();
        for (;;) {
          const { done } = await reader.read();
          firstSeen();
          if (done) return performance.now();
        }
      })();
      await started;
      const start = performance.now();
      const reader = (await post(queued)).body!.getReader();
      await reader.read();
      const ttft = performance.now();
      while (!(await reader.read()).done);
      const firstEnd = await first;
      return { queuedTtftMs: ttft - start, gapMs: ttft - firstEnd };
    },
    { running, queued },
  );
}
