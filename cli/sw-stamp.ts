/**
 * How `init` tells its own Service Worker from someone else's `sw.js`. The build writes a first
 * line `// inpage-llm service worker {"version":"0.1.0","checksum":"…"}` (after minifying, so it
 * survives; Workbox's injectManifest keeps it). Copies made before that line existed are still
 * recognised by a string the minifier cannot rename: the `sw.version.query` message type.
 */

/** What an existing `sw.js` is: ours with its stamp, ours from before stamps, or not ours. */
export type SwIdentity =
  { kind: 'stamped'; version: string; checksum: string } | { kind: 'unstamped' } | { kind: 'foreign' };

export const SW_BANNER_PREFIX = '// inpage-llm service worker ';

const LEGACY_FINGERPRINT = 'sw.version.query';

/** The banner line the build puts on top of `sw.js`. */
export function swBanner(version: string, checksum: string): string {
  return `${SW_BANNER_PREFIX}${JSON.stringify({ version, checksum })}\n`;
}

/** Reads the identity of an `sw.js` from its text. */
export function readSwIdentity(code: string): SwIdentity {
  const firstLine = code.slice(0, code.indexOf('\n') >>> 0);
  if (firstLine.startsWith(SW_BANNER_PREFIX)) {
    try {
      const stamp: unknown = JSON.parse(firstLine.slice(SW_BANNER_PREFIX.length));
      const version: unknown = typeof stamp === 'object' && stamp !== null ? Reflect.get(stamp, 'version') : undefined;
      const checksum: unknown =
        typeof stamp === 'object' && stamp !== null ? Reflect.get(stamp, 'checksum') : undefined;
      if (typeof version === 'string' && typeof checksum === 'string') return { kind: 'stamped', version, checksum };
    } catch {
      // A damaged banner: fall through to the fingerprint.
    }
  }
  return code.includes(LEGACY_FINGERPRINT) ? { kind: 'unstamped' } : { kind: 'foreign' };
}

/** `0.1.0 (af7b423a…)`, `an unstamped copy`: for the CLI's report. */
export function describeSwIdentity(identity: SwIdentity): string {
  if (identity.kind === 'stamped') return `${identity.version} (${identity.checksum.slice(0, 8)})`;
  return identity.kind === 'unstamped' ? 'an older unstamped copy' : 'not inpage-llm';
}
