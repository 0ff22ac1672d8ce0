/**
 * The differential specs' one comparison: the same request to Debian's native `llama-server`
 * and to the page's endpoint, each answer as its status, its parsed body (JSON, else the text)
 * and its raw text; and the small readers of what they answered (SSE `data:` frames, picked keys).
 */
import type { Page } from 'playwright';
import type { LlamaServer } from './llama-server';
import { postFromPage } from './page-helpers';

export type Json = Record<string, unknown>;

const parse = (text: unknown) => {
  try {
    return JSON.parse(String(text)) as unknown;
  } catch {
    return text;
  }
};

/** The page's answer and native llama-server's to the same request (`model` is added to the page's body). */
export async function askBoth(
  page: Page,
  server: LlamaServer,
  method: 'GET' | 'POST',
  path: string,
  body?: Json,
  model?: string,
) {
  const init = {
    method,
    ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
  };
  const url = `http://127.0.0.1:${server.port}${path}`;
  // Once more where the connection failed: Node's fetch reuses a kept-alive socket, which
  // llama-server may close (after 5 s idle) as the request goes out ('fetch failed' once in a full
  // run beside an engine build). A llama-server that is gone fails the second try too.
  const native = await fetch(url, init).catch((error: unknown) => {
    const cause = error instanceof Error ? String(error.cause) : '';
    console.log(`# ${method} ${path} to llama-server: ${String(error)} (${cause}); asked again`);
    return fetch(url, init);
  });
  const nativeText = await native.text();
  const own = body
    ? await postFromPage(page, path, model ? { ...body, model } : body)
    : await page.evaluate(
        async (url) => {
          const response = await fetch(url);
          return { status: response.status, body: (await response.text()) as unknown };
        },
        `${path}${path.includes('?') ? '&' : '?'}model=${model ?? ''}`,
      );
  return {
    native: { status: native.status, body: parse(nativeText) },
    own: { status: own.status, body: typeof own.body === 'string' ? parse(own.body) : own.body },
    nativeText,
    ownText: typeof own.body === 'string' ? own.body : JSON.stringify(own.body),
  };
}

/** The JSON `data:` frames of an SSE body (`[DONE]` and `event:` lines left out). */
export const dataFrames = (text: string): Json[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Json);

/** Every `data:` frame of a llama-server stream, parsed (its `data: null` among them). */
export const frames = (text: string): Json[] =>
  text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as Json);

export const pick = (value: unknown, keys: string[]) =>
  Object.fromEntries(keys.map((key) => [key, (value as Json)[key]]));
