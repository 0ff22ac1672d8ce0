/**
 * What the contract says about failing upstreams, beside routes.test.ts's cases: a
 * node:http upstream that misbehaves on purpose (a 401, no answer within the route's
 * `timeoutMs`, a stream broken after its first event, no CORS headers) in front of Debian's real
 * `llama-server` as the next target; `require_parameters` skipping an upstream that does not
 * declare `logprobs`; and the drop-in's `data-routes`. Upstream keys are sent to the upstream
 * only: never echoed in an answer, never in the console.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ConsoleMessage, Page, Worker } from 'playwright';
import { startHarness, type Harness } from './harness';
import { freePort, serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { startStaticSite } from './static-site';
import { makeTempApp } from './temp-app';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const ABC = { prompt: 'abc', max_tokens: 5, temperature: 0 };
const KEY = 'sk-route-key-never-echoed';
const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };

/**
 * An upstream at `/<behaviour>/v1`: `unauthorized`, `slow` (headers after 10 s), `broken` (one SSE
 * event, then the socket dies), `nocors`; and `/hold/...`, a download that never ends.
 */
async function fakeUpstream(): Promise<{
  baseURL(behaviour: string): string;
  seen: IncomingMessage[];
  close(): Promise<void>;
}> {
  const seen: IncomingMessage[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const behaviour = (request.url ?? '').split('/')[1];
    if (behaviour !== 'nocors' && request.method === 'OPTIONS') return response.writeHead(204, CORS).end();
    seen.push(request);
    request.resume();
    // A model download that never ends (the in-page model stays loading).
    if (behaviour === 'hold') return void response.writeHead(200, { ...CORS, 'content-length': '100000000' });
    if (behaviour === 'unauthorized')
      return response
        .writeHead(401, { ...CORS, 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'Invalid API key', type: 'invalid_request_error' } }));
    if (behaviour === 'slow') return void setTimeout(() => response.writeHead(200, CORS).end('{}'), 10_000).unref();
    if (behaviour === 'broken') {
      response.writeHead(200, { ...CORS, 'content-type': 'text/event-stream' });
      response.write('data: {"choices":[{"text":"d","index":0}]}\n\n');
      // A FIN without the chunked body's last chunk: the body breaks after its first event. (A
      // reset instead lost that event on a busy machine: Linux drops unread data on RST.)
      return void setTimeout(() => response.socket?.end(), 50);
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    baseURL: (behaviour) => `http://127.0.0.1:${port}/${behaviour}/v1`,
    seen,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

interface Answer {
  status: number;
  provider: string | null;
  text: string;
  ms: number;
}

function call(page: Page, body: unknown): Promise<Answer> {
  return page.evaluate(async (body) => {
    const start = performance.now();
    const response = await fetch('/v1/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer the-callers-own' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      provider: response.headers.get('x-inpage-provider'),
      text,
      ms: performance.now() - start,
    };
  }, body);
}

const textOf = (answer: Answer) => (JSON.parse(answer.text) as { choices: Array<{ text: string }> }).choices[0]?.text;
const errorOf = (answer: Answer) => (JSON.parse(answer.text) as { error: { code: string; message: string } }).error;

describe('failing upstreams, require_parameters and data-routes', { skip: skip ?? false }, () => {
  let harness: Harness;
  let server: LlamaServer;
  let fake: Awaited<ReturnType<typeof fakeUpstream>>;
  let page: Page;
  const consoleLines: string[] = [];

  before(async () => {
    [harness, server, fake] = await Promise.all([startHarness(), startLlamaServer(), fakeUpstream()]);
    const srv = { baseURL: server.baseURL, model: 'native-inpage-test' };
    const table = {
      upstreams: {
        srv,
        locked: { baseURL: fake.baseURL('unauthorized'), model: 'm', apiKey: KEY },
        slow: { baseURL: fake.baseURL('slow'), model: 'm' },
        broken: { baseURL: fake.baseURL('broken'), model: 'm' },
        nocors: { baseURL: fake.baseURL('nocors'), model: 'm' },
        plain: srv,
      },
      routes: {
        keyed: { targets: ['locked', 'srv'] },
        'keyed-only': { targets: ['locked'] },
        slow: { targets: ['slow', 'srv'], timeoutMs: 300 },
        'slow-only': { targets: ['slow'], timeoutMs: 300 },
        broken: { targets: ['broken', 'srv'] },
        nocors: { targets: ['nocors'] },
        capable: { targets: ['plain', 'device'] },
      },
    };
    const routes = encodeURIComponent(`data:application/json,${JSON.stringify(table)}`);
    const opened = await harness.openPage(`/?model=inpage-test&routes=${routes}`);
    page = opened.page;
    // The page's console and the Service Worker's (where an upstream's failure is logged; once
    // attached to, Playwright shows its messages on the page too, so each line says whose it is).
    const listen = (from: 'page' | 'sw', target: Pick<Page, 'on'> | Worker) =>
      target.on('console', (message: ConsoleMessage) => consoleLines.push(`${from}: ${message.text()}`));
    listen('page', page);
    for (const worker of opened.context.serviceWorkers()) listen('sw', worker);
  });
  after(async () => {
    await Promise.all([harness?.close(), server?.stop(), fake?.close()]);
  });

  test("an upstream's 401 moves on to the next target, is logged once, and its key is sent there only", async () => {
    const first = await call(page, { model: 'keyed', ...ABC });
    const second = await call(page, { model: 'keyed', ...ABC });
    assert.deepEqual([first.status, first.provider, textOf(first)], [200, 'srv', 'defgh']);
    assert.deepEqual([second.status, second.provider], [200, 'srv']);
    const locked = fake.seen.find((request) => request.url?.startsWith('/unauthorized/'));
    assert.equal(locked?.headers['authorization'], `Bearer ${KEY}`, "the upstream's key, not the caller's");
    // Alone, its error is the answer (status kept, OpenAI's shape), naming the upstream and not its key.
    const alone = await call(page, { model: 'keyed-only', ...ABC });
    assert.deepEqual([alone.status, alone.provider], [401, 'locked']);
    assert.equal(errorOf(alone).message, "Upstream 'locked' answered 401: Invalid API key");
    for (const answer of [first, second, alone]) assert.ok(!answer.text.includes(KEY));
    const warnings = consoleLines.filter((line) => line.startsWith("sw: [inpage-llm] upstream 'locked' answered 401"));
    assert.equal(warnings.length, 1, consoleLines.join('\n'));
    assert.ok(!consoleLines.some((line) => line.includes(KEY)), 'the key is never logged');
  });

  test('no answer within timeoutMs: the next target, or a 504 upstream_timeout', async () => {
    const moved = await call(page, { model: 'slow', ...ABC });
    assert.deepEqual([moved.status, moved.provider, textOf(moved)], [200, 'srv', 'defgh']);
    assert.ok(moved.ms < 5000, `moved on after the timeout, not the upstream's 10 s: ${moved.ms} ms`);
    const alone = await call(page, { model: 'slow-only', ...ABC });
    assert.deepEqual([alone.status, alone.provider, errorOf(alone).code], [504, 'slow', 'upstream_timeout']);
  });

  test('a stream broken after its first byte ends with the error event; no fallback then', async () => {
    const broken = await call(page, { model: 'broken', ...ABC, stream: true });
    assert.deepEqual([broken.status, broken.provider], [200, 'broken']);
    const events = broken.text.split('\n\n').filter((frame) => frame.startsWith('data: '));
    assert.equal(events[0], 'data: {"choices":[{"text":"d","index":0}]}');
    assert.equal(events.length, 2, broken.text);
    const last = JSON.parse(events[1]?.slice('data: '.length) ?? '{}') as { error?: { code: string } };
    assert.equal(last.error?.code, 'upstream_stream_error');
  });

  test('an upstream without CORS headers is a 502 saying unreachable or blocked by CORS', async () => {
    const blocked = await call(page, { model: 'nocors', ...ABC });
    assert.deepEqual(
      [blocked.status, blocked.provider, errorOf(blocked).code],
      [502, 'nocors', 'upstream_unreachable'],
    );
    assert.match(errorOf(blocked).message, /unreachable or blocked by CORS/);
  });

  test('require_parameters skips an upstream that does not declare logprobs: the device answers', async () => {
    const body = { model: 'capable', ...ABC, logprobs: 1 };
    const any = await call(page, body);
    const required = await call(page, { ...body, provider: { require_parameters: true } });
    assert.deepEqual([any.status, any.provider], [200, 'plain']);
    assert.deepEqual([required.status, required.provider, textOf(required)], [200, 'device', 'defgh']);
  });

  test('a remote route answers while the in-page model is still downloading: nothing device-side is waited on', async () => {
    const table = {
      upstreams: { srv: { baseURL: server.baseURL, model: 'm' } },
      routes: { remote: { targets: ['srv'] } },
    };
    const model = encodeURIComponent(`${fake.baseURL('hold').replace('/v1', '')}/model.gguf`);
    const routes = encodeURIComponent(`data:application/json,${JSON.stringify(table)}`);
    const { page: loading, context } = await harness.openPage(`/?model=${model}&routes=${routes}`, {
      waitReady: false,
    });
    try {
      await loading.waitForFunction(() => navigator.serviceWorker.controller !== null && 'inpage' in window);
      const answer = await call(loading, { model: 'remote', ...ABC });
      assert.deepEqual([answer.status, answer.provider, textOf(answer)], [200, 'srv', 'defgh']);
      assert.equal(await loading.evaluate(() => window.inpage.device.status), 'loading');
    } finally {
      await context.close();
    }
  });

  test("the drop-in's data-routes: a route table by URL, the server answering a remote-only route", async () => {
    const app = await makeTempApp();
    try {
      await app.sh('npx inpage-llm init public --dropin');
      const table = {
        upstreams: { srv: { baseURL: server.baseURL, model: 'm' } },
        routes: { remote: { targets: ['srv'] } },
      };
      await mkdir(join(app.dir, 'public', 'config'), { recursive: true });
      await writeFile(join(app.dir, 'public', 'config', 'routes.json'), JSON.stringify(table));
      await writeFile(
        join(app.dir, 'public', 'index.html'),
        '<!doctype html><script src="/inpage-llm.js" data-model="inpage-test" data-routes="config/routes.json"></script>\n',
      );
      const site = await startStaticSite(join(app.dir, 'public'));
      try {
        const { page: dropin } = await site.openPage('/');
        const answer = await call(dropin, { model: 'remote', ...ABC });
        assert.deepEqual([answer.status, answer.provider, textOf(answer)], [200, 'srv', 'defgh']);
      } finally {
        await site.close();
      }
    } finally {
      await app.remove();
    }
  });
});
