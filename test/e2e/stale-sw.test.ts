import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { postFromPage } from './page-helpers';
import { readmeSnippet } from './readme-snippet';
import { startStaticSite, type StaticSite } from './static-site';
import { makeTempApp, type TempApp } from './temp-app';

// An app whose public/sw.js is not the one this runtime was built with (as after upgrading the
// package without re-running init): the runtime warns and asks the registration to update.
// And one whose SW predates the readiness path (`/v1/.inpage/ready`, which `ready` asks): `ready`
// rejects, saying to re-run init, after waiting for a newer SW to take control.
let app: TempApp;
let site: StaticSite;
let expected: { version: string; checksum: string };

const STALE = 'feedfacefeedface';

// Counts registration.update() calls before any page script runs.
const SPY = `(() => {
  const update = ServiceWorkerRegistration.prototype.update;
  window.__updates = 0;
  ServiceWorkerRegistration.prototype.update = function () { window.__updates += 1; return update.call(this); };
})();`;

before(async () => {
  expected = JSON.parse(await readFile('dist/init/stamp.json', 'utf8'));
  app = await makeTempApp();
  await app.sh(readmeSnippet('init-dropin'));
  await writeFile(join(app.dir, 'public', 'index.html'), readmeSnippet('script-tag'));
  const sw = join(app.dir, 'public', 'sw.js');
  const code = await readFile(sw, 'utf8');
  assert.ok(code.includes(expected.checksum), 'the copied SW carries the build checksum');
  await writeFile(sw, code.replaceAll(expected.checksum, STALE));
  assert.ok(code.includes('/.inpage/ready'), 'the copied SW answers the readiness path');
  await writeFile(join(app.dir, 'public', 'sw-old.js'), code.replaceAll('/.inpage/ready', '/.inpage/not-yet'));
  await writeFile(
    join(app.dir, 'public', 'old.html'),
    '<!doctype html>\n<script src="/inpage-llm.js" data-model="inpage-test" data-sw="/sw-old.js"></script>\n',
  );
  site = await startStaticSite(join(app.dir, 'public'));
});

after(async () => {
  await site.close();
  await app.remove();
});

/** The endpoint still answers exactly through the SW this page has: `abc` goes on with `def`. */
async function answersDef(page: Page): Promise<void> {
  const answer = await postFromPage(page, '/v1/completions', {
    model: 'inpage-test',
    prompt: 'abc',
    max_tokens: 3,
    temperature: 0,
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal((answer.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'def');
}

test('a stale SW (checksum mismatch) still answers, and the page warns and calls registration.update()', async () => {
  const { page, context } = await site.openPage('/', { initScript: SPY });
  await page.waitForFunction(() => Reflect.get(window, '__updates') > 0, undefined, { timeout: 10_000 });
  const warnings = site.consoleMessages.filter((message) => message.startsWith('warning: [inpage-llm]'));
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(
    warnings[0] ?? '',
    new RegExp(
      `version ${expected.version} \\(checksum ${STALE}\\).*expects version ${expected.version} \\(checksum ${expected.checksum}\\)`,
    ),
  );
  assert.match(warnings[0] ?? '', /npx inpage-llm init/);
  await answersDef(page);
  await context.close();
});

test('a SW from before the readiness path: ready rejects with a 503 naming init, and /v1 still answers', async () => {
  const { page, context } = await site.openPage('/old.html', { waitReady: false });
  await page.waitForFunction(() => 'inpage' in window);
  const started = Date.now();
  const error = await page.evaluate(() =>
    window.inpage.ready.then(
      () => null,
      (e: { status?: number; code?: string; message?: string }) => ({
        status: e.status,
        code: e.code,
        message: e.message,
      }),
    ),
  );
  assert.equal(error?.status, 503);
  assert.equal(error?.code, 'service_worker_outdated');
  assert.match(error?.message ?? '', /sw-old\.js predates this page runtime .*npx inpage-llm init/);
  // It waited for a newer SW to take control (the default timeoutMs, 15 s), as during an upgrade.
  assert.ok(Date.now() - started > 10_000, `rejected after ${Date.now() - started} ms`);
  await answersDef(page);
  await context.close();
});
