/**
 * The package version and the Service Worker checksum, stamped in at build time
 * (`scripts/build.mjs` defines both globals). Unbuilt code (unit tests, a dev server) reads 'dev'.
 */
declare const __INPAGE_VERSION__: string;
declare const __INPAGE_SW_CHECKSUM__: string;

export interface BuildStamp {
  version: string;
  checksum: string;
}

export const BUILD_STAMP: BuildStamp = {
  version: typeof __INPAGE_VERSION__ === 'string' ? __INPAGE_VERSION__ : 'dev',
  checksum: typeof __INPAGE_SW_CHECKSUM__ === 'string' ? __INPAGE_SW_CHECKSUM__ : 'dev',
};
