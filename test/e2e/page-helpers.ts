/** Small in-page helpers shared by the end-to-end specs (they run inside the browser). */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright';

export interface RawResponse {
  status: number;
  contentType: string | null;
  body: unknown;
}

/** POSTs `body` (a string is sent as-is) to `path` from inside the page; parses JSON answers. */
export function postFromPage(page: Page, path: string, body: unknown): Promise<RawResponse> {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, contentType: response.headers.get('content-type'), body: parsed };
    },
    { path, body },
  );
}

/** POSTs `body` to llama-server's `/completion` from inside the page; fails unless it is a 200, and returns its JSON. */
export async function completeFromPage<T>(page: Page, body: Record<string, unknown>): Promise<T> {
  const answer = await postFromPage(page, '/completion', body);
  if (answer.status !== 200) throw new Error(`/completion answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

/** Asserts that `inpage-test` answers greedy `abc` with `defgh` through `/v1/completions` in `page` (the engine serves). */
export async function assertAnswersDefgh(page: Page): Promise<void> {
  const response = await postFromPage(page, '/v1/completions', {
    model: 'inpage-test',
    prompt: 'abc',
    max_tokens: 5,
    temperature: 0,
  });
  if (response.status !== 200)
    throw new Error(`/v1/completions answered ${response.status}: ${JSON.stringify(response.body)}`);
  const text = (response.body as { choices: Array<{ text: string }> }).choices[0]?.text;
  if (text !== 'defgh') throw new Error(`inpage-test answered ${JSON.stringify(text)} to abc, not "defgh"`);
}

/** What a raw SSE stream carried: every parsed `data:` JSON, and whether `[DONE]` ended it. */
export interface SseResult {
  status: number;
  events: Array<Record<string, unknown>>;
  done: boolean;
}

/** POSTs a streaming request with fetch and parses the SSE body with `eventsource-parser`. */
export function streamFromPage(page: Page, body: unknown, headers: Record<string, string> = {}): Promise<SseResult> {
  return page.evaluate(
    async ({ body, headers }) => {
      const response = await fetch('/v1/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      const result = { status: response.status, events: [] as Array<Record<string, unknown>>, done: false };
      if (!response.ok || !response.body) {
        result.events.push(await response.json());
        return result;
      }
      const parser = window.createParser({
        onEvent(event) {
          if (event.data === '[DONE]') result.done = true;
          else result.events.push(JSON.parse(event.data));
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
      return result;
    },
    { body, headers },
  );
}

/**
 * Wraps the page's `fetch` so that every call to `/v1/...` is logged in `window.v1Fetches`
 * (method, path, status, and the JSON body it sent): the client SDKs' own requests become visible
 * to the spec. Install it
 * before creating a client: some SDKs keep the `fetch` they found at construction.
 */
export function recordV1Fetches(page: Page): Promise<void> {
  return page.evaluate(() => {
    window.v1Fetches = [];
    const original = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const request = input instanceof Request ? input : null;
      const url = new URL(request?.url ?? String(input), location.href);
      const response = await original(input, init);
      if (url.pathname.startsWith('/v1/')) {
        let body: unknown = null;
        try {
          if (typeof init?.body === 'string') body = JSON.parse(init.body);
        } catch {
          body = init?.body;
        }
        window.v1Fetches.push({
          method: init?.method ?? request?.method ?? 'GET',
          path: url.pathname,
          status: response.status,
          body,
        });
      }
      return response;
    };
  });
}

/** The `/v1` requests logged since the last call (see `recordV1Fetches`), and clears the log. */
export async function takeV1Fetches(page: Page) {
  const fetches = await page.evaluate(() => window.v1Fetches.splice(0));
  return {
    calls: fetches.map(({ method, path, status }) => ({ method, path, status })),
    bodies: fetches.map((fetched) => fetched.body as Record<string, unknown>),
  };
}

/** The text of choice 0 of a `/v1/completions` answer's raw body, JSON or SSE (its pieces joined). */
export function completionText(raw: string): string | undefined {
  type Body = { choices: Array<{ text: string }> };
  if (!raw.startsWith('data:')) return (JSON.parse(raw) as Body).choices[0]?.text;
  return raw
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => (JSON.parse(line.slice(6)) as Body).choices[0]?.text ?? '')
    .join('');
}

/** axe-core's WCAG A/AA violations on the page as it is (axe-core added once). */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ content: await readFile('node_modules/axe-core/axe.min.js', 'utf8') });
  return page.evaluate(async () => {
    const axe = Reflect.get(window, 'axe');
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return result.violations.map(
      (violation: { id: string; nodes: Array<{ target: unknown }> }) =>
        `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
    );
  });
}
