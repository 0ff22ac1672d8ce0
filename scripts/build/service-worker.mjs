// The Service Worker template: one unhashed classic script (a SW must be served from the site's
// origin), stamped with the package version and a checksum of its own code. The page bundles
// are built with the same checksum, so a runtime can tell a stale copied sw.js. Its first line
// carries the same stamp as a comment (cli/sw-stamp.ts reads it): `init` recognises its own
// sw.js by it (minifying renames everything else) and upgrades an older copy.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { build } from 'vite';

const PLACEHOLDER = '@@INPAGE_SW_CHECKSUM@@';

/** Builds `dist/init/sw.js` (and its stamp in `dist/init/stamp.json`); returns the stamp the page bundles must carry. */
export async function buildServiceWorker(version) {
  const file = 'dist/init/sw.js';
  await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    define: {
      __INPAGE_VERSION__: JSON.stringify(version),
      __INPAGE_SW_CHECKSUM__: JSON.stringify(PLACEHOLDER),
      'process.env.NODE_ENV': JSON.stringify('production'),
    },
    build: {
      outDir: 'dist/init',
      emptyOutDir: false,
      target: 'es2022',
      lib: { entry: 'worker/sw/sw.ts', formats: ['iife'], name: 'inpageServiceWorker', fileName: () => 'sw.js' },
    },
  });
  const code = await readFile(file, 'utf8');
  if (!code.includes(PLACEHOLDER)) throw new Error('the SW build lost its checksum placeholder');
  if (code.split('self.__WB_MANIFEST').length !== 2)
    throw new Error('the SW build must contain self.__WB_MANIFEST exactly once');
  const checksum = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const banner = `// inpage-llm service worker ${JSON.stringify({ version, checksum })}\n`;
  await writeFile(file, banner + code.replace(PLACEHOLDER, checksum));
  await writeFile('dist/init/stamp.json', `${JSON.stringify({ version, checksum })}\n`);
  return { version, checksum };
}
