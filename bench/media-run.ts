/**
 * `npm run bench:media`: image and audio encode time in the page against Debian's llama-server
 * `--mmproj` (bench/media-bench.ts), on the generated pairs: a 64x64 PNG on `inpage-test-vision`
 * and a 5 s WAV on `inpage-test-audio` (BENCH_MEDIA_MODELS picks, comma-separated), at each of
 * BENCH_MEDIA_THREADS (1,2) threads on both sides, BENCH_ROUNDS (5) rounds after one warm-up, the
 * two sides' requests interleaved. Prints the table of bench/media-table.ts after each row.
 */
import { startHarness } from '../test/e2e/harness';
import { serverSkip } from '../test/e2e/llama-server';
import { benchMedia, MEDIA_PAIRS } from './media-bench';
import { mediaTable, type MediaRow } from './media-table';

const skip = serverSkip();
if (skip) throw new Error(skip);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const threads = (process.env.BENCH_MEDIA_THREADS ?? '1,2').split(',').map(Number);
const models = (process.env.BENCH_MEDIA_MODELS ?? MEDIA_PAIRS.map((pair) => pair.model).join(',')).split(',');
const harness = await startHarness();
try {
  const rows: MediaRow[] = [];
  for (const pair of MEDIA_PAIRS.filter((pair) => models.includes(pair.model))) {
    for (const count of threads) {
      rows.push(await benchMedia(harness, pair, count, rounds));
      console.log(mediaTable(rows, rounds), '\n');
    }
  }
} finally {
  await harness.close();
}
