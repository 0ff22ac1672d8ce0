/**
 * Settles like `promise`, or, after `ms`, with what `onTimeout` returns (or throws).
 *
 * @example
 * await withTimeout(answer, 2000, () => null); // a fallback value
 * await withTimeout(ready, 15000, () => { throw new ServiceUnavailableError('...'); }); // a deadline
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        resolve(onTimeout());
      } catch (error) {
        reject(error);
      }
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
