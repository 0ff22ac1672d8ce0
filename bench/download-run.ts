/** `npm run bench:download`: the model store's download figures alone (bench/download-bench.ts). */
import { startHarness } from '../test/e2e/harness';
import { benchDownloads, downloadTable } from './download-bench';

const harness = await startHarness();
try {
  console.log(downloadTable(await benchDownloads(harness)));
} finally {
  await harness.close();
}
