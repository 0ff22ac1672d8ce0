/**
 * One bench model, measured in rounds that interleave the in-page endpoint, in-page direct and
 * native llama.cpp at 1 and 2 threads (so all see the same machine load): prefill tok/s on a
 * long prompt with `cache_prompt: false`, decode tok/s, a request queued behind a running one,
 * and peak memory. Prompts and outputs stay ASCII (see ./prompts).
 */
import type { Harness } from '../test/e2e/harness';
import type { BenchModel } from './bench-models';
import { nativeSample, type NativeSample } from './native';
import { queuedInPage, runInPage, type QueuedSample, type Route, type RunSample } from './page-runs';
import { peakRssMb, rendererPids } from './process-memory';
import { ASCII_ONLY, benchPrompt, DECODE_PROMPT } from './prompts';

/** Settings of a model bench. */
export interface ModelBenchOptions {
  rounds: number;
  promptTokens: number;
  decodeTokens: number;
  nativeThreads: readonly number[];
}

/** Raw samples of one model. */
export interface ModelResult {
  model: BenchModel;
  prefill: Record<Route, RunSample[]>;
  decode: Record<Route, RunSample[]>;
  native: Map<number, NativeSample[]>;
  queued: QueuedSample[];
  pagePeakMb: number;
  loadMs: number;
}

/** Measures `model` in a fresh page (its own renderer process, so its peak memory is its own). */
export async function benchModel(
  harness: Harness,
  model: BenchModel,
  options: ModelBenchOptions,
): Promise<ModelResult> {
  const before = rendererPids();
  const loadStart = performance.now();
  const { context, page } = await harness.openPage(`/?model=${model.url}`);
  const loadMs = performance.now() - loadStart;
  const pids = [...rendererPids()].filter((pid) => !before.has(pid));
  const common = { model: model.id, temperature: 0, ignore_eos: true, logit_bias: ASCII_ONLY, cache_prompt: false };
  const prefillBody = { ...common, prompt: benchPrompt(options.promptTokens), max_tokens: 1 };
  const decodeBody = { ...common, prompt: DECODE_PROMPT, max_tokens: options.decodeTokens };
  const result: ModelResult = {
    model,
    prefill: { endpoint: [], direct: [] },
    decode: { endpoint: [], direct: [] },
    native: new Map(options.nativeThreads.map((t) => [t, []])),
    queued: [],
    pagePeakMb: NaN,
    loadMs,
  };
  try {
    // Warm-up: one of each, short, not recorded.
    await runInPage(page, 'endpoint', { ...prefillBody, prompt: benchPrompt(64) });
    await runInPage(page, 'direct', { ...decodeBody, max_tokens: 8 });
    for (let round = 0; round < options.rounds; round++) {
      const routes: Route[] = round % 2 === 0 ? ['endpoint', 'direct'] : ['direct', 'endpoint'];
      for (const route of routes) result.prefill[route].push(await runInPage(page, route, prefillBody));
      for (const route of routes) result.decode[route].push(await runInPage(page, route, decodeBody));
      result.queued.push(
        await queuedInPage(page, { ...decodeBody, max_tokens: 16 }, { ...common, prompt: 'Hi', max_tokens: 1 }),
      );
      for (const threads of options.nativeThreads) {
        result.native
          .get(threads)
          ?.push(await nativeSample(model.file, threads, options.promptTokens, options.decodeTokens));
      }
      process.stdout.write('.');
    }
    result.pagePeakMb = peakRssMb(pids);
  } finally {
    await context.close();
  }
  return result;
}
