import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usePage } from './page-fixture';

const fixture = usePage();

const LONG = 1000;

test('aborting a stream after its first chunk frees the engine for the next request', async () => {
  const result = await fixture.page.evaluate(async (long) => {
    const client = new window.OpenAI({
      baseURL: location.origin + '/v1',
      apiKey: 'unused',
      dangerouslyAllowBrowser: true,
    });
    const body = { model: 'inpage-test', prompt: 'hi ', max_tokens: long, temperature: 0 };

    // Baseline: how long the whole long generation takes on this machine, now.
    let start = performance.now();
    const full = await client.completions.create(body);
    const fullMs = performance.now() - start;

    // The same generation, aborted after its first chunk.
    const controller = new AbortController();
    const stream = await client.completions.create({ ...body, stream: true }, { signal: controller.signal });
    let firstText = '';
    // The SDK ends the iteration quietly once its signal aborts.
    for await (const chunk of stream) {
      firstText = chunk.choices[0]?.text ?? '';
      controller.abort();
    }
    start = performance.now();
    const next = await client.completions.create({
      model: 'inpage-test',
      prompt: 'abc',
      max_tokens: 5,
      temperature: 0,
    });
    const nextMs = performance.now() - start;
    const records = await window.inpage.recentRequests();
    const aborted = records.at(-2);
    return {
      fullTokens: full.usage?.completion_tokens,
      fullMs,
      firstText,
      nextText: next.choices[0]?.text,
      nextMs,
      aborted,
    };
  }, LONG);
  assert.equal(result.fullTokens, LONG);
  assert.equal(result.firstText, ' ');
  console.log(JSON.stringify(result));
  assert.equal(result.nextText, 'defgh');
  // The engine's own record of the aborted request: cancelled by the client, early.
  assert.equal(result.aborted?.outcome, 'aborted');
  assert.equal(result.aborted?.reason, 'client aborted');
  assert.ok(
    (result.aborted?.completionTokens ?? Infinity) < LONG / 2,
    `stopped after ${result.aborted?.completionTokens} tokens`,
  );
  // Had the aborted generation run on, the next request would have waited for most of it.
  assert.ok(
    result.nextMs < result.fullMs / 4,
    `next request took ${result.nextMs} ms; the full generation ${result.fullMs} ms`,
  );
});

test('aborting a non-streamed request frees the engine within ms, as a stream: its answer is under way from its first token', async () => {
  const result = await fixture.page.evaluate(async () => {
    const before = (await window.inpage.recentRequests()).length;
    const controller = new AbortController();
    const body = { model: 'inpage-test', prompt: 'hi ', max_tokens: 1200, temperature: 0 };
    const sent = fetch('/v1/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
    }).then((response) => response.json());
    await new Promise((resolve) => setTimeout(resolve, 150));
    controller.abort();
    const abortedAt = performance.now();
    const error = await sent.then(
      () => 'resolved',
      (reason: Error) => reason.name,
    );
    // How long after the abort the engine recorded the request as ended.
    for (;;) {
      const records = await window.inpage.recentRequests();
      if (records.length > before) return { error, record: records.at(-1), stopMs: performance.now() - abortedAt };
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  });
  console.log(JSON.stringify(result));
  assert.equal(result.error, 'AbortError');
  assert.equal(result.record?.outcome, 'aborted');
  assert.equal(result.record?.reason, 'client aborted');
  assert.ok(
    (result.record?.completionTokens ?? Infinity) < 1200,
    `stopped after ${result.record?.completionTokens} tokens`,
  );
  // Held only until the first token (not for JSON_HOLD_MS, 1 s, which would be ~850 ms here), then cancellable.
  assert.ok(result.stopMs < 500, `the engine stopped ${result.stopMs} ms after the abort`);
});

test('a request queued behind another waits its turn, and both complete', async () => {
  const texts = await fixture.page.evaluate(async () => {
    const post = (prompt: string) =>
      fetch('/v1/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'inpage-test', prompt, max_tokens: 6, temperature: 0 }),
      }).then((response) => response.json());
    const answers = await Promise.all([post('abc'), post('ABC'), post('012')]);
    return answers.map((answer) => answer.choices[0].text);
  });
  assert.deepEqual(texts, ['defghi', 'DEFGHI', '345678']);
});

test('100 aborts, streamed and not, at random moments: each is recorded aborted and frees the engine', async () => {
  const result = await fixture.page.evaluate(async () => {
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
    const post = (extra: object, signal?: AbortSignal) =>
      fetch('/v1/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'inpage-test', prompt: 'hi ', max_tokens: 3000, temperature: 0, ...extra }),
        ...(signal ? { signal } : {}),
      });
    let slowestFree = 0;
    const wrong: string[] = [];
    for (let i = 0; i < 100; i++) {
      const controller = new AbortController();
      const stream = i % 2 === 0;
      const request = post({ stream }, controller.signal).then(
        (response) =>
          stream
            ? response.body
                ?.getReader()
                .read()
                .then(() => '')
            : response.text(),
        () => undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, rand() * 60));
      controller.abort();
      await request.catch(() => undefined);
      // The engine is free once a one-token request gets its answer.
      const start = performance.now();
      const next = await post({ prompt: 'abc', max_tokens: 1 });
      const text = ((await next.json()) as { choices: Array<{ text: string }> }).choices[0]?.text;
      slowestFree = Math.max(slowestFree, performance.now() - start);
      if (text !== 'd') wrong.push(`${i}: ${text}`);
    }
    // The engine keeps its last 32 records: the last 16 aborts and their 16 follow-ups.
    const records = await window.inpage.recentRequests();
    return {
      slowestFree,
      wrong,
      aborted: records.filter((r) => r.outcome === 'aborted').length,
      completed: records.filter((r) => r.outcome === 'completed' && r.completionTokens > 100).length,
    };
  });
  console.log(JSON.stringify(result));
  assert.deepEqual(result.wrong, []);
  // Non-streamed answers are cancellable from their first token, as streams. The bound includes
  // the one-token follow-up itself on a busy machine (1.4 s seen at load 17); a leaked
  // 3,000-token generation would take far longer.
  assert.ok(
    result.slowestFree < 3000,
    `the engine was free ${Math.round(result.slowestFree)} ms after the slowest abort`,
  );
  assert.equal(result.completed, 0, 'no aborted request ran to a long completion');
  // Some aborts land before the request reaches the engine (nothing to record); the rest are recorded aborted.
  assert.ok(result.aborted >= 8, `${result.aborted} of the last 16 aborts were recorded as aborted by the engine`);
});
