/**
 * `npm run bench:threads`: how the engine's threads split between prompts and decoding, on models
 * up to real sizes. For each of BENCH_THREAD_MODELS (small-f32, small-q4_0, qwen05-q4_0,
 * qwen15-q4_0: 110 MB, 16 MB, 210 MB and 800 MB; random weights), this engine's endpoint on a page
 * with each of BENCH_THREAD_SPLITS (`1`, `2/1`, `2/2`, and `2`: what `threads: 2` means now),
 * and native llama.cpp (node-llama-cpp) on 1 and 2 threads: prefill of a BENCH_THREAD_CONTEXT
 * (256)-token prompt and BENCH_DECODE_TOKENS (32) decoded after it, BENCH_ROUNDS (2) rounds in
 * alternating order, one page open at a time. Prints a table per run of medians and the decode
 * ratios against one thread.
 */
import { startHarness } from '../test/e2e/harness';
import { ensureBenchModels, type BenchModel } from './bench-models';
import { nativeSample } from './native';
import { runInPage, type RunSample } from './page-runs';
import { ASCII_ONLY, benchPrompt, WARM_TOKENS } from './prompts';
import { fmt, median } from './stats';

const list = (name: string, fallback: string) =>
  (process.env[name] ?? fallback)
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
const models = await ensureBenchModels(
  list('BENCH_THREAD_MODELS', 'small-f32,small-q4_0,qwen05-q4_0,qwen15-q4_0').join(','),
);
const splits = list('BENCH_THREAD_SPLITS', '1,2/1,2/2,2');
const context = Number(process.env.BENCH_THREAD_CONTEXT ?? 256);
const decodeTokens = Number(process.env.BENCH_DECODE_TOKENS ?? 32);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);

const prefillRate = (s: RunSample) => s.promptTokens / (s.totalMs / 1000);
const decodeRate = (s: RunSample) => (s.tokens - 1) / ((s.totalMs - s.ttftMs) / 1000);
/** Past V8's tier-up (prompts.ts); a real-size model's shorter warm-up already runs for seconds. */
const warmTokens = (model: BenchModel) => (model.bytes < 200e6 ? WARM_TOKENS : 128);

const samples = new Map<string, { prefill: number[]; decode: number[] }>();
const push = (key: string, prefill: number, decode: number) => {
  const entry = samples.get(key) ?? { prefill: [], decode: [] };
  entry.prefill.push(prefill);
  entry.decode.push(decode);
  samples.set(key, entry);
};

const harness = await startHarness();
try {
  for (const model of models) {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? splits : [...splits].reverse();
      for (const split of order) {
        const { context: browser, page } = await harness.openPage(`/?model=${model.url}&threads=${split}`);
        try {
          const common = {
            model: model.id,
            temperature: 0,
            ignore_eos: true,
            logit_bias: ASCII_ONLY,
            cache_prompt: false,
          };
          await runInPage(page, 'endpoint', { ...common, prompt: benchPrompt(warmTokens(model)), max_tokens: 4 });
          const prompt = benchPrompt(context);
          const prefill = prefillRate(await runInPage(page, 'endpoint', { ...common, prompt, max_tokens: 1 }));
          const decode = decodeRate(await runInPage(page, 'endpoint', { ...common, prompt, max_tokens: decodeTokens }));
          push(`${model.id} page ${split}`, prefill, decode);
        } finally {
          await browser.close();
        }
      }
      for (const threads of round % 2 === 0 ? [1, 2] : [2, 1]) {
        const native = await nativeSample(model.file, threads, context, decodeTokens, context);
        push(`${model.id} native ${threads}`, native.promptTokens / (native.prefillMs / 1000), native.decodeTps);
      }
      process.stdout.write('.');
    }
    console.log(`\n${table([model])}`);
  }
  console.log(`\n${table(models)}`);
} finally {
  await harness.close();
}

/** Medians in tok/s, prefill / decode, and decode against one thread (page and native). */
function table(of: BenchModel[]): string {
  const m = (key: string, what: 'prefill' | 'decode') => median(samples.get(key)?.[what] ?? []);
  const header = [
    'model',
    ...splits.map((split) => `page ${split}`),
    'native 1t',
    'native 2t',
    ...splits.filter((split) => split !== '1').map((split) => `decode ${split} / 1`),
    'native decode 2t / 1t',
    'page 1 / native 1t',
  ];
  const rows = of.map((model) => {
    const page = (split: string, what: 'prefill' | 'decode') => m(`${model.id} page ${split}`, what);
    const native = (threads: number, what: 'prefill' | 'decode') => m(`${model.id} native ${threads}`, what);
    const both = (prefill: number, decode: number) => `${fmt(prefill)} / ${fmt(decode, 1)}`;
    return [
      `${model.id} (${Math.round(model.bytes / 1e6)} MB)`,
      ...splits.map((split) => both(page(split, 'prefill'), page(split, 'decode'))),
      both(native(1, 'prefill'), native(1, 'decode')),
      both(native(2, 'prefill'), native(2, 'decode')),
      ...splits.filter((split) => split !== '1').map((split) => fmt(page(split, 'decode') / page('1', 'decode'), 2)),
      fmt(native(2, 'decode') / native(1, 'decode'), 2),
      fmt(page('1', 'decode') / native(1, 'decode'), 2),
    ];
  });
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    `Prefill / decode tok/s at @${context} (medians of ${rounds}; page = &threads=P/D, a bare N is what threads: N means)`,
    line(header),
    line(header.map(() => '---')),
    ...rows.map(line),
  ].join('\n');
}
