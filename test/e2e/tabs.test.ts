import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { startHarness, type Harness } from './harness';
import type { BrowserContext, Page } from 'playwright';
import { completionText, postFromPage } from './page-helpers';

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

const ABC = { model: 'inpage-test', prompt: 'abc', max_tokens: 5, temperature: 0 };

/** `count` more tabs of `context` on the demo, each with its runtime ready. */
async function openTabs(context: BrowserContext, count: number): Promise<Page[]> {
  const tabs: Page[] = [];
  for (let i = 0; i < count; i++) {
    const tab = await context.newPage();
    await tab.goto(`${harness.origin}/?model=inpage-test`);
    await tab.evaluate(() => window.inpage.ready);
    tabs.push(tab);
  }
  return tabs;
}

const roleOf = (tab: Page) => tab.evaluate(() => window.inpage.role);

test('three tabs on one model run one engine: one leader, two followers served through it, 3 x 20 streams exact', async () => {
  const { context, page: first } = await harness.openPage();
  const tabs = [first, ...(await openTabs(context, 2))];
  assert.deepEqual(await Promise.all(tabs.map(roleOf)), ['leader', 'follower', 'follower']);
  for (const tab of tabs) {
    const served = await postFromPage(tab, '/v1/completions', ABC);
    assert.equal(served.status, 200);
    assert.equal((served.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  }
  // 3 tabs x 20 concurrent streams, all through the one engine: every one exact, none mixed.
  const streams = await Promise.all(
    tabs.map((tab) =>
      tab.evaluate(async (body) => {
        const one = async () => {
          const response = await fetch('/v1/completions', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ ...body, stream: true }),
          });
          const text = await response.text();
          return text
            .split('\n')
            .filter((line) => line.startsWith('data: {'))
            .map((line) => (JSON.parse(line.slice(6)) as { choices: Array<{ text: string }> }).choices[0]?.text ?? '')
            .join('');
        };
        return Promise.all(Array.from({ length: 20 }, one));
      }, ABC),
    ),
  );
  assert.deepEqual(
    streams.flat(),
    Array.from({ length: 60 }, () => 'defgh'),
  );
  assert.deepEqual(await Promise.all(tabs.map(roleOf)), ['leader', 'follower', 'follower'], 'still one engine');
  // The leader's engine answered every tab: its log holds the followers' probes and requests.
  const served = await first.evaluate(() => window.inpage.recentRequests().then((records) => records.length));
  assert.ok(served >= 6, `the leader's engine served ${served} requests`);
  const refused = await tabs[1]!.evaluate(() =>
    window.inpage.recentRequests().then(
      () => null,
      (error: { status?: number; code?: string }) => ({ status: error.status, code: error.code }),
    ),
  );
  assert.deepEqual(refused, { status: 503, code: 'engine_in_other_tab' });
  await context.close();
});

test('when the leader tab closes, a follower takes over and answers exactly, in bounded time', async () => {
  const opened = Date.now();
  const { context, page: leader } = await harness.openPage();
  const firstStartMs = Date.now() - opened;
  const followers = await openTabs(context, 2);
  const closedAt = Date.now();
  await leader.close();
  // Poll from the first follower (first in the lock's queue) until it is answered again; log the
  // 503s it saw meanwhile, when it got the lock and when its engine had loaded.
  const { ms, refusals, ledAfter, grantedAfter } = await followers[0]!.evaluate(async (body) => {
    const started = performance.now();
    const codes: string[] = [];
    let ledAfter: number | null = null;
    window.inpage.addEventListener('leader', () => (ledAfter = performance.now() - started));
    let grantedAfter: number | null = null;
    const timer = setInterval(() => {
      if (window.inpage.role === 'leader' && grantedAfter === null) grantedAfter = performance.now() - started;
    }, 10);
    for (;;) {
      const response = await fetch('/v1/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = await response.json();
      if (response.ok && json.choices[0].text === 'defgh') {
        clearInterval(timer);
        return { ms: performance.now() - started, refusals: codes, ledAfter, grantedAfter };
      }
      codes.push(json.error?.code ?? String(response.status));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, ABC);
  const handoverMs = Date.now() - closedAt;
  const roles = await Promise.all(followers.map(roleOf));
  console.log(JSON.stringify({ firstStartMs, handoverMs, servedAfterMs: ms, ledAfter, grantedAfter, refusals, roles }));
  assert.equal(roles.filter((role) => role === 'leader').length, 1, `one new leader (${roles})`);
  // Requests during the handover wait for the new engine instead of failing.
  assert.deepEqual(refusals, [], 'no request was refused during the handover');
  // The lock passes in tens of ms; the rest is the new engine's start and model load (from the
  // cache), during which requests wait in its queue. About a first start's time (logged as
  // firstStartMs, from a fresh tab to ready); bounded here with room for a busy test machine.
  const bound = Math.max(20_000, 2 * firstStartMs);
  assert.ok(handoverMs < bound, `served again ${handoverMs} ms after the leader closed (bound ${bound} ms)`);
  for (const tab of followers) {
    const served = await postFromPage(tab, '/v1/completions', ABC);
    assert.equal((served.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  }
  await context.close();
});

test('when the leader tab closes, its running stream ends with an error frame at once and its queued requests are answered by the new leader', async () => {
  const { context, page: leader } = await harness.openPage();
  const [follower] = await openTabs(context, 1);
  await follower!.evaluate((abc) => {
    const post = (body: object) =>
      fetch('/v1/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const state = window as unknown as { started: Promise<void>; stream: Promise<object>; queued: Promise<object[]> };
    let started!: () => void;
    state.started = new Promise((resolve) => (started = resolve));
    state.stream = post({ model: 'inpage-test', prompt: 'hi ', max_tokens: 4000, temperature: 0, stream: true }).then(
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
    );
    // Queued behind the stream in the leader's engine, streamed and not.
    state.queued = state.started.then(() =>
      Promise.all(
        [false, true, false].map((stream) =>
          post({ ...abc, stream }).then(async (response) => ({
            status: response.status,
            text: await response.text(),
            at: performance.now(),
          })),
        ),
      ),
    );
  }, ABC);
  await follower!.evaluate(() => (window as unknown as { started: Promise<void> }).started);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const closedAt = await follower!.evaluate(() => performance.now());
  await leader.close();
  const { stream, queued } = await follower!.evaluate(async () => {
    const state = window as unknown as {
      stream: Promise<{ text: string; at: number }>;
      queued: Promise<Array<{ status: number; text: string; at: number }>>;
    };
    return { stream: await state.stream, queued: await state.queued };
  });
  const role = await roleOf(follower!);
  console.log(
    JSON.stringify({
      streamEndMs: Math.round(stream.at - closedAt),
      queuedEndMs: queued.map((answer) => Math.round(answer.at - closedAt)),
      role,
    }),
  );
  assert.match(stream.text, /data: \{"error":\{[^\n]*"code":"engine_gone"/);
  assert.doesNotMatch(stream.text, /\[DONE\]/);
  // The leader's pagehide goodbye ends its requests at once (the keepalive's 1.5 s is the fallback).
  assert.ok(stream.at - closedAt < 1000, `the stream ended ${stream.at - closedAt} ms after the close`);
  assert.equal(role, 'leader');
  for (const answer of queued) {
    assert.equal(answer.status, 200, answer.text);
    assert.equal(completionText(answer.text), 'defgh', 're-routed to the new leader and answered exactly');
  }
  await context.close();
});
