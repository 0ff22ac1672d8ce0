/**
 * One engine per model for the whole origin, elected with Web Locks: the tab that holds the
 * lock `inpage-llm:engine:<model id>` runs the engine; the others ("followers") are served by it
 * through the Service Worker and queue for the lock, which Chromium grants to the next one when
 * the leader's tab closes or crashes. Without `navigator.locks` every tab leads (its own engine).
 */

/** This tab's place in the election for one model. */
export interface EngineElection {
  /** Whether this tab leads right away (settles at once: the first request asks `ifAvailable`). */
  readonly first: Promise<boolean>;
  /** Resolves when this tab leads: at once for the first leader, later for a follower promoted. */
  readonly leads: Promise<void>;
  /** Gives the lock back (or leaves the queue): on dispose and on pagehide. */
  release(): void;
}

/** The lock's name for `modelId`. */
export function engineLockName(modelId: string): string {
  return `inpage-llm:engine:${modelId}`;
}

/** Enters the election for `modelId`; the lock is held until `release()`. */
export function electEngine(modelId: string): EngineElection {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let lead!: () => void;
  const leads = new Promise<void>((resolve) => (lead = resolve));
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) {
    lead();
    return { first: Promise.resolve(true), leads, release };
  }
  const leave = new AbortController();
  const name = engineLockName(modelId);
  const hold = () => {
    lead();
    return held;
  };
  const first = new Promise<boolean>((decided) => {
    locks
      .request(name, { ifAvailable: true }, (lock) => {
        decided(lock !== null);
        if (lock !== null) return hold();
        // A follower: wait in line for the lock, until this page goes.
        locks.request(name, { signal: leave.signal }, hold).catch(() => undefined);
        return undefined;
      })
      .catch(() => {
        decided(true);
        lead();
      });
  });
  return {
    first,
    leads,
    release: () => {
      leave.abort();
      release();
    },
  };
}
