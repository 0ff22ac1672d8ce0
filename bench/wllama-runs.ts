/**
 * The previous engine (wllama) as the bench's baseline: the model's GGUF loaded directly in a
 * page of its own (dist/bench-wllama/, ./wllama-page-build), in a dedicated worker on 1 thread,
 * and one streamed completion timed in the page the way `runInPage` times `inpage.stream()`.
 */
import type { BrowserContext, Page } from 'playwright';
import type { Harness } from '../test/e2e/harness';
import type { BenchModel } from './bench-models';
import type { RunSample } from './page-runs';
import type { WllamaBody } from './wllama-page/protocol';

/** The engine's context for a GGUF given by URL (and native's in ./native-run). */
const CONTEXT_LENGTH = 4096;

/** A fresh page with `model` loaded in wllama; `loadMs` from opening the page to the model loaded. */
export async function openWllamaPage(
  harness: Harness,
  path: string,
  model: BenchModel,
  threads = 1,
): Promise<{ context: BrowserContext; page: Page; loadMs: number }> {
  const start = performance.now();
  const { context, page } = await harness.openPage(path, { waitReady: false });
  try {
    await page.evaluate(({ url, n, threads }) => window.wllamaBench.load(url, n, threads), {
      url: model.url,
      n: CONTEXT_LENGTH,
      threads,
    });
  } catch (error) {
    await context.close();
    throw error;
  }
  return { context, page, loadMs: performance.now() - start };
}

/** One streamed completion in wllama: time to the first text and to the end, and the token counts. */
export function runInWllama(page: Page, body: WllamaBody): Promise<RunSample> {
  // Only llama-server's parameters (the endpoint's body also names the model).
  const { prompt, max_tokens, temperature, ignore_eos, logit_bias, cache_prompt } = body;
  return page.evaluate(
    async (body) => {
      const start = performance.now();
      let ttftMs = 0;
      let tokens = 0;
      let promptTokens = 0;
      for await (const event of window.wllamaBench.stream(body)) {
        if (!ttftMs) ttftMs = performance.now() - start;
        if (event.type === 'done') ({ completionTokens: tokens, promptTokens } = event);
      }
      return { ttftMs, totalMs: performance.now() - start, tokens, promptTokens };
    },
    { prompt, max_tokens, temperature, ignore_eos, logit_bias, cache_prompt },
  );
}
