import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';
import { startRangeServer, type RangeServer } from './range-server';

// Downloads into the model store (OPFS) from a server of another origin that takes ranges:
// cut by connection resets and by page reloads at 30%, 60% and 90%, each resumed from the bytes
// stored; a server without ranges starts over, saying so; a large file comes in parallel ranges.
// Every model answers exactly as the built-in model does, and the server counts each byte sent.
const MODEL = buildInpageTestModel();
const SIZE = MODEL.length;
/** A 40 MB file (the model, then zeros llama.cpp never reads): large enough for 4 ranges of 8 MiB. */
const LARGE = new Uint8Array(40 * 2 ** 20);
LARGE.set(MODEL);
/** What a reset may cost: the bytes in flight when it came (the kernel drops unread data on RST). */
const IN_FLIGHT = 512 * 1024;
/** What a reload may cost beside: the bytes gathered for the next write (range-writer.ts's 1 MiB). */
const WRITE_BUFFER = 2 ** 20;

let harness: Harness;
let server: RangeServer;

before(async () => {
  harness = await startHarness();
  server = await startRangeServer({
    files: {
      '/cut.gguf': MODEL,
      '/reload.gguf': MODEL,
      '/whole.gguf': { bytes: MODEL, ranges: false },
      '/large.gguf': LARGE,
    },
  });
});

after(async () => {
  await server.close();
  await harness.close();
});

async function openPage(model: string, connections: number): Promise<{ page: Page; warnings: string[] }> {
  const context = await harness.browser.newContext();
  const page = await context.newPage();
  const warnings: string[] = [];
  page.on('worker', (worker) =>
    worker.on('console', (message) => message.type() === 'warning' && warnings.push(message.text())),
  );
  await page.goto(
    `${harness.origin}/?model=${encodeURIComponent(`${server.url}/${model}.gguf`)}&connections=${connections}`,
  );
  return { page, warnings };
}

const ready = (page: Page) =>
  page.evaluate(() =>
    window.inpage.ready.then(
      () => 'ready',
      (error: Error) => error.message,
    ),
  );

async function assertExact(page: Page, model: string): Promise<void> {
  const response = await postFromPage(page, '/v1/completions', { model, prompt: 'abc', max_tokens: 5, temperature: 0 });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  assert.equal((response.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
}

/** The starts of the ranges asked for `path`, in order (0 for a request without a range). */
const starts = (path: string) =>
  server.requests
    .filter((request) => request.path === path && request.method === 'GET')
    .map((request) => Number(/^bytes=(\d+)-/.exec(request.range ?? '')?.[1] ?? 0));

test('a download reset at 30%, 60% and 90% resumes from the bytes stored and answers exactly', async () => {
  const cut = Math.floor(SIZE * 0.3);
  server.cutAfter('/cut.gguf', cut, 3);
  const { page } = await openPage('cut', 1);
  assert.equal(await ready(page), 'ready');
  await assertExact(page, 'cut');
  const asked = starts('/cut.gguf');
  assert.equal(asked.length, 4, `four answers: ${JSON.stringify(server.requests)}`);
  assert.equal(asked[0], 0);
  // Each resume asks from where the bytes stored end: at the cut, less what was in flight.
  for (let i = 1; i < 4; i++) {
    const at = asked[i] ?? 0;
    assert.ok(
      at <= i * cut && at > i * cut - IN_FLIGHT,
      `resume ${i} from byte ${at} (cut at ${i * cut}): ${JSON.stringify(server.requests)}`,
    );
  }
  const sent = server.bytesSent('/cut.gguf');
  assert.ok(sent >= SIZE && sent < SIZE + 3 * IN_FLIGHT, `${sent} bytes sent for a ${SIZE}-byte file`);
  console.log(JSON.stringify({ asked, sent, size: SIZE }));
  await page.context().close();
});

test('a download cut by page reloads at 30%, 60% and 90% resumes on each load and answers exactly', async () => {
  server.rateLimit = 2 * 2 ** 20;
  try {
    const { page } = await openPage('reload', 1);
    for (const fraction of [0.3, 0.6, 0.9]) {
      await page.waitForFunction(
        (at) => window.inpageProgress.some((p) => p.phase === 'download' && (p.fraction ?? 0) >= at),
        fraction,
        { timeout: 30_000, polling: 20 },
      );
      await page.reload();
    }
    server.rateLimit = undefined;
    assert.equal(await ready(page), 'ready');
    await assertExact(page, 'reload');
    const asked = starts('/reload.gguf');
    assert.equal(asked.length, 4, `one answer per load: ${JSON.stringify(asked)}`);
    for (const [i, fraction] of [0.3, 0.6, 0.9].entries())
      assert.ok(
        (asked[i + 1] ?? 0) >= fraction * SIZE - IN_FLIGHT - WRITE_BUFFER,
        `load ${i + 2} resumed at ${asked[i + 1]}`,
      );
    const sent = server.bytesSent('/reload.gguf');
    assert.ok(sent < SIZE + 3 * (IN_FLIGHT + WRITE_BUFFER), `${sent} bytes sent for a ${SIZE}-byte file`);
    console.log(JSON.stringify({ asked, sent, size: SIZE }));
    await page.context().close();
  } finally {
    server.rateLimit = undefined;
  }
});

test('a server that takes no ranges: a cut download starts over, with a warning that says so', async () => {
  server.cutAfter('/whole.gguf', Math.floor(SIZE / 2));
  const { page, warnings } = await openPage('whole', 4);
  assert.equal(await ready(page), 'ready');
  await assertExact(page, 'whole');
  assert.ok(
    warnings.some((text) => text.includes('starts over from byte 0') && text.includes('takes no ranges')),
    JSON.stringify(warnings),
  );
  await page.context().close();
});

test('a large file comes in 4 parallel ranges, each byte once, and answers exactly', async () => {
  const { page } = await openPage('large', 4);
  assert.equal(await ready(page), 'ready');
  await assertExact(page, 'large');
  // The first answer (its first 8 MiB) plans 4 ranges of 10 MiB; range 0 goes on from 8 MiB.
  const asked = starts('/large.gguf').sort((a, b) => a - b);
  const quarter = LARGE.length / 4;
  assert.deepEqual(asked, [0, 8 * 2 ** 20, quarter, 2 * quarter, 3 * quarter]);
  assert.equal(server.bytesSent('/large.gguf'), LARGE.length, 'each byte once');
  // Loaded again, the stored file is used: nothing is asked.
  const before = server.requests.length;
  await page.reload();
  assert.equal(await ready(page), 'ready');
  await assertExact(page, 'large');
  assert.equal(server.requests.length, before, 'the second load asked nothing');
  await page.context().close();
});
