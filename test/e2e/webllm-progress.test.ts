/**
 * The webllm backend's load progress on a real WebLLM (SwiftShader WebGPU, a generated model
 * folder whose model library cannot compile: the download and the start of `reload()` run for
 * real). Its size is known only once tensor-cache.json is parsed: until then the fraction is
 * null, and within a phase it never goes back (it went 0 -> 1 -> 0).
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { startHarness, type Harness } from './harness';
import { WEBLLM_DIR, writeWebLLMFixture } from './webllm-fixture';

let harness: Harness;
let path: string;

before(async () => {
  path = await writeWebLLMFixture('webllm');
  harness = await startHarness({ args: ['--enable-unsafe-webgpu'] });
});

after(async () => {
  await harness.close();
  await rm(WEBLLM_DIR, { recursive: true, force: true });
});

test('webllm download: fraction null until the size is known, then a share of the whole that never goes back', async () => {
  const { page, context } = await harness.openPage(path, { waitReady: false });
  await page.evaluate(() => window.inpage.ready.catch(() => undefined));
  const progress = await page.evaluate(() => window.inpageProgress);
  const downloads = progress.filter((p) => p.phase === 'download');
  console.log(
    '# fractions:',
    progress.map((p) => `${p.phase}:${p.fraction === null ? '-' : p.fraction.toFixed(2)}`).join(' '),
  );
  const firstShard = downloads.findIndex((p) => /params_shard_\d+\.bin$/.test(p.file ?? ''));
  assert.ok(firstShard > 0, 'config, tensor-cache, tokenizer and library come before the shards');
  for (const early of downloads.slice(0, firstShard)) {
    assert.equal(early.fraction, null, JSON.stringify(early));
    assert.equal(early.totalBytes, undefined);
  }
  for (const phase of ['download', 'load'] as const) {
    const known = progress.flatMap((p) => (p.phase === phase && p.fraction !== null ? [p.fraction] : []));
    assert.ok(
      known.every((f, i) => f >= (known[i - 1] ?? 0)),
      `${phase} fractions never go back: ${known.join(' ')}`,
    );
  }
  const last = downloads.at(-1);
  assert.equal(last?.fraction, 1);
  assert.equal(last?.loadedBytes, last?.totalBytes);
  await context.close();
});
