import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usePage } from './page-fixture';

const fixture = usePage();
const MAX_TOKENS = 4000;

test('when the Service Worker dies mid-stream, the engine stops that generation (keepalive silence)', async () => {
  const { page } = fixture;
  const started = await page.evaluate((maxTokens) => {
    const body = { model: 'inpage-test', prompt: 'hi ', max_tokens: maxTokens, temperature: 0, stream: true };
    return new Promise<boolean>((resolve) => {
      (window as unknown as { orphan: Promise<string> }).orphan = fetch('/v1/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (response) => {
        const reader = response.body!.getReader();
        try {
          await reader.read();
          resolve(true);
          for (;;) if ((await reader.read()).done) return 'ended';
        } catch (error) {
          return (error as Error).name;
        }
      });
    });
  }, MAX_TOKENS);
  assert.equal(started, true);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  const stoppedAt = await page.evaluate(() => performance.now());
  await cdp.send('ServiceWorker.stopAllWorkers');
  const orphan = await page.evaluate(() => (window as unknown as { orphan: Promise<string> }).orphan);
  assert.notEqual(orphan, 'ended', 'the stream broke when its SW stopped');

  // The engine notices the silence and aborts the orphaned generation long before its end.
  const record = await page.evaluate(async () => {
    for (let i = 0; i < 3000; i++) {
      const found = (await window.inpage.recentRequests()).find((entry) => entry.reason?.includes('silent'));
      if (found) return { ...found, at: performance.now() };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return null;
  });
  assert.ok(record, 'the engine recorded an abort for silence');
  assert.equal(record.outcome, 'aborted');
  assert.ok(record.completionTokens < MAX_TOKENS, `stopped after ${record.completionTokens} tokens`);
  // The keepalive timeout (1.5 s) bounds it, with room for a loaded machine.
  const stopMs = record.at - stoppedAt;
  console.log(JSON.stringify({ stopMs, completionTokens: record.completionTokens }));
  assert.ok(stopMs < 2500, `the engine stopped ${stopMs} ms after the SW`);
  const next = await page.evaluate(async () => {
    let text = '';
    for await (const event of window.inpage.stream({ prompt: 'abc', max_tokens: 3, temperature: 0 }))
      if (event.type === 'generation.piece') text += event.text;
    return text;
  });
  assert.equal(next, 'def');
});
