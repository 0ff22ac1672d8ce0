/**
 * The engine on 1 and 2 threads, one model at a time, in rounds that alternate the order of the
 * thread counts, one page open at a time:
 * the in-page endpoint on a page started with `&threads=T/T` (the preview server sends COOP/COEP,
 * so T > 1 runs the pthreads build), wllama 3.13 on T threads in a page of its own, and native
 * llama.cpp (node-llama-cpp) on T threads: prefill of a `context`-token prompt and decode after
 * one, for each context length asked, with each page's peak memory.
 */
import type { BrowserContext, Page } from 'playwright';
import type { Harness } from '../test/e2e/harness';
import type { BenchModel } from './bench-models';
import { nativeSample } from './native';
import { runInPage, type RunSample } from './page-runs';
import { peakRssMb, rendererPids } from './process-memory';
import { ASCII_ONLY, benchPrompt, WARM_TOKENS } from './prompts';
import { fmt, median } from './stats';
import { openWllamaPage, runInWllama } from './wllama-runs';

export type Engine = 'page' | 'wllama' | 'native';

/** tok/s samples per engine, thread count and context; peak MB per engine and thread count. */
export interface ThreadsResult {
  model: BenchModel;
  prefill: Map<string, number[]>;
  decode: Map<string, number[]>;
  peakMb: Map<string, number>;
}

const key = (engine: Engine, threads: number, context?: number) =>
  context === undefined ? `${engine} ${threads}t` : `${engine} ${threads}t @${context}`;

interface Opened {
  context: BrowserContext;
  page: Page;
  /** The renderer processes it started (its peak memory is theirs). */
  pids: number[];
}

async function opened(open: () => Promise<{ context: BrowserContext; page: Page }>): Promise<Opened> {
  const before = rendererPids();
  const { context, page } = await open();
  return { context, page, pids: [...rendererPids()].filter((pid) => !before.has(pid)) };
}

const prefillRate = (s: RunSample) => s.promptTokens / (s.totalMs / 1000);
const decodeRate = (s: RunSample) => (s.tokens - 1) / ((s.totalMs - s.ttftMs) / 1000);

export async function benchThreads(
  harness: Harness,
  model: BenchModel,
  options: {
    rounds: number;
    threads: readonly number[];
    contexts: readonly number[];
    decodeTokens: number;
    wllamaPage: string;
  },
): Promise<ThreadsResult> {
  const result: ThreadsResult = { model, prefill: new Map(), decode: new Map(), peakMb: new Map() };
  const push = (map: Map<string, number[]>, name: string, value: number) =>
    map.set(name, [...(map.get(name) ?? []), value]);
  const peak = (name: string, mb: number) => result.peakMb.set(name, Math.max(result.peakMb.get(name) ?? 0, mb));
  const common = { model: model.id, temperature: 0, ignore_eos: true, logit_bias: ASCII_ONLY, cache_prompt: false };
  // The warm-up reads at least WARM_TOKENS (the wasm's tier-up, prompts.ts).
  const longest = Math.max(WARM_TOKENS, ...options.contexts);
  for (let round = 0; round < options.rounds; round++) {
    const threads = round % 2 === 0 ? options.threads : [...options.threads].reverse();
    for (const t of threads) {
      // One page at a time: an idle page's threads (wllama's spin) would slow the one measured.
      for (const engine of ['page', 'wllama'] as const) {
        const { context, page, pids } = await opened(() =>
          engine === 'page'
            ? harness.openPage(`/?model=${model.url}&threads=${t}/${t}`)
            : openWllamaPage(harness, options.wllamaPage, model, t),
        );
        try {
          const run = (body: typeof common & { prompt: string; max_tokens: number }) =>
            engine === 'wllama' ? runInWllama(page, body) : runInPage(page, 'endpoint', body);
          // Warm-up on the longest prompt (the heap grows once, the wasm tiers up), not recorded.
          await run({ ...common, prompt: benchPrompt(longest), max_tokens: 2 });
          for (const context of options.contexts) {
            push(
              result.prefill,
              key(engine, t, context),
              prefillRate(await run({ ...common, prompt: benchPrompt(context), max_tokens: 1 })),
            );
            const decode = { ...common, prompt: benchPrompt(context), max_tokens: options.decodeTokens };
            push(result.decode, key(engine, t, context), decodeRate(await run(decode)));
          }
          peak(key(engine, t), peakRssMb(pids));
        } finally {
          await context.close();
        }
      }
      for (const context of options.contexts) {
        const native = await nativeSample(model.file, t, context, options.decodeTokens, context);
        push(result.prefill, key('native', t, context), native.promptTokens / (native.prefillMs / 1000));
        push(result.decode, key('native', t, context), native.decodeTps);
        peak(key('native', t), native.maxRssMb);
      }
    }
    process.stdout.write('.');
  }
  return result;
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** One table per measure: each engine at each thread count, and the ratios the threads issue asks for. */
export function threadsTables(
  results: ThreadsResult[],
  threads: readonly number[],
  contexts: readonly number[],
): string {
  const [one = 1, two = 2] = threads;
  const out: string[] = [];
  for (const [measure, pick] of [
    ['Prefill', (r: ThreadsResult) => r.prefill],
    ['Decode', (r: ThreadsResult) => r.decode],
  ] as const) {
    const rows: string[][] = [];
    for (const r of results) {
      for (const context of contexts) {
        const m = (engine: Engine, t: number) => median(pick(r).get(key(engine, t, context)) ?? []);
        const cells = threads.flatMap((t) => [m('page', t), m('wllama', t), m('native', t)]);
        rows.push([
          `${r.model.id} @${context}`,
          ...cells.map((v) => fmt(v, measure === 'Decode' ? 1 : 0)),
          fmt(m('page', two) / m('page', one), 2),
          fmt(m('native', two) / m('native', one), 2),
          fmt(m('page', two) / m('page', one) / (m('native', two) / m('native', one)), 2),
          fmt(m('page', two) / m('wllama', two), 2),
        ]);
      }
    }
    out.push(
      `${measure} on 1 and 2 threads (tok/s; page = this engine's endpoint with &threads=T/T (prompts and decoding on T), wllama 3.13 and native llama.cpp on T threads; @N: the prompt's tokens${measure === 'Decode' ? ', decode after it' : ''})`,
      table(
        [
          'model',
          ...threads.flatMap((t) => [`page ${t}t`, `wllama ${t}t`, `native ${t}t`]),
          `page ${two}t / ${one}t`,
          `native ${two}t / ${one}t`,
          'page scaling / native scaling',
          `page / wllama at ${two}t`,
        ],
        rows,
      ),
      '',
    );
  }
  out.push(
    'Peak RSS on 1 and 2 threads (MB)',
    table(
      ['model', ...threads.flatMap((t) => [`page ${t}t`, `wllama ${t}t`, `native ${t}t`])],
      results.map((r) => [
        r.model.id,
        ...threads.flatMap((t) =>
          (['page', 'wllama', 'native'] as const).map((e) => fmt(r.peakMb.get(key(e, t)) ?? NaN)),
        ),
      ]),
    ),
  );
  return out.join('\n');
}
