import type { Inpage } from '../start-inpage';
import type { LoadProgress } from '../../core/domain/model-spec';

declare global {
  interface Window {
    /** The running endpoint (contract: `await window.inpage.ready`). */
    inpage: Inpage;
    /** Every load progress report since start. */
    inpageProgress: LoadProgress[];
  }
}

/** Publishes a runtime as `window.inpage` and records its progress in `window.inpageProgress`. */
export function exposeOnWindow(runtime: Inpage): void {
  window.inpage = runtime;
  window.inpageProgress = [];
  runtime.onProgress((progress) => window.inpageProgress.push(progress));
}
