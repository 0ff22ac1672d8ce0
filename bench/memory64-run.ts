/**
 * `npm run bench:memory64`: memory64's cost against wasm32 on BENCH_M64_MODELS
 * (small-q4_0,small-q8_0,small-q4_K,small-f32), BENCH_ROUNDS (4) rounds, and a model past 4 GiB
 * loaded and answering (BENCH_SKIP_BIG=1 leaves it out; it writes a 4.9 GB file into .bench/ once).
 */
import { startHarness } from '../test/e2e/harness';
import { ensureBenchModels } from './bench-models';
import { benchMemory64, ensureBigModel, memory64Table, runBigModel, type Memory64Result } from './memory64-bench';

const models = await ensureBenchModels(process.env.BENCH_M64_MODELS ?? 'small-q4_0,small-q8_0,small-q4_K,small-f32');
const big = process.env.BENCH_SKIP_BIG === '1' ? null : await ensureBigModel();
const harness = await startHarness();
try {
  const results: Memory64Result[] = [];
  for (const model of models) results.push(await benchMemory64(harness, model, Number(process.env.BENCH_ROUNDS ?? 4)));
  console.log(memory64Table(results));
  if (big) console.log(await runBigModel(harness, big));
} finally {
  await harness.close();
}
