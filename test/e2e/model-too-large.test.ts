import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { startHarness, type Harness } from './harness';
import { hugeGgufHeader } from '../fixtures/huge-gguf-header';

// A model larger than the engine can hold is refused before it downloads: a server that
// sends a GGUF's first bytes and then one byte every 100 ms (a ~66 GiB file would take years)
// gets a 503 `model_too_large` with both sizes within a couple of seconds, and the download
// is dropped. Once by Content-Length, once without one (chunked), by the GGUF header's sizes.
const HUGE = 66 * 2 ** 30;
let harness: Harness;
let server: Server;
let origin: string;
const sent = new Map<string, { bytes: number; closed: boolean }>();

before(async () => {
  server = createServer((request, response) => {
    const name = request.url ?? '';
    const header = hugeGgufHeader(HUGE);
    const cors = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };
    response.writeHead(200, {
      ...cors,
      'content-type': 'application/octet-stream',
      ...(name.includes('declared') ? { 'content-length': String(header.length + HUGE + 4096) } : {}),
    });
    const record = { bytes: header.length, closed: false };
    sent.set(name, record);
    response.write(header);
    const drip = setInterval(() => {
      record.bytes += 1;
      response.write(new Uint8Array(1));
    }, 100);
    response.on('close', () => {
      record.closed = true;
      clearInterval(drip);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  origin = `http://127.0.0.1:${address.port}`;
  harness = await startHarness();
});

after(async () => {
  await harness.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

for (const kind of ['declared', 'chunked'] as const) {
  test(`a slowly served ~66 GiB GGUF (${kind === 'declared' ? 'Content-Length' : 'no length: its header'}) is refused at once with model_too_large`, async () => {
    const file = `/${kind}-huge.gguf`;
    const { context, page } = await harness.openPage(`/?model=${encodeURIComponent(origin + file)}`, {
      waitReady: false,
    });
    const outcome = await page.evaluate(async () => {
      const started = performance.now();
      try {
        await window.inpage.ready;
        return { ms: performance.now() - started, code: 'ready', message: '' };
      } catch (error) {
        const { code, message } = error as { code: string; message: string };
        return { ms: performance.now() - started, code, message };
      }
    });
    assert.equal(outcome.code, 'model_too_large', outcome.message);
    assert.match(outcome.message, new RegExp(`${kind === 'declared' ? 'Content-Length' : 'GGUF header'}`));
    assert.match(outcome.message, /\(\d{11} bytes, from .*\(\d+ bytes: /, 'both sizes, in bytes');
    assert.ok(outcome.ms < 5000, `refused ${outcome.ms} ms after start`);
    const served = await page.evaluate(async (model) => {
      const response = await fetch('/v1/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, prompt: 'abc' }),
      });
      return { status: response.status, body: await response.json() };
    }, `${kind}-huge`);
    assert.equal(served.status, 503);
    assert.equal(served.body.error.code, 'model_too_large');
    for (let i = 0; i < 50 && !sent.get(file)?.closed; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(sent.get(file)?.closed, true, 'the download was dropped');
    assert.ok((sent.get(file)?.bytes ?? 0) < 1024 * 1024, `${sent.get(file)?.bytes} bytes were sent`);
    console.log(JSON.stringify({ kind, refusedMs: Math.round(outcome.ms), bytesSent: sent.get(file)?.bytes }));
    await context.close();
  });
}
