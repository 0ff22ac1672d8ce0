/**
 * `npm run bench:draft`: a draft model on and off (bench/draft-model-bench.ts), through the page
 * and llama-server, on BENCH_DRAFT_MODELS (small-q4_0,qwen05-q4_0: shape-type of the inert
 * model), BENCH_ROUNDS (3) rounds of BENCH_DRAFT_TOKENS (128) tokens, drafts of
 * BENCH_DRAFT_N_MAX (llama-server's default, 3).
 */
import { serverSkip } from '../test/e2e/llama-server';
import { startHarness } from '../test/e2e/harness';
import { benchDraftModel, draftTable, type DraftRow } from './draft-model-bench';
import { parseBenchModelName } from './bench-models';

const skip = serverSkip();
if (skip) throw new Error(skip);
const nMax = Number(process.env.BENCH_DRAFT_N_MAX ?? 3);
const harness = await startHarness();
try {
  const rows: DraftRow[] = [];
  for (const name of (process.env.BENCH_DRAFT_MODELS ?? 'small-q4_0,qwen05-q4_0').split(',')) {
    const { shape, type } = parseBenchModelName(name.trim());
    rows.push(
      ...(await benchDraftModel(harness, shape, type, {
        rounds: Number(process.env.BENCH_ROUNDS ?? 3),
        tokens: Number(process.env.BENCH_DRAFT_TOKENS ?? 128),
        nMax,
      })),
    );
    console.log(draftTable(rows, nMax));
  }
} finally {
  await harness.close();
}
