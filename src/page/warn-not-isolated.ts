/**
 * Says once, in the console, when the llama.cpp backend will run single-threaded because the
 * page is not cross-origin isolated (no COOP/COEP headers), and what that costs.
 */
import type { ModelSpec } from '../core/domain/model-spec';

let warned = false;

export function warnIfNotIsolated(spec: ModelSpec): void {
  if (warned || spec.backend !== 'llamacpp' || globalThis.crossOriginIsolated) return;
  warned = true;
  console.warn(
    '[inpage-llm] This page is not cross-origin isolated (no Cross-Origin-Opener-Policy: same-origin and ' +
      'Cross-Origin-Embedder-Policy: require-corp headers), so the llama.cpp engine runs on one thread: ' +
      'prompts are read about half as fast on a 2-core machine. See the README, "Cross-origin isolation (COOP/COEP)".',
  );
}
