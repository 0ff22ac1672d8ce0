/**
 * Load progress as every backend reports it: within one phase a fraction never goes back. A
 * report whose fraction is below one already given (a backend that starts another step of the
 * phase at 0, as WebLLM's `reload()` does: weights 0..1, then shader modules 0..1) says null,
 * indeterminate, until the phase passes its earlier best.
 */
import type { LoadProgress } from '#core/domain/model-spec';

/** Wraps `report` so that no phase's fraction decreases. */
export function steadyProgress(report: (progress: LoadProgress) => void): (progress: LoadProgress) => void {
  let phase: LoadProgress['phase'] | null = null;
  let best = 0;
  return (progress) => {
    if (progress.phase !== phase) {
      phase = progress.phase;
      best = 0;
    }
    const { fraction } = progress;
    if (fraction === null || fraction < best) {
      report({ ...progress, fraction: null });
      return;
    }
    best = fraction;
    report(progress);
  };
}
