/**
 * The fault soak's traffic (`bench/fault-soak.ts`): seeded requests over the four POST routes,
 * streamed and not, whose answers on `inpage-test` are known in closed form (greedy decoding of
 * a lowercase word continues its last letter's successors, z -> a; an embedding is the
 * unit-length mean of its bytes' one-hot vectors), and the page-side call that sends one with a
 * bound and says how it ended.
 */
import type { Page } from 'playwright';

export type SoakRoute = 'completions' | 'chat' | 'responses' | 'embeddings';

export interface SoakRequest {
  route: SoakRoute;
  stream: boolean;
  body: Record<string, unknown>;
  /** The exact text (generations) or the nonzero dimensions of the vector (embeddings). */
  expected: string | Record<number, number>;
}

/** How one request ended, as the page saw it. */
export interface SoakAnswer {
  /** `ok`: a success body or a stream that ended cleanly; `error`: an error body or frame. */
  kind: 'ok' | 'error' | 'network' | 'hung';
  status: number;
  /** The error's code (body, SSE frame, or the network error's name). */
  code: string | null;
  text: string | null;
  vector: number[] | null;
  ms: number;
}

const PATHS: Record<SoakRoute, string> = {
  completions: '/v1/completions',
  chat: '/v1/chat/completions',
  responses: '/v1/responses',
  embeddings: '/v1/embeddings',
};
const ROUTES: readonly SoakRoute[] = ['completions', 'chat', 'responses', 'embeddings'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
export const EMBEDDING_DIM = 320;

/** The next `count` letters after `word`'s last: `inpage-test`'s greedy continuation. */
export function continuation(word: string, count: number): string {
  let at = LETTERS.indexOf(word.at(-1) ?? 'a');
  let text = '';
  for (let i = 0; i < count; i++) {
    at = (at + 1) % LETTERS.length;
    text += LETTERS[at];
  }
  return text;
}

/** The mean-pooled, unit-length embedding of `word` on `inpage-test`, as its nonzero dimensions. */
export function embeddingOf(word: string): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const byte of new TextEncoder().encode(word)) counts[byte] = (counts[byte] ?? 0) + 1;
  const norm = Math.sqrt(Object.values(counts).reduce((sum, c) => sum + c * c, 0));
  return Object.fromEntries(Object.entries(counts).map(([dim, c]) => [Number(dim), c / norm]));
}

/** A seeded generator of soak requests (mulberry32). */
export function soakRequests(seed: number): () => SoakRequest {
  let state = seed >>> 0;
  const rand = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(rand() * below);
  return () => {
    const route = ROUTES[int(ROUTES.length)] as SoakRoute;
    const word = Array.from({ length: 1 + int(4) }, () => LETTERS[int(LETTERS.length)]).join('');
    if (route === 'embeddings')
      return { route, stream: false, body: { model: 'inpage-test', input: word }, expected: embeddingOf(word) };
    const tokens = 1 + int(24);
    const stream = rand() < 0.5;
    const common = { model: 'inpage-test', temperature: 0, ...(stream ? { stream: true } : {}) };
    const body =
      route === 'completions'
        ? { ...common, prompt: word, max_tokens: tokens }
        : route === 'chat'
          ? { ...common, messages: [{ role: 'user', content: word }], max_tokens: tokens }
          : { ...common, input: word, max_output_tokens: tokens };
    return { route, stream, body, expected: continuation(word, tokens) };
  };
}

/** Whether a successful answer is exactly what `inpage-test` must answer. */
export function isExact(request: SoakRequest, answer: SoakAnswer): boolean {
  if (typeof request.expected === 'string') return answer.text === request.expected;
  const vector = answer.vector;
  if (!vector || vector.length !== EMBEDDING_DIM) return false;
  const expected = request.expected;
  return vector.every((value, dim) => Math.abs(value - (expected[dim] ?? 0)) <= 1e-5);
}

/** Sends `request` from `page`, aborting it after `boundMs` (then it counts as hung). */
export function sendFromPage(page: Page, request: SoakRequest, boundMs: number): Promise<SoakAnswer> {
  return page.evaluate(
    async ({ path, route, stream, body, bound }) => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), bound);
      const start = performance.now();
      const answer = (
        kind: 'ok' | 'error' | 'network' | 'hung',
        status: number,
        code: string | null,
        text: string | null = null,
        vector: number[] | null = null,
      ) => ({
        kind,
        status,
        code,
        text,
        vector,
        ms: performance.now() - start,
      });
      const codeOf = (value: unknown): string | null => {
        const error = typeof value === 'object' && value !== null ? Reflect.get(value, 'error') : null;
        if (typeof error !== 'object' || error === null) return null;
        const code = Reflect.get(error, 'code');
        return typeof code === 'string' ? code : 'no code';
      };
      let status = 0;
      try {
        const response = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: controller.signal,
        });
        status = response.status;
        const raw = await response.text();
        if (!stream || status !== 200) {
          const parsed: unknown = JSON.parse(raw);
          const code = codeOf(parsed);
          if (code !== null || status !== 200) return answer('error', status, code ?? 'no error body');
          if (route === 'embeddings') {
            const data = Reflect.get(parsed as object, 'data') as Array<{ embedding: number[] }>;
            return answer('ok', status, null, null, data[0]?.embedding ?? null);
          }
          if (route === 'completions') {
            const choices = Reflect.get(parsed as object, 'choices') as Array<{ text: string }>;
            return answer('ok', status, null, choices[0]?.text ?? null);
          }
          if (route === 'chat') {
            const choices = Reflect.get(parsed as object, 'choices') as Array<{ message: { content: string } }>;
            return answer('ok', status, null, choices[0]?.message.content ?? null);
          }
          const output = Reflect.get(parsed as object, 'output') as Array<{ content?: Array<{ text?: string }> }>;
          return answer(
            'ok',
            status,
            null,
            output
              .flatMap((item) => item.content ?? [])
              .map((part) => part.text ?? '')
              .join(''),
          );
        }
        let text = '';
        let ended = false;
        for (const line of raw.split('\n')) {
          if (!line.startsWith('data: ')) continue;
          const data = line.slice(6);
          if (data === '[DONE]') {
            ended = true;
            continue;
          }
          const event = JSON.parse(data) as Record<string, unknown>;
          const code = codeOf(event) ?? (event.type === 'error' ? String(event.code ?? 'no code') : null);
          if (code !== null) return answer('error', status, code);
          if (route === 'completions') text += (event.choices as Array<{ text?: string }>)[0]?.text ?? '';
          else if (route === 'chat')
            text += (event.choices as Array<{ delta?: { content?: string } }>)[0]?.delta?.content ?? '';
          else if (event.type === 'response.output_text.delta') text += String(event.delta);
          else if (event.type === 'response.completed' || event.type === 'response.incomplete') ended = true;
        }
        return ended ? answer('ok', status, null, text) : answer('error', status, 'stream ended without its end');
      } catch (error) {
        if (controller.signal.aborted) return answer('hung', status, null);
        return answer('network', status, (error as Error).name);
      } finally {
        clearTimeout(timer);
      }
    },
    { path: PATHS[request.route], route: request.route, stream: request.stream, body: request.body, bound: boundMs },
  );
}
