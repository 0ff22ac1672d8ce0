/**
 * The engine worker's life, as the page can watch it: the worker takes a Web Lock of a name
 * the page chose and never lets it go; the browser releases it when the worker ends, however
 * it ends (closed, terminated, killed under memory pressure), and so grants the page's own
 * request for it at that moment. No polling, and a busy worker is never taken for a dead one.
 */

/** Resolves once this worker holds the lock `name` (at once where Web Locks are missing). */
export function holdForLife(name: string): Promise<void> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return Promise.resolve();
  return new Promise<void>((held, failed) => {
    locks
      .request(name, () => {
        held();
        return new Promise<never>(() => undefined);
      })
      .catch(failed);
  });
}
