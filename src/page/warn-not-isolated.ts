/**
 * Says once, in the console, when a llama.cpp page is not cross-origin isolated (no COOP/COEP
 * headers), which a threaded engine needs, and how to get it: server headers, or `isolate`
 * (the Service Worker adds them; from the page's next load on, since this load has its headers).
 */
import type { IsolationMode } from '../core/domain/isolation';
import type { ModelSpec } from '../core/domain/model-spec';

let warned = false;

export function warnIfNotIsolated(spec: ModelSpec, isolate: IsolationMode | undefined): void {
  if (warned || spec.backend !== 'llamacpp' || globalThis.crossOriginIsolated) return;
  warned = true;
  const how =
    isolate === undefined
      ? "Serve Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy headers, or start with isolate: 'credentialless' to have the Service Worker add them."
      : `The Service Worker adds them (isolate: '${isolate}') from this page's next load on.`;
  console.warn(
    `[inpage-llm] This page is not cross-origin isolated, so the llama.cpp engine cannot use threads here. ${how} See docs/isolation.md.`,
  );
}
