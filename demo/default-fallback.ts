/**
 * When the model the playground chose by itself (no `?model=`) cannot start, whatever the cause (a
 * download that fails where `navigator.onLine` says online but nothing answers, a WebGPU adapter
 * that cannot run it), the playground falls back to the built-in test model by itself, as it
 * does when it knows beforehand (choose-default-model.ts), and says why. A model someone asked
 * for keeps its failure notice and its offer instead. The page reloads on `?model=<built-in>`
 * (one engine per page load); the notice rides in sessionStorage across that reload, once.
 */
import type { Notice } from './describe-failure';

const KEY = 'inpage-playground:fallback-notice';

/** The notice for a default model that failed to start, the built-in one running instead. */
export function fallbackNotice(failed: string, builtin: string, error: unknown): Notice {
  const why = error instanceof Error ? error.message : String(error);
  return {
    kind: 'info',
    title: `Running ${builtin}`,
    detail: `The default model '${failed}' could not be started (${why}), so the playground runs the built-in test model, which needs no download.`,
    offerTestModel: false,
  };
}

/** Reloads the page on `?model=<builtin>` (other parameters kept), to show `notice` there. */
export function reloadOnBuiltin(builtin: string, notice: Notice): void {
  sessionStorage.setItem(KEY, JSON.stringify(notice));
  const url = new URL(location.href);
  url.searchParams.set('model', builtin);
  url.searchParams.delete('backend');
  location.replace(url.href);
}

/** The notice a fallback left for this load, taken once; undefined when there is none. */
export function takeFallbackNotice(): Notice | undefined {
  const saved = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  if (saved === null) return undefined;
  try {
    const notice: unknown = JSON.parse(saved);
    if (typeof notice !== 'object' || notice === null) return undefined;
    const [title, detail] = [Reflect.get(notice, 'title'), Reflect.get(notice, 'detail')];
    if (typeof title !== 'string' || typeof detail !== 'string') return undefined;
    return { kind: 'info', title, detail, offerTestModel: false };
  } catch {
    return undefined;
  }
}
