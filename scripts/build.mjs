// Builds everything into dist/:
// 1. dist/init/sw.js       the Service Worker template, stamped (version + checksum)
// 2. dist/inpage-llm/      the prebuilt engine worker + wasm (ES library and drop-in use it)
// 3. dist/index.html, dist/assets/   the playground (vite.config.ts), with its PWA manifest/icons
// 4. dist/lib/inpage-llm.js (ES library), dist/inpage-llm.js (drop-in), dist/cli/ (init CLI)
// 5. dist/types/           declarations for the library (tsc)
// 6. dist/sw.js, dist/init/sw-dropin.js   the template with Workbox precache lists injected
// 7. dist/models/inpage-test-qwen3.gguf   the Qwen3-tokenizer test model (not precached; the
//    playground and the tests load it by URL from the page's own origin)
// 8. dist/models/inpage-test-{vision,audio}.gguf and .mmproj.gguf   the multimodal test pairs
//    (a text model and its projector; not precached either)
import { execFileSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { build } from 'vite';
import { buildEngineWorker } from './build/engine-worker.mjs';
import { buildPageBundles } from './build/page-bundles.mjs';
import { precacheShells } from './build/precache.mjs';
import { buildServiceWorker } from './build/service-worker.mjs';

const pkg = JSON.parse(await readFile('package.json', 'utf8'));
await rm('dist', { recursive: true, force: true });
const stamp = await buildServiceWorker(pkg.version);
await buildEngineWorker();
const define = {
  __INPAGE_VERSION__: JSON.stringify(stamp.version),
  __INPAGE_SW_CHECKSUM__: JSON.stringify(stamp.checksum),
};
await build({ configFile: 'vite.config.ts', logLevel: 'warn', define });
await buildPageBundles(stamp, Object.keys(pkg.dependencies ?? {}));
execFileSync('npx', ['tsc', '-p', 'tsconfig.lib.json'], { stdio: 'inherit' });
const precached = await precacheShells();
execFileSync('npx', ['tsx', 'scripts/write-test-qwen3-model.ts', 'dist/models/inpage-test-qwen3.gguf'], {
  stdio: 'ignore',
});
execFileSync('npx', ['tsx', 'scripts/write-test-mmproj-models.ts', 'dist/models'], { stdio: 'ignore' });
execFileSync('npx', ['tsx', 'scripts/write-test-pooling-models.ts', 'dist/models'], { stdio: 'ignore' });
execFileSync('npx', ['tsx', 'scripts/write-test-lora-adapters.ts', 'dist/models'], { stdio: 'ignore' });
const kb = (bytes) => `${Math.round(bytes / 1024)} KB`;
console.log(
  `built dist/ (sw ${stamp.version} ${stamp.checksum}; playground precache ${precached.playground.count} files, ` +
    `${kb(precached.playground.size)}; drop-in precache ${precached.dropin.count} files, ${kb(precached.dropin.size)})`,
);
