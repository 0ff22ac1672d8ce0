/**
 * `npm run bench`: speed in one run, printed as markdown tables of medians.
 * - Transport on the tiny `inpage-test`: endpoint (fetch -> Service Worker -> engine, SSE) vs
 *   direct (`inpage.stream()`), decode tok/s and TTFT.
 * - Generated random-weight llama models (./bench-models): prefill and decode tok/s in the page
 *   (endpoint and direct) vs the previous engine (wllama, the same file in a page of its own,
 *   ./wllama-runs) and native llama.cpp (node-llama-cpp) on the same file at 1 and 2 threads, a
 *   request queued behind a running one, peak memory.
 * Environment: BENCH_ROUNDS (3), BENCH_MODELS (see ./bench-models; `all` for all six), BENCH_PROMPT_TOKENS (512),
 * BENCH_DECODE_TOKENS (128; 64 for the large shape), BENCH_DECODE_CONTEXT (tokens of prompt before
 * decode, 0: a 4-token prompt), BENCH_TOKENS (transport, 1000),
 * BENCH_NATIVE_THREADS (1,2), BENCH_TTFT_PAIRS (transport, 30), BENCH_SKIP_TRANSPORT=1; `BENCH_MODELS=`
 * (empty) for the transport alone.
 * - Threads (./threads-bench): the endpoint with `&threads=1` and `&threads=2` beside wllama and
 *   native llama.cpp at the same counts, prefill and decode at each context of
 *   BENCH_THREAD_CONTEXTS (256,2048), on BENCH_THREAD_MODELS (small-f32,small-q8_0,small-q4_0,
 *   small-q4_K; empty to skip), BENCH_THREAD_ROUNDS (BENCH_ROUNDS) rounds.
 * - The prompt cache across a reload (./prompt-cache-bench): time to first token of a request
 *   sharing a BENCH_CACHE_PREFIX (2000) token prefix, cold and restored, on BENCH_CACHE_MODELS
 *   (small-q4_0,small-q4_K); BENCH_SKIP_PROMPT_CACHE=1 skips it.
 * - Speculative decoding, n-gram mode (./speculative-bench): decode tok/s of a repeating greedy
 *   generation of BENCH_SPEC_TOKENS (256) with drafts off and on, acceptance, same tokens, on
 *   BENCH_SPEC_MODELS (small-q4_0,small-q4_K); BENCH_SKIP_SPECULATIVE=1 skips it.
 */
import { startHarness } from '../test/e2e/harness';
import { ensureBenchModels } from './bench-models';
import { benchModel, type ModelResult } from './model-bench';
import { modelTables, transportTable } from './report';
import { benchTransport } from './transport-bench';
import { buildWllamaPage } from './wllama-page-build';
import { benchThreads, threadsTables, type ThreadsResult } from './threads-bench';
import { benchDownloads, downloadTable } from './download-bench';
import { benchPromptCache, promptCacheTable, type PromptCacheResult } from './prompt-cache-bench';
import { benchSpeculative, speculativeTable, type SpeculativeResult } from './speculative-bench';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const ROUNDS = env('BENCH_ROUNDS', 3);
const PROMPT_TOKENS = env('BENCH_PROMPT_TOKENS', 512);
const THREADS = (process.env.BENCH_NATIVE_THREADS ?? '1,2').split(',').map(Number);

const started = performance.now();
const models = await ensureBenchModels();
const wllamaPage = await buildWllamaPage();
const harness = await startHarness();
const out: string[] = [];
const failures: string[] = [];
try {
  if (process.env.BENCH_SKIP_TRANSPORT !== '1') {
    out.push(
      transportTable(await benchTransport(harness, ROUNDS, env('BENCH_TOKENS', 1000), env('BENCH_TTFT_PAIRS', 30))),
    );
    console.log(out.at(-1));
  }
  const results: ModelResult[] = [];
  for (const model of models) {
    process.stdout.write(`${model.id} `);
    const decodeTokens = env('BENCH_DECODE_TOKENS', model.shape === 'large' ? 64 : 128);
    try {
      results.push(
        await benchModel(harness, model, {
          rounds: ROUNDS,
          promptTokens: PROMPT_TOKENS,
          decodeTokens,
          decodeContext: env('BENCH_DECODE_CONTEXT', 0),
          nativeThreads: THREADS,
          wllamaPage,
        }),
      );
      console.log(` ${((performance.now() - started) / 1000).toFixed(0)} s\n${modelTables(results, THREADS)}`);
    } catch (error) {
      failures.push(`${model.id} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      console.log(failures.at(-1));
    }
  }
  if (results.length > 0) out.push(modelTables(results, THREADS));
  const threadModels = await ensureBenchModels(
    process.env.BENCH_THREAD_MODELS ?? 'small-f32,small-q8_0,small-q4_0,small-q4_K',
  );
  const contexts = (process.env.BENCH_THREAD_CONTEXTS ?? '256,2048').split(',').map(Number);
  const threaded: ThreadsResult[] = [];
  for (const model of threadModels) {
    process.stdout.write(`${model.id} (threads) `);
    try {
      threaded.push(
        await benchThreads(harness, model, {
          rounds: env('BENCH_THREAD_ROUNDS', ROUNDS),
          threads: [1, 2],
          contexts,
          decodeTokens: env('BENCH_DECODE_TOKENS', 64),
          wllamaPage,
        }),
      );
      console.log(
        ` ${((performance.now() - started) / 1000).toFixed(0)} s\n${threadsTables(threaded, [1, 2], contexts)}`,
      );
    } catch (error) {
      failures.push(
        `${model.id} (threads) failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      );
      console.log(failures.at(-1));
    }
  }
  if (threaded.length > 0) out.push(threadsTables(threaded, [1, 2], contexts));
  if (process.env.BENCH_SKIP_PROMPT_CACHE !== '1') {
    const cached: PromptCacheResult[] = [];
    for (const model of await ensureBenchModels(process.env.BENCH_CACHE_MODELS ?? 'small-q4_0,small-q4_K'))
      cached.push(
        await benchPromptCache(harness, model, { rounds: ROUNDS, prefixTokens: env('BENCH_CACHE_PREFIX', 2000) }),
      );
    out.push(promptCacheTable(cached));
    console.log(out.at(-1));
  }
  if (process.env.BENCH_SKIP_SPECULATIVE !== '1') {
    const speculative: SpeculativeResult[] = [];
    for (const model of await ensureBenchModels(process.env.BENCH_SPEC_MODELS ?? 'small-q4_0,small-q4_K'))
      speculative.push(
        await benchSpeculative(harness, model, { rounds: ROUNDS, tokens: env('BENCH_SPEC_TOKENS', 256) }),
      );
    out.push(speculativeTable(speculative));
    console.log(out.at(-1));
  }
  if (process.env.BENCH_SKIP_DOWNLOAD !== '1') {
    out.push(downloadTable(await benchDownloads(harness)));
    console.log(out.at(-1));
  }
  out.push(...failures);
} finally {
  await harness.close();
}
console.log(
  `\n${out.join('\n\n')}\n\n(medians of ${ROUNDS} interleaved rounds; ${((performance.now() - started) / 60000).toFixed(1)} min)`,
);
