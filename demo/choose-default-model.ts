import type { CatalogueEntry } from './catalogue';

/** What the browser offers, as far as choosing a model goes. */
export interface Environment {
  webgpu: boolean;
  online: boolean;
}

/** The model to start with, and why it is not a real one when it is not. */
export interface DefaultChoice {
  entry: CatalogueEntry;
  /** Null when a real catalogue model was chosen. */
  reason: string | null;
}

/** The built-in test model's entry: the one that downloads nothing. */
export const builtinEntry = (catalogue: readonly CatalogueEntry[]): CatalogueEntry | undefined =>
  catalogue.find((entry) => entry.downloadBytes === 0);

/**
 * The default model: the first real (downloadable) catalogue model this browser can run —
 * WebGPU present when it needs it, and the network there unless it is cached — otherwise the
 * built-in test model, with the reason.
 */
export function chooseDefaultModel(
  catalogue: readonly CatalogueEntry[],
  env: Environment,
  cached: ReadonlySet<string>,
): DefaultChoice | null {
  const builtin = builtinEntry(catalogue);
  const real = catalogue.filter((entry) => entry.downloadBytes > 0 && !entry.test);
  const runnable = real.filter((entry) => entry.requires !== 'webgpu' || env.webgpu);
  const reachable = runnable.find((entry) => env.online || cached.has(entry.id));
  if (reachable) return { entry: reachable, reason: null };
  const fallback = builtin ?? catalogue[0];
  if (!fallback) return null;
  let reason: string;
  if (real.length === 0)
    reason = "No downloadable model is in this build's catalogue yet, so the playground runs the built-in test model.";
  else if (runnable.length === 0)
    reason =
      'No WebGPU in this browser, and every catalogue model needs it: running the built-in test model on the CPU backend.';
  else
    reason =
      'You appear to be offline and no catalogue model is cached: running the built-in test model, which needs no download.';
  return { entry: fallback, reason };
}
