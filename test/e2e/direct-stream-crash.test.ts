import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineWorker, nextAnswer } from './engine-worker-helpers';
import { usePage } from './page-fixture';

// The direct API (`inpage.stream()`: the engine's port, no Service Worker, no keepalive) when
// the engine worker dies without a word (closed from outside: no error frame is posted): the
// page's watch ends the stream with 503 `engine_crashed`, as the endpoint's requests end.
// Before, such a stream never ended. Its own page: the crash tests of engine-crash.test.ts
// already spend that tab's restart budget (3 a minute).
const fixture = usePage();

test('inpage.stream() (no Service Worker) in flight when its worker is closed from outside ends with engine_crashed at once', async () => {
  const { page } = fixture;
  const before = await engineWorker(page);
  const outcome = page.evaluate(async () => {
    let pieces = 0;
    try {
      for await (const event of window.inpage.stream({ prompt: 'hi ', max_tokens: 4000, temperature: 0 })) {
        if (event.type === 'generation.piece') pieces++;
        if (pieces === 5) (window as unknown as { streaming: boolean }).streaming = true;
      }
      return { pieces, ended: 'done' };
    } catch (error) {
      const { code } = error as { code?: string };
      return { pieces, ended: code, at: performance.now() };
    }
  });
  await page.waitForFunction(() => (window as unknown as { streaming?: boolean }).streaming === true);
  const closedAt = await page.evaluate(() => performance.now());
  await before.evaluate(() => setTimeout(() => self.close(), 0));
  const end = await outcome;
  assert.equal(end.ended, 'engine_crashed', JSON.stringify(end));
  const endMs = (end.at ?? 0) - closedAt;
  assert.ok(endMs < 2000, `the direct stream ended ${endMs} ms after the close`);
  const next = await nextAnswer(page);
  assert.equal(next.status, 200, JSON.stringify(next.body));
  assert.equal((next.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  assert.notEqual(await engineWorker(page), before);
  console.log(JSON.stringify({ direct: { endMs: Math.round(endMs), nextMs: next.ms } }));
});
