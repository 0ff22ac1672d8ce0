/**
 * The Firefox fixture: serves the built `dist/` with `vite preview`, as the Chromium harness
 * does, and drives Debian's Firefox ESR (`scripts/ensure-browsers.sh`) over WebDriver BiDi with
 * `puppeteer-core`, which downloads no browser. Each `openPage` is a fresh browser context
 * (its own Service Worker registration, caches and OPFS). `prefs` sets Firefox preferences
 * for the whole browser (the long-answer spec shortens the Service Worker's idle time);
 * `folder` serves that folder as a plain static host instead (static-server.ts).
 */
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { preview } from 'vite';
import { serveFolder } from './static-server';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export interface FirefoxHarness {
  origin: string;
  browser: Browser;
  /** A fresh context and page on `path`, with `window.inpage.ready` awaited unless `waitReady` is false. */
  openPage(path?: string, options?: { waitReady?: boolean }): Promise<{ context: BrowserContext; page: Page }>;
  /**
   * Stops the server, open connections too: the network is gone for the origin. (Firefox's
   * emulated offline mode fails the fetches a Service Worker would answer as well, so it is not used.)
   */
  stopServing(): Promise<void>;
  /** The uncaught page errors so far, which then no longer fail `close` (a spec that expects one checks it). */
  takePageErrors(): string[];
  close(): Promise<void>;
}

export async function startFirefoxHarness(
  prefs: Record<string, unknown> = {},
  folder?: { root: string; isolationHeaders: boolean },
  /** How long one call into the browser (an `evaluate`) may take: puppeteer's 180 s unless given. */
  protocolTimeout?: number,
): Promise<FirefoxHarness> {
  const { origin, closeServer } = folder ? await plainHost(folder) : await vitePreview();
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    extraPrefsFirefox: prefs,
    ...(protocolTimeout === undefined ? {} : { protocolTimeout }),
  });
  const pageErrors: string[] = [];
  let serving = true;
  const stopServing = async () => {
    if (!serving) return;
    serving = false;
    await closeServer();
  };
  return {
    origin,
    browser,
    async openPage(path = '/?model=inpage-test', { waitReady = true } = {}) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      // tsx (esbuild keepNames) wraps functions passed to page.evaluate in __name(...).
      await page.evaluateOnNewDocument('globalThis.__name = (fn) => fn;');
      page.on('pageerror', (error) =>
        pageErrors.push(error instanceof Error ? (error.stack ?? error.message) : String(error)),
      );
      await page.goto(origin + path);
      if (waitReady) await page.evaluate(() => window.inpage.ready.then(() => undefined));
      return { context, page };
    },
    stopServing,
    takePageErrors: () => pageErrors.splice(0),
    async close() {
      await browser.close();
      await stopServing();
      if (pageErrors.length > 0) throw new Error(`uncaught errors in the page:\n${pageErrors.join('\n')}`);
    },
  };
}

async function plainHost(folder: { root: string; isolationHeaders: boolean }) {
  const { origin, close } = await serveFolder(folder.root, { isolationHeaders: folder.isolationHeaders });
  return { origin, closeServer: close };
}

async function vitePreview() {
  const server = await preview({
    configFile: 'vite.config.ts',
    logLevel: 'silent',
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('preview server has no port');
  const closeServer = async () => {
    if ('closeAllConnections' in server.httpServer) server.httpServer.closeAllConnections();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  };
  return { origin: `http://127.0.0.1:${address.port}`, closeServer };
}
