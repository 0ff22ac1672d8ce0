import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';

// A tab without a runtime (a plain page of the same origin, controlled by the SW) is served
// by the engine of another tab, as MSW serves tabs; with no engine tab left it gets a 503.
const DIR = 'dist/test-tabs';

let harness: Harness;

before(async () => {
  await mkdir(DIR, { recursive: true });
  await writeFile(`${DIR}/plain.html`, '<!doctype html><title>plain</title><p>no runtime here</p>');
  harness = await startHarness();
});

after(async () => {
  await harness.close();
  await rm(DIR, { recursive: true, force: true });
});

test('a tab without an engine is served by the tab that has one, then 503 when it closes', async () => {
  const { context, page: engineTab } = await harness.openPage();
  const plain = await context.newPage();
  await plain.goto(`${harness.origin}/test-tabs/plain.html`);
  assert.equal(
    await plain.evaluate(() => navigator.serviceWorker.controller !== null),
    true,
    'the plain tab is controlled',
  );

  // Asking the plain tab (it never answers) would cost the SW's 2 s query timeout on every
  // request; the engine tab's hello lets the SW skip it. Best of three, so load cannot fake it.
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = Date.now();
    const served = await postFromPage(plain, '/v1/completions', {
      model: 'inpage-test',
      prompt: 'abc',
      max_tokens: 5,
      temperature: 0,
    });
    times.push(Date.now() - started);
    assert.equal(served.status, 200);
    assert.equal((served.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  }
  assert.ok(Math.min(...times) < 2000, `served without the plain tab's query timeout (${times} ms)`);

  await engineTab.close();
  const orphan = await postFromPage(plain, '/v1/completions', { model: 'inpage-test', prompt: 'abc' });
  assert.equal(orphan.status, 503);
  assert.equal((orphan.body as { error: { code: string } }).error.code, 'engine_not_loaded');
  await context.close();
});

test("when the engine tab closes mid-stream, the other tab's stream ends with an error frame and its queued request with a 503, in bounded time", async () => {
  const { context, page: engineTab } = await harness.openPage();
  const plain = await context.newPage();
  await plain.goto(`${harness.origin}/test-tabs/plain.html`);
  await plain.evaluate(() => {
    const body = { model: 'inpage-test', prompt: 'hi ', max_tokens: 4000, temperature: 0 };
    const post = (extra: object) =>
      fetch('/v1/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, ...extra }),
      });
    const state = window as unknown as { started: Promise<void>; stream: Promise<object>; queued: Promise<object> };
    let started!: () => void;
    state.started = new Promise((resolve) => (started = resolve));
    state.stream = post({ stream: true }).then(
      async (response) => {
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        let text = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return { text: text.slice(-400), at: performance.now() };
          text += value;
          started();
        }
      },
      (error: Error) => ({ error: error.message, at: performance.now() }),
    );
    // Queued behind the stream in the same engine.
    state.queued = state.started
      .then(() => post({ max_tokens: 5 }))
      .then(async (response) => ({ status: response.status, body: await response.json(), at: performance.now() }));
  });
  await plain.evaluate(() => (window as unknown as { started: Promise<void> }).started);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const closedAt = await plain.evaluate(() => performance.now());
  await engineTab.close();
  const { stream, queued } = await plain.evaluate(async () => {
    const state = window as unknown as {
      stream: Promise<{ text?: string; at: number }>;
      queued: Promise<{ status: number; body: { error?: { code: string } }; at: number }>;
    };
    return { stream: await state.stream, queued: await state.queued };
  });
  console.log(
    JSON.stringify({
      streamEndMs: stream.at - closedAt,
      queuedEndMs: queued.at - closedAt,
      tail: stream.text?.slice(-200),
      queued: queued.status,
    }),
  );
  assert.match(stream.text ?? '', /data: \{"error":\{[^\n]*"code":"engine_gone"/);
  assert.doesNotMatch(stream.text ?? '', /\[DONE\]/);
  assert.equal(queued.status, 503);
  assert.equal(queued.body.error?.code, 'engine_gone');
  assert.ok(stream.at - closedAt < 3000, `the stream ended ${stream.at - closedAt} ms after the close`);
  assert.ok(queued.at - closedAt < 3000, `the queued request ended ${queued.at - closedAt} ms after the close`);
  await context.close();
});
