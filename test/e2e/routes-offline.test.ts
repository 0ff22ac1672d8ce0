/**
 * Offline with a route: the README's routes example as the `main.ts` of an app set up as the
 * README says (`init`, its COOP/COEP `vite.config.ts`, `vite build`, then its PWA snippet
 * `inpage-llm precache dist`), in front of Debian's real `llama-server`. Online, `server-first`
 * runs on the server; with the network off, a reload loads the app from the precache and
 * `server-first` answers from the device, the same text, after the connection error and no other
 * wait (its time, from the page's resource timing, is the device's plus a little).
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright';
import { serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { readmeSnippet } from './readme-snippet';
import { startStaticSite, type StaticSite } from './static-site';
import { makeTempApp, type TempApp } from './temp-app';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

/**
 * What the fallback may add to the device's own time: the connection error (~15 ms offline here)
 * and the bookkeeping, with room for this shared machine, where one device request swings from
 * 30 ms to a second. A wait on a timeout (a route's `timeoutMs`, the browser's own) is far longer.
 */
const FALLBACK_SLACK_MS = 1500;

describe('a PWA with a route keeps answering with the network off', { skip: skip ?? false }, () => {
  let server: LlamaServer;
  let app: TempApp;
  let site: StaticSite;

  before(async () => {
    server = await startLlamaServer();
    app = await makeTempApp(['vite']);
    await app.sh(readmeSnippet('init'));
    await writeFile(
      join(app.dir, 'index.html'),
      '<!doctype html><title>app</title><script type="module" src="/main.ts"></script>\n',
    );
    // The README's example, pointed at this test's server.
    const main = readmeSnippet('routes-library');
    assert.ok(main.includes('http://127.0.0.1:8080/v1'));
    await writeFile(join(app.dir, 'main.ts'), main.replace('http://127.0.0.1:8080/v1', server.baseURL));
    await writeFile(join(app.dir, 'vite.config.ts'), readmeSnippet('vite-isolation'));
    await app.sh('node node_modules/vite/bin/vite.js build 2>&1');
    await app.sh(readmeSnippet('pwa-precache'));
    site = await startStaticSite(join(app.dir, 'dist'));
  });
  after(async () => {
    await site?.close();
    await Promise.all([app?.remove(), server?.stop()]);
  });

  /** The example's lines (`<model> <provider> <text>`) logged since `from`, once both came. */
  async function answers(from: number): Promise<string[]> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const lines = site.consoleMessages
        .slice(from)
        .filter((message) => /^log: (inpage-test|server-first) /.test(message))
        .map((message) => message.slice('log: '.length));
      if (lines.length >= 2) return lines;
      if (Date.now() > deadline) throw new Error(`no answers; console:\n${site.consoleMessages.join('\n')}`);
      await new Promise((done) => setTimeout(done, 100));
    }
  }

  /** How long each of the page's `/v1/completions` took, in order (resource timing). */
  const durations = (page: Page) =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname === '/v1/completions')
        .map((entry) => entry.duration),
    );

  test('online the server answers server-first; offline, after a reload, the device does, with no wait beyond the connection error', async () => {
    const { page, context } = await site.openPage('/', { waitReady: false });
    assert.deepEqual(await answers(0), ['inpage-test device defgh', 'server-first srv defgh']);
    await context.setOffline(true);
    const offline = site.consoleMessages.length;
    await page.reload();
    assert.deepEqual(await answers(offline), ['inpage-test device defgh', 'server-first device defgh']);
    assert.equal(await page.evaluate(() => navigator.onLine), false);
    const [device, fallback] = await durations(page);
    assert.ok(device !== undefined && fallback !== undefined);
    const refused = await page.evaluate(async (url) => {
      const start = performance.now();
      const reached = await fetch(url).then(
        () => true,
        () => false,
      );
      return { reached, ms: performance.now() - start };
    }, `${server.baseURL}/models`);
    assert.equal(refused.reached, false, 'the server cannot be reached with the network off');
    console.log(
      `# offline: the device route ${device.toFixed(1)} ms, server-first (the device after the connection error) ` +
        `${fallback.toFixed(1)} ms; the connection error alone ${refused.ms.toFixed(1)} ms`,
    );
    assert.ok(
      fallback < device + FALLBACK_SLACK_MS,
      `server-first took ${fallback} ms offline, the device alone ${device} ms`,
    );
    await context.close();
  });
});
