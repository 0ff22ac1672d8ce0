/**
 * `npm run bench:prompt-cache`: the prompt cache's figures alone (bench/prompt-cache-bench.ts),
 * on BENCH_CACHE_MODELS (small-q4_0,small-q4_K), BENCH_ROUNDS (3) rounds, a BENCH_CACHE_PREFIX
 * (2000) token prefix.
 */
import { startHarness } from '../test/e2e/harness';
import { ensureBenchModels } from './bench-models';
import { benchPromptCache, promptCacheTable, type PromptCacheResult } from './prompt-cache-bench';

const models = await ensureBenchModels(process.env.BENCH_CACHE_MODELS ?? 'small-q4_0,small-q4_K');
const harness = await startHarness();
try {
  const results: PromptCacheResult[] = [];
  for (const model of models)
    results.push(
      await benchPromptCache(harness, model, {
        rounds: Number(process.env.BENCH_ROUNDS ?? 3),
        prefixTokens: Number(process.env.BENCH_CACHE_PREFIX ?? 2000),
      }),
    );
  console.log(promptCacheTable(results));
} finally {
  await harness.close();
}
