/**
 * `npm run bench:slots`: the slots' figures alone (bench/slots-bench.ts), on
 * BENCH_SLOTS_MODELS (small-q4_0,small-q4_K; `qwen05-q4_0` is a real-size body, ~210 MB), at
 * BENCH_SLOTS_THREADS (1; `1,2` for both), for BENCH_SLOTS_STREAMS (1,2,4,8) concurrent streams of
 * BENCH_SLOTS_TOKENS (128) tokens, BENCH_ROUNDS (3) rounds, against llama-server in the sid chroot.
 * BENCH_SLOTS_SPECULATIVE (unset; `ngram-simple`): every stream drafts (the page's
 * `speculative.type`, llama-server's `--spec-type`).
 */
import { readFile } from 'node:fs/promises';
import { startHarness } from '../test/e2e/harness';
import { placeModel, serverSkip, startLlamaServer } from '../test/e2e/llama-server';
import { ensureBenchModels } from './bench-models';
import { benchSlots, slotsTable, type SlotsRow } from './slots-bench';

const skip = serverSkip();
if (skip) throw new Error(skip);
const list = (name: string, fallback: string) =>
  (process.env[name] ?? fallback)
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
const models = await ensureBenchModels(list('BENCH_SLOTS_MODELS', 'small-q4_0,small-q4_K').join(','));
const streams = list('BENCH_SLOTS_STREAMS', '1,2,4,8').map(Number);
const speculative = process.env.BENCH_SLOTS_SPECULATIVE || null;
const harness = await startHarness();
try {
  const rows: SlotsRow[] = [];
  for (const model of models) {
    placeModel(model.id, await readFile(model.file));
    for (const threads of list('BENCH_SLOTS_THREADS', '1').map(Number)) {
      const startServer = (n: number) =>
        startLlamaServer({
          model: model.id,
          args: [
            ...['-c', '4096', '-np', String(n), '-t', String(threads), '-tb', String(threads)],
            ...(speculative ? ['--spec-type', speculative] : []),
          ],
        });
      rows.push(
        ...(await benchSlots(harness, model, startServer, {
          streams,
          threads,
          rounds: Number(process.env.BENCH_ROUNDS ?? 3),
          tokens: Number(process.env.BENCH_SLOTS_TOKENS ?? 128),
          speculative,
        })),
      );
      console.log(slotsTable(rows));
    }
  }
} finally {
  await harness.close();
}
