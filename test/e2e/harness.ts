/**
 * End-to-end fixture: serves the built `dist/` with `vite preview` (COOP/COEP), launches
 * Debian's Chromium through playwright, opens the demo on a model and waits for
 * `window.inpage.ready`. The official `openai` SDK is bundled for the page with esbuild
 * (`sdk-scripts.ts`, which also bundles the other client SDKs for the specs that load them).
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { preview, type PreviewServer } from 'vite';
import { sdkScript } from './sdk-scripts';

/**
 * `INPAGE_E2E_WEBGPU=1` (`npm run test:e2e:webgpu`): every Chromium gets SwiftShader's WebGPU
 * (`--enable-unsafe-webgpu`), to check that nothing changes where WebGPU is present (issue 36).
 */
export const WEBGPU_EVERYWHERE = process.env.INPAGE_E2E_WEBGPU === '1';

export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  ...(WEBGPU_EVERYWHERE ? ['--enable-unsafe-webgpu'] : []),
];

export interface Harness {
  origin: string;
  browser: Browser;
  /**
   * A fresh context + page with the runtime ready and `window.OpenAI` available; `messages`: the
   * text of every console message of the context's pages and workers, from its start.
   */
  openPage(
    path?: string,
    options?: { waitReady?: boolean },
  ): Promise<{ context: BrowserContext; page: Page; messages: string[] }>;
  close(): Promise<void>;
}

/** The `openai` SDK and `eventsource-parser` as one browser script (`window.OpenAI`, `window.createParser`). */
export function openaiScript(): Promise<string> {
  return sdkScript('openai');
}

/**
 * `args`: extra Chromium flags (e.g. `--enable-unsafe-webgpu` for the WebGPU specs);
 * `ignoreDefaultArgs`: playwright's own flags to leave out (`--disable-back-forward-cache`
 * for the back/forward cache spec).
 */
/**
 * `outDir`: serve that folder instead of the built `dist/` (test/webgpu/sw-differential.test.ts
 * serves a copy whose WebGPU engine is the SwiftShader probe).
 */
export async function startHarness(
  options: { args?: string[]; ignoreDefaultArgs?: string[]; outDir?: string } = {},
): Promise<Harness> {
  const server: PreviewServer = await preview({
    configFile: 'vite.config.ts',
    logLevel: 'silent',
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
    ...(options.outDir ? { build: { outDir: options.outDir } } : {}),
  });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('preview server has no port');
  const origin = `http://127.0.0.1:${address.port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
    ...(options.ignoreDefaultArgs ? { ignoreDefaultArgs: options.ignoreDefaultArgs } : {}),
  });
  const script = await openaiScript();
  const pageErrors: string[] = [];
  return {
    origin,
    browser,
    async openPage(path = '/?model=inpage-test', { waitReady = true } = {}) {
      const context = await browser.newContext();
      // tsx (esbuild keepNames) wraps functions passed to page.evaluate in __name(...).
      await context.addInitScript('globalThis.__name = (fn) => fn;');
      const messages: string[] = [];
      context.on('console', (message) => messages.push(message.text()));
      const page = await context.newPage();
      // Any uncaught error in the page or its workers fails the spec when the harness closes.
      page.on('pageerror', (error) => pageErrors.push(error.stack ?? error.message));
      await page.goto(origin + path);
      if (waitReady) await page.evaluate(() => window.inpage.ready);
      await page.addScriptTag({ content: script });
      return { context, page, messages };
    },
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
      if (pageErrors.length > 0) throw new Error(`uncaught errors in the page:\n${pageErrors.join('\n')}`);
    },
  };
}
