import { ServiceUnavailableError } from '../core/errors';

/** Rejects with a 503-style error naming `what` when `promise` takes longer than `ms`. */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new ServiceUnavailableError(`Timed out after ${ms} ms waiting for ${what}.`, 'startup_timeout')), ms);
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
