import { BUILD_STAMP, type BuildStamp } from '../core/build-stamp';
import { message, PROTOCOL_VERSION } from '../core/protocol';
import { isSwVersionReply, type PageToSwVersion } from '../core/sw-version';
import { withTimeout } from '../core/with-timeout';

/** What the version check found. */
export type SwVersionCheck =
  | { state: 'current'; stamp: BuildStamp }
  | { state: 'stale'; stamp: BuildStamp | null; expected: BuildStamp };

/** Asks a Service Worker for its build stamp; null if it does not answer (an older script). */
export function askSwVersion(worker: ServiceWorker, timeoutMs: number): Promise<BuildStamp | null> {
  const channel = new MessageChannel();
  const answer = new Promise<BuildStamp | null>((resolve) => {
    channel.port1.onmessage = (event: MessageEvent<unknown>) => {
      resolve(isSwVersionReply(event.data) ? { version: event.data.version, checksum: event.data.checksum } : null);
    };
  });
  worker.postMessage(message<PageToSwVersion, 'sw.version.query'>('sw.version.query', { protocol: PROTOCOL_VERSION }), [channel.port2]);
  return withTimeout(answer, timeoutMs, () => null).finally(() => channel.port1.close());
}

/**
 * Compares the active Service Worker's stamp with the one this runtime was built with. On a
 * mismatch (an old `sw.js` left in the app's public folder, or a browser still running the
 * previous script) it warns and asks the registration to update.
 */
export async function checkSwVersion(registration: ServiceWorkerRegistration, expected = BUILD_STAMP, timeoutMs = 3000): Promise<SwVersionCheck> {
  const active = registration.active;
  const stamp = active ? await askSwVersion(active, timeoutMs) : null;
  if (stamp && stamp.checksum === expected.checksum) return { state: 'current', stamp };
  const found = stamp ? `version ${stamp.version} (checksum ${stamp.checksum})` : 'an unknown version (it did not answer)';
  console.warn(
    `[inpage-llm] The Service Worker at ${active?.scriptURL ?? '(none)'} is ${found}, but this page runtime expects ` +
      `version ${expected.version} (checksum ${expected.checksum}). Re-run \`npx inpage-llm init\` to copy the current ` +
      'worker into your public folder; asking the browser to update the registration now.',
  );
  await registration.update().catch(() => undefined);
  return { state: 'stale', stamp, expected };
}
