/**
 * A plain static site for the end-to-end specs: a folder served by node:http with COOP/COEP
 * (without them when `isolationHeaders` is false, as GitHub Pages serves; no bundler, no vite),
 * and Debian's Chromium. Records console messages and page errors.
 */
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright';
import { CHROMIUM_ARGS, openaiScript } from './harness';
import { serveFolder } from './static-server';

export interface StaticSite {
  origin: string;
  browser: Browser;
  /** Every `console.*` message of every page, as `type: text`. */
  consoleMessages: string[];
  /** A fresh context + page at `path`; adds `window.OpenAI` once `window.inpage.ready` resolved. */
  /** `beforeGoto` runs on the fresh context before the page loads (routes, say). */
  openPage(
    path: string,
    options?: { waitReady?: boolean; initScript?: string; beforeGoto?: (context: BrowserContext) => Promise<void> },
  ): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/** Serves `root` at `http://127.0.0.1:<port>/` (`/` is `index.html`) and launches Chromium (with `args` added to its flags). */
export async function startStaticSite(
  root: string,
  { args = [], isolationHeaders = true }: { args?: string[]; isolationHeaders?: boolean } = {},
): Promise<StaticSite> {
  const { origin, close } = await serveFolder(root, { isolationHeaders });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...args],
  });
  const script = await openaiScript();
  const consoleMessages: string[] = [];
  const pageErrors: string[] = [];
  return {
    origin,
    browser,
    consoleMessages,
    async openPage(path, { waitReady = true, initScript, beforeGoto } = {}) {
      const context = await browser.newContext();
      // tsx (esbuild keepNames) wraps functions passed to page.evaluate in __name(...).
      await context.addInitScript('globalThis.__name = (fn) => fn;');
      if (initScript) await context.addInitScript(initScript);
      await beforeGoto?.(context);
      const page = await context.newPage();
      page.on('console', (message: ConsoleMessage) => consoleMessages.push(`${message.type()}: ${message.text()}`));
      page.on('pageerror', (error) => pageErrors.push(error.stack ?? error.message));
      await page.goto(origin + path);
      if (waitReady) {
        await page.waitForFunction(() => 'inpage' in window);
        await page.evaluate(() => window.inpage.ready);
      }
      await page.addScriptTag({ content: script });
      return { context, page };
    },
    async close() {
      await browser.close();
      await close();
      if (pageErrors.length > 0) throw new Error(`uncaught errors in the page:\n${pageErrors.join('\n')}`);
    },
  };
}
