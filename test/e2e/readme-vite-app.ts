/**
 * The README's library way in as a user sets it up: an app outside this repo that installed the
 * packed tarball, ran `init`, and has the README's snippet as its `main.ts` and the README's
 * COOP/COEP snippet as its `vite.config.ts` (vite-app.test.ts in Chromium, firefox.test.ts).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readmeSnippet } from './readme-snippet';
import { makeTempApp, type TempApp } from './temp-app';

export async function makeReadmeViteApp(): Promise<TempApp> {
  const app = await makeTempApp(['openai', 'vite'], { tarball: true });
  await app.sh(readmeSnippet('init'));
  await writeFile(
    join(app.dir, 'index.html'),
    '<!doctype html><title>app</title><script type="module" src="/main.ts"></script>\n',
  );
  await writeFile(join(app.dir, 'main.ts'), readmeSnippet('library'));
  await writeFile(join(app.dir, 'vite.config.ts'), readmeSnippet('vite-isolation'));
  return app;
}
