// Workbox injectManifest: the same SW template with a generated precache list (never a
// hand-written one). The playground's list is its whole app shell (page, scripts, engine wasm,
// web app manifest, icons); the drop-in's list is the drop-in script and its engine files, with
// URLs relative to the SW, which `init --dropin` copies beside them.
import { injectManifest } from 'workbox-build';

const MAX_BYTES = 32 * 1024 * 1024; // the engine wasm is ~10 MB

async function inject(swDest, globPatterns) {
  const { count, size, warnings } = await injectManifest({
    swSrc: 'dist/init/sw.js',
    swDest,
    globDirectory: 'dist',
    globPatterns,
    // WebLLM's chunk is cached at run time instead (worker/sw/lazy-chunk-cache.ts).
    globIgnores: ['**/webllm-*.js', '**/webllm.js'],
    maximumFileSizeToCacheInBytes: MAX_BYTES,
    // Hashed file names are their own revision; the others get a content hash.
    dontCacheBustURLsMatching: /-[\w-]{8}\.\w+$/,
  });
  if (warnings.length > 0) throw new Error(`injectManifest ${swDest}: ${warnings.join('; ')}`);
  if (count === 0) throw new Error(`injectManifest ${swDest}: nothing to precache`);
  return { count, size };
}

export async function precacheShells() {
  const playground = await inject('dist/sw.js', ['index.html', 'assets/**/*', 'manifest.webmanifest', 'icons/*']);
  const dropin = await inject('dist/init/sw-dropin.js', ['inpage-llm.js', 'inpage-llm/*']);
  return { playground, dropin };
}
