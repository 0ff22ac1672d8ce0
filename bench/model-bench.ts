/**
 * One bench model, measured in rounds that interleave the in-page endpoint, in-page direct, the
 * previous engine (wllama) in a page of its own, and native llama.cpp at 1 and 2 threads (so all
 * see the same machine load): prefill tok/s on a long prompt with `cache_prompt: false`, decode
 * tok/s, a request queued behind a running one, and peak memory. Prompts and outputs stay ASCII
 * (see ./prompts).
 */
import type { Harness } from '../test/e2e/harness';
import type { BenchModel } from './bench-models';
import { nativeSample, type NativeSample } from './native';
import { queuedInPage, runInPage, type QueuedSample, type Route, type RunSample } from './page-runs';
import { peakRssMb, rendererPids } from './process-memory';
import { ASCII_ONLY, benchPrompt, decodePrompt, WARM_TOKENS } from './prompts';
import { openWllamaPage, runInWllama } from './wllama-runs';

/** Settings of a model bench. */
export interface ModelBenchOptions {
  rounds: number;
  promptTokens: number;
  decodeTokens: number;
  /** Tokens already in the context when decode starts (0: a 4-token prompt). */
  decodeContext: number;
  nativeThreads: readonly number[];
  /** The wllama page's path on the preview server (./wllama-page-build). */
  wllamaPage: string;
}

/** What the rounds measure in Chromium: the engine's two routes in its page, and wllama in its own. */
export type Measured = Route | 'wllama';

/** Raw samples of one model. */
export interface ModelResult {
  model: BenchModel;
  prefill: Record<Measured, RunSample[]>;
  decode: Record<Measured, RunSample[]>;
  native: Map<number, NativeSample[]>;
  queued: QueuedSample[];
  pagePeakMb: number;
  loadMs: number;
  wllamaPeakMb: number;
  wllamaLoadMs: number;
}

/** Measures `model` in fresh pages (each its own renderer process, so its peak memory is its own). */
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
  const beforeWllama = rendererPids();
  const wllama = await openWllamaPage(harness, options.wllamaPage, model).catch(async (error: unknown) => {
    await context.close();
    throw error;
  });
  const wllamaPids = [...rendererPids()].filter((pid) => !beforeWllama.has(pid));
  const common = { model: model.id, temperature: 0, ignore_eos: true, logit_bias: ASCII_ONLY, cache_prompt: false };
  const prefillBody = { ...common, prompt: benchPrompt(options.promptTokens), max_tokens: 1 };
  const decodeBody = { ...common, prompt: decodePrompt(options.decodeContext), max_tokens: options.decodeTokens };
  const result: ModelResult = {
    model,
    prefill: { endpoint: [], direct: [], wllama: [] },
    decode: { endpoint: [], direct: [], wllama: [] },
    native: new Map(options.nativeThreads.map((t) => [t, []])),
    queued: [],
    pagePeakMb: NaN,
    loadMs,
    wllamaPeakMb: NaN,
    wllamaLoadMs: wllama.loadMs,
  };
  const run = (route: Measured, body: typeof prefillBody): Promise<RunSample> =>
    route === 'wllama' ? runInWllama(wllama.page, body) : runInPage(page, route, body);
  try {
    // Warm-up, not recorded: this engine's prefills read WARM_TOKENS in all (wllama's one prefill
    // runs longer than that takes here), and a short decode each.
    for (let read = 0; read < WARM_TOKENS; read += options.promptTokens) await runInPage(page, 'endpoint', prefillBody);
    await runInWllama(wllama.page, prefillBody);
    await runInPage(page, 'direct', { ...decodeBody, max_tokens: 8 });
    await runInWllama(wllama.page, { ...decodeBody, max_tokens: 8 });
    for (let round = 0; round < options.rounds; round++) {
      const order: Measured[] = ['endpoint', 'direct', 'wllama'];
      const routes = round % 2 === 0 ? order : order.reverse();
      for (const route of routes) result.prefill[route].push(await run(route, prefillBody));
      for (const route of routes) result.decode[route].push(await run(route, decodeBody));
      result.queued.push(
        await queuedInPage(page, { ...decodeBody, max_tokens: 16 }, { ...common, prompt: 'Hi', max_tokens: 1 }),
      );
      for (const threads of options.nativeThreads) {
        result.native
          .get(threads)
          ?.push(
            await nativeSample(model.file, threads, options.promptTokens, options.decodeTokens, options.decodeContext),
          );
      }
      process.stdout.write('.');
    }
    result.pagePeakMb = peakRssMb(pids);
    result.wllamaPeakMb = peakRssMb(wllamaPids);
  } finally {
    await Promise.all([context.close(), wllama.context.close()]);
  }
  return result;
}
