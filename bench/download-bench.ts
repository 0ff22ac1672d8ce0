/**
 * Model downloads into the model store: the page's peak memory while a 1 GiB model downloads
 * (against the same page on the 5.9 MB model: the store keeps one chunk in memory, so the two
 * should be close; an in-memory download would add the file's size), and the speedup of 4
 * parallel ranges over one connection from a server that caps each connection's rate, as CDNs
 * and slow links do. Each page is a fresh context, so nothing is stored before it.
 */
import type { Harness } from '../test/e2e/harness';
import { buildInpageTestModel } from '../src/builtin-model/inpage-test-model';
import { startRangeServer } from '../test/e2e/range-server';
import { peakRssMb, rendererPids } from './process-memory';
import { fmt } from './stats';

export interface DownloadResult {
  /** Peak renderer MB: the small model, the 1 GiB one. */
  smallPeakMb: number;
  largePeakMb: number;
  largeSeconds: number;
  /** Seconds for the capped file with 1 and 4 connections. */
  cappedSeconds: Map<number, number>;
  cappedBytes: number;
  rate: number;
}

const GIB = 2 ** 30;

/** The test model followed by zeros llama.cpp never reads: `bytes` long, a valid GGUF. */
function padded(bytes: number): Uint8Array {
  const file = new Uint8Array(bytes);
  file.set(buildInpageTestModel());
  return file;
}

/** Loads `model` in a fresh page (`connections` ranges): seconds until ready and the page's peak MB. */
async function load(harness: Harness, url: string, connections: number): Promise<{ seconds: number; peakMb: number }> {
  const before = rendererPids();
  const context = await harness.browser.newContext();
  try {
    const page = await context.newPage();
    const pids = () => [...rendererPids()].filter((pid) => !before.has(pid));
    const started = performance.now();
    await page.goto(`${harness.origin}/?model=${encodeURIComponent(url)}&connections=${connections}`);
    const outcome = await page.evaluate(() =>
      window.inpage.ready.then(
        () => 'ready',
        (error: Error) => error.message,
      ),
    );
    if (outcome !== 'ready') throw new Error(`${url}: ${outcome}`);
    return { seconds: (performance.now() - started) / 1000, peakMb: peakRssMb(pids()) };
  } finally {
    await context.close();
  }
}

export async function benchDownloads(
  harness: Harness,
  rate = 4 * 2 ** 20,
  cappedBytes = 64 * 2 ** 20,
): Promise<DownloadResult> {
  const server = await startRangeServer({
    files: { '/small.gguf': buildInpageTestModel(), '/large.gguf': padded(GIB), '/capped.gguf': padded(cappedBytes) },
  });
  try {
    const small = await load(harness, `${server.url}/small.gguf`, 4);
    const large = await load(harness, `${server.url}/large.gguf`, 4);
    server.rateLimit = rate;
    const cappedSeconds = new Map<number, number>();
    for (const connections of [1, 4])
      cappedSeconds.set(connections, (await load(harness, `${server.url}/capped.gguf`, connections)).seconds);
    return {
      smallPeakMb: small.peakMb,
      largePeakMb: large.peakMb,
      largeSeconds: large.seconds,
      cappedSeconds,
      cappedBytes,
      rate,
    };
  } finally {
    await server.close();
  }
}

export function downloadTable(result: DownloadResult): string {
  const one = result.cappedSeconds.get(1) ?? NaN;
  const four = result.cappedSeconds.get(4) ?? NaN;
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  return [
    '| download | result |',
    '| --- | --- |',
    `| peak page memory, 5.9 MB model | ${fmt(result.smallPeakMb)} MB |`,
    `| peak page memory, 1 GiB model | ${fmt(result.largePeakMb)} MB (${fmt(result.largeSeconds, 1)} s to ready) |`,
    `| ${mb(result.cappedBytes)} MiB at ${mb(result.rate)} MiB/s per connection, 1 connection | ${fmt(one, 1)} s |`,
    `| same, 4 connections | ${fmt(four, 1)} s (${fmt(one / four, 2)}x) |`,
  ].join('\n');
}
