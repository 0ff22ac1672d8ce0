/** Small in-page helpers shared by the end-to-end specs (they run inside the browser). */
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
