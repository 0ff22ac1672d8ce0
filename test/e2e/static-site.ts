/**
 * A plain static site for the end-to-end specs: a folder served by node:http with COOP/COEP
 * (without them when `isolationHeaders` is false, as GitHub Pages serves; no bundler, no vite),
 * and Debian's Chromium. Records console messages and page errors.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright';
import { CHROMIUM_ARGS, openaiScript } from './harness';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.css': 'text/css',
};

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
  const isolation = {
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
  };
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    const headers = { ...(isolationHeaders ? isolation : {}), 'Cache-Control': 'no-cache' };
    if (!file.startsWith(normalize(root))) {
      response.writeHead(403, headers).end();
      return;
    }
    readFile(file).then(
      (body) =>
        response
          .writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' })
          .end(body),
      () => response.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('not found'),
    );
  });
  const port = await listen(server);
  const origin = `http://127.0.0.1:${port}`;
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
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (pageErrors.length > 0) throw new Error(`uncaught errors in the page:\n${pageErrors.join('\n')}`);
    },
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('no port'));
      else resolve(address.port);
    });
  });
}
