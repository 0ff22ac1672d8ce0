/**
 * An engine call longer than the keepalive's 1.5 s (a prompt step of a large model on a slow
 * machine) does not end the request: the engine says before each step how long it cannot answer
 * (`generation.alive`'s `busy_ms`), the Service Worker allows that, and the engine's own watch
 * does not count the time its thread was blocked as the SW's silence. A test hook makes every
 * prompt step of the real engine block its thread for 2 s (test-slow-step.ts); before, the first
 * such step ended the request with 503 `engine_gone`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { engineWorker } from './engine-worker-helpers';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const fixture = usePage();
const STEP_MS = 2000;

describe('engine steps longer than the keepalive', () => {
  test('a 99-token prompt read in 2 s steps is answered exactly, JSON and streamed', async () => {
    const worker = await engineWorker(fixture.page);
    await worker.evaluate((ms) => Reflect.set(globalThis, '__inpageTestSlowStepMs', ms), STEP_MS);
    try {
      // 99 byte tokens: a first step of 64, then steps sized by the speed measured (16 each).
      const prompt = `${'x'.repeat(96)}abc`;
      for (const stream of [false, true]) {
        const started = Date.now();
        const answer = await postFromPage(fixture.page, '/v1/completions', {
          model: 'inpage-test',
          prompt: stream ? `${'y'.repeat(96)}abz` : prompt, // not the first's prefix: read again
          max_tokens: 5,
          temperature: 0,
          stream,
        });
        const took = Date.now() - started;
        assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
        const text = stream
          ? String(answer.body)
              .split('\n')
              .filter((line) => line.startsWith('data: {'))
              .map((line) => (JSON.parse(line.slice(6)) as { choices: Array<{ text: string }> }).choices[0]?.text)
              .join('')
          : (answer.body as { choices: Array<{ text: string }> }).choices[0]?.text;
        assert.equal(text, stream ? 'abcde' : 'defgh');
        assert.ok(took >= 2 * STEP_MS, `the steps blocked (${took} ms)`);
      }
    } finally {
      await worker.evaluate(() => Reflect.deleteProperty(globalThis, '__inpageTestSlowStepMs'));
    }
  });
});
