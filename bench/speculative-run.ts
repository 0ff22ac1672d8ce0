/**
 * `npm run bench:speculative`: speculative decoding's figures alone (bench/speculative-bench.ts),
 * on BENCH_SPEC_MODELS (small-q4_0,small-q4_K), BENCH_ROUNDS (3) rounds of BENCH_SPEC_TOKENS
 * (256) generated tokens.
 */
import { startHarness } from '../test/e2e/harness';
import { ensureBenchModels } from './bench-models';
import { benchSpeculative, speculativeTable, type SpeculativeResult } from './speculative-bench';

const models = await ensureBenchModels(process.env.BENCH_SPEC_MODELS ?? 'small-q4_0,small-q4_K');
const harness = await startHarness();
try {
  const results: SpeculativeResult[] = [];
  for (const model of models)
    results.push(
      await benchSpeculative(harness, model, {
        rounds: Number(process.env.BENCH_ROUNDS ?? 3),
        tokens: Number(process.env.BENCH_SPEC_TOKENS ?? 256),
      }),
    );
  console.log(speculativeTable(results));
} finally {
  await harness.close();
}
