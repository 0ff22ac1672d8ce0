import { BUILD_STAMP, type BuildStamp } from '../core/protocol/build-stamp';
import { ask } from '../core/protocol/ask';
import type { PageToSw } from '../core/protocol/protocol';

/** What the version check found. */
export type SwVersionCheck =
  { state: 'current'; stamp: BuildStamp } | { state: 'stale'; stamp: BuildStamp | null; expected: BuildStamp };

/** Asks a Service Worker for its build stamp; null if it does not answer (an older script). */
export async function askSwVersion(worker: ServiceWorker, timeoutMs: number): Promise<BuildStamp | null> {
  const reply = await ask<PageToSw, 'sw.version.query', 'sw.version'>(
    worker,
    'sw.version.query',
    {},
    'sw.version',
    timeoutMs,
  );
  return reply ? { version: reply.version, checksum: reply.checksum } : null;
}

/**
 * Compares the active Service Worker's stamp with the one this runtime was built with. On a
 * mismatch (an old `sw.js` left in the app's public folder, or a browser still running the
 * previous script) it warns and asks the registration to update.
 */
export async function checkSwVersion(
  registration: ServiceWorkerRegistration,
  expected = BUILD_STAMP,
  timeoutMs = 3000,
): Promise<SwVersionCheck> {
  const active = registration.active;
  const stamp = active ? await askSwVersion(active, timeoutMs) : null;
  if (stamp && stamp.checksum === expected.checksum) return { state: 'current', stamp };
  const found = stamp
    ? `version ${stamp.version} (checksum ${stamp.checksum})`
    : 'an unknown version (it did not answer)';
  console.warn(
    `[inpage-llm] The Service Worker at ${active?.scriptURL ?? '(none)'} is ${found}, but this page runtime expects ` +
      `version ${expected.version} (checksum ${expected.checksum}). Re-run \`npx inpage-llm init\` to copy the current ` +
      'worker into your public folder; asking the browser to update the registration now.',
  );
  await registration.update().catch(() => undefined);
  return { state: 'stale', stamp, expected };
}
