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
