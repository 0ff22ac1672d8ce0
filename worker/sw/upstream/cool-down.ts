/**
 * Targets that failed recently: every route skips an upstream for 30 s after it failed
 * (unreachable, timed out, 5xx, 429, a configuration error), unless no other target is left.
 */
export const COOL_DOWN_MS = 30_000;

const until = new Map<string, number>();

export function coolDown(target: string, now = Date.now()): void {
  until.set(target, now + COOL_DOWN_MS);
}

export function isCooling(target: string, now = Date.now()): boolean {
  const end = until.get(target);
  if (end === undefined) return false;
  if (end > now) return true;
  until.delete(target);
  return false;
}

/** Forgets every cool-down (tests). */
export function resetCoolDowns(): void {
  until.clear();
}
