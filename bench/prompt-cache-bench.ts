/**
 * The prompt cache across page loads (worker/engine/prompt-cache/): time to first token of a
 * request whose prompt starts with a long prefix (BENCH_CACHE_PREFIX, 2,000 tokens), as the
 * first request of a fresh page (cold: the whole prompt is read) and as the first request after
 * a reload of that page (restored: the prefix's saved state is read from OPFS, the rest of the
 * prompt is prefilled). Each round is a fresh browser context, so its OPFS starts empty; the
 * restored request's question differs from the cold one's, as a chat's next turn would. The
 * reload reads the state while the model loads and restores it before the page is ready: the
 * page's load to ready is given for the first load, the reload, and a reload with the cache
 * off (`&prompt_cache=0`), so what the restore adds to a load shows.
 */
import type { Page } from 'playwright';
import type { Harness } from '../test/e2e/harness';
import type { BenchModel } from './bench-models';
import { runInPage } from './page-runs';
import { ASCII_ONLY, benchPrompt } from './prompts';
import { fmt, median } from './stats';

export interface PromptCacheResult {
  model: string;
  promptTokens: number;
  coldMs: number[];
  restoredMs: number[];
  /** The page's load to \`inpage.ready\` (ms): the first one, and the reload (which restores the state). */
  coldLoadMs: number[];
  restoredLoadMs: number[];
  /** The same reload with the prompt cache off (`&prompt_cache=0`): what the restore adds to the load. */
  plainLoadMs: number[];
  /** Bytes of the saved state. */
  stateBytes: number;
}

/** Waits for the prompt cache's index to list a state of at least `tokens` tokens; its bytes. */
async function savedState(page: Page, tokens: number): Promise<number> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const bytes = await page.evaluate(async (tokens) => {
      try {
        const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('inpage-prompt-cache');
        const file = await (await dir.getFileHandle('index.json')).getFile();
        const entries = JSON.parse(await file.text()) as Array<{ tokens: number[]; bytes: number }>;
        return entries.find((entry) => entry.tokens.length >= tokens)?.bytes ?? 0;
      } catch {
        return 0;
      }
    }, tokens);
    if (bytes > 0) return bytes;
    if (Date.now() > deadline) throw new Error(`no saved state of ${tokens} tokens after 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function benchPromptCache(
  harness: Harness,
  model: BenchModel,
  { rounds, prefixTokens }: { rounds: number; prefixTokens: number },
): Promise<PromptCacheResult> {
  const prefix = benchPrompt(prefixTokens);
  const ask = (page: Page, question: string) =>
    runInPage(page, 'endpoint', {
      model: model.id,
      prompt: `${prefix}\nQ: ${question}\nA:`,
      max_tokens: 1,
      temperature: 0,
      logit_bias: ASCII_ONLY,
    });
  const result: PromptCacheResult = {
    model: model.id,
    promptTokens: 0,
    coldMs: [],
    restoredMs: [],
    coldLoadMs: [],
    restoredLoadMs: [],
    plainLoadMs: [],
    stateBytes: 0,
  };
  for (let round = 0; round < rounds; round++) {
    const opened = performance.now();
    const { context, page } = await harness.openPage(`/?model=${model.url}`);
    result.coldLoadMs.push(performance.now() - opened);
    try {
      const cold = await ask(page, 'what came first?');
      result.coldMs.push(cold.ttftMs);
      result.stateBytes = await savedState(page, prefixTokens);
      const reloaded = performance.now();
      await page.reload();
      await page.evaluate(() => window.inpage.ready);
      result.restoredLoadMs.push(performance.now() - reloaded);
      const restored = await ask(page, 'and what came next?');
      result.restoredMs.push(restored.ttftMs);
      result.promptTokens = restored.promptTokens;
      const plain = performance.now();
      await page.goto(`${harness.origin}/?model=${model.url}&prompt_cache=0`);
      await page.evaluate(() => window.inpage.ready);
      result.plainLoadMs.push(performance.now() - plain);
    } finally {
      await context.close();
    }
  }
  return result;
}

export function promptCacheTable(results: readonly PromptCacheResult[]): string {
  const rows = results.map((r) => {
    const cold = median(r.coldMs);
    const restored = median(r.restoredMs);
    const loads = `${fmt(median(r.coldLoadMs))} / ${fmt(median(r.restoredLoadMs))} / ${fmt(median(r.plainLoadMs))}`;
    return `| ${r.model} | ${r.promptTokens} | ${fmt(r.stateBytes / 2 ** 20, 1)} | ${loads} | ${fmt(cold)} | ${fmt(restored)} | ${fmt(restored / cold, 3)}x |`;
  });
  return [
    '**Prompt cache across a reload: time to first token (ms), first request of a page**',
    '',
    '| model | prompt tokens | saved state MiB | page load to ready (ms): first / reload / reload, cache off | TTFT cold | TTFT restored | restored / cold |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
