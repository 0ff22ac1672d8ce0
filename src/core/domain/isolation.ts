/**
 * Cross-origin isolation from the Service Worker (the coi-serviceworker technique): a page that
 * opts in (`startInpage({ isolate })`, `data-isolate`, `&isolate=`) registers the SW with
 * `?isolate=<mode>`, and the SW then serves the origin's documents and worker scripts with
 * COOP/COEP, so the next load is `crossOriginIsolated` (threads, SharedArrayBuffer) even on a
 * host that cannot set headers. A Service Worker is a static file, so, like the route prefix,
 * its one input is the URL it was registered with: it knows the mode from its first event on.
 */
import { InvalidRequestError } from './errors';

/** COEP's value: `credentialless` breaks fewer cross-origin embeds; `require-corp` is what Safari knows. */
export type IsolationMode = 'credentialless' | 'require-corp';

export const ISOLATION_MODES: readonly IsolationMode[] = ['credentialless', 'require-corp'];

/** `value` as a mode; throws a 400 naming `field` for anything else. */
export function readIsolation(value: unknown, field: string): IsolationMode {
  const mode = ISOLATION_MODES.find((candidate) => candidate === value);
  if (mode) return mode;
  throw new InvalidRequestError(
    `${field}: ${JSON.stringify(value)} is not an isolation mode: use ${ISOLATION_MODES.map((m) => `'${m}'`).join(' or ')}.`,
    field,
  );
}

/** The headers that make a document (or a worker) cross-origin isolated. */
export function isolationHeaders(mode: IsolationMode): Record<string, string> {
  return { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': mode };
}

/** The SW script URL that asks for isolation (`sw.js?isolate=credentialless`), or without it (null). */
export function withIsolation(scriptUrl: string, mode: IsolationMode | null): string {
  const url = new URL(scriptUrl);
  if (mode === null) url.searchParams.delete('isolate');
  else url.searchParams.set('isolate', mode);
  return url.href;
}

/** The mode a Service Worker was registered with (from its own script URL); null when none, or not one. */
export function isolationOf(scriptUrl: string): IsolationMode | null {
  const value = new URL(scriptUrl).searchParams.get('isolate');
  return ISOLATION_MODES.find((mode) => mode === value) ?? null;
}
