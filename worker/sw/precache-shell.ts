/// <reference lib="webworker" />
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';

declare const self: ServiceWorkerGlobalScope;

/**
 * Precaches the files the build listed: Workbox `injectManifest` replaces `self.__WB_MANIFEST`
 * with the generated list (never a hand-written one). The script as shipped, not injected,
 * precaches nothing, so it can be copied into any app without 404s failing its install
 * (a precache install is all-or-nothing). Query strings are ignored when matching, so
 * `/?model=...` is answered by the cached `index.html` offline.
 */
export function precacheShell(): void {
  // Spelled exactly `self.__WB_MANIFEST`: that is the string injectManifest replaces.
  const manifest = self.__WB_MANIFEST ?? [];
  if (manifest.length === 0) return;
  cleanupOutdatedCaches();
  precacheAndRoute(manifest, { ignoreURLParametersMatching: [/.*/] });
}
