/**
 * Readiness never leaves the device: `ready` is proven against the in-page engine itself, so a
 * route table that sends the page's own model id elsewhere (remote only, upstream first,
 * round-robin over two upstreams, an upstream whose answer is a 400, a device that cannot load,
 * a follower tab) gives each upstream exactly the requests the page made, none at page load.
 * Upstreams: recording proxies in front of Debian's real `llama-server`
 * (test/e2e/llama-server.ts), and a node:http upstream that answers every request with a 400.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright';
import { startHarness, type Harness } from './harness';
import {
  freePort,
  recordingProxy,
  serverSkip,
  startLlamaServer,
  type LlamaServer,
  type Recorded,
} from './llama-server';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const ABC = { prompt: 'abc', max_tokens: 5, temperature: 0 };
const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };
const upstream = (server: { baseURL: string }) => ({ baseURL: server.baseURL, model: 'native-inpage-test' });
const withRoutes = (model: string, table: unknown) =>
  `/?model=${encodeURIComponent(model)}&routes=${encodeURIComponent(`data:application/json,${JSON.stringify(table)}`)}`;

/** The requests an upstream received (the CORS preflights are the browser's, not the page's). */
const posts = (log: Recorded[]) => log.filter((entry) => entry.method === 'POST');

/** `count` completions of the page's own model id, one after another: each answer's status and provider. */
function callMany(page: Page, count: number): Promise<Array<[number, string | null]>> {
  return page.evaluate(
    async ({ count, body }) => {
      const answers: Array<[number, string | null]> = [];
      for (let i = 0; i < count; i++) {
        const response = await fetch('/v1/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'inpage-test', ...body }),
        });
        await response.arrayBuffer();
        answers.push([response.status, response.headers.get('x-inpage-provider')]);
      }
      return answers;
    },
    { count, body: ABC },
  );
}

/** An upstream that answers every request with a 400 (what a server that dislikes a request says). */
async function refusingUpstream(): Promise<{ baseURL: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'OPTIONS') return response.writeHead(204, CORS).end();
    seen.push(`${request.method} ${request.url}`);
    request.resume();
    response
      .writeHead(400, { ...CORS, 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: 'not here', type: 'invalid_request_error', code: 'refused' } }));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe('readiness is proven on the device, never through the route table', { skip: skip ?? false }, () => {
  let harness: Harness;
  let server: LlamaServer;
  const contexts: BrowserContext[] = [];
  const open = async (path: string) => {
    const { context, page } = await harness.openPage(path);
    contexts.push(context);
    return page;
  };

  before(async () => {
    [harness, server] = await Promise.all([startHarness(), startLlamaServer()]);
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await Promise.all([harness?.close(), server?.stop()]);
  });

  test("remote only, on the page's own model id: nothing upstream at load, then exactly N", async () => {
    const proxy = await recordingProxy(server.port);
    try {
      const table = { upstreams: { srv: upstream(proxy) }, routes: { 'inpage-test': { targets: ['srv'] } } };
      const page = await open(withRoutes('inpage-test', table));
      assert.equal(await page.evaluate(() => window.inpage.device.status), 'ready');
      assert.equal(posts(proxy.log).length, 0, 'nothing went upstream at page load');
      assert.deepEqual(await callMany(page, 3), Array(3).fill([200, 'srv']));
      const sent = posts(proxy.log);
      assert.equal(sent.length, 3);
      for (const entry of sent) {
        assert.equal(entry.path, '/v1/completions');
        assert.deepEqual(JSON.parse(entry.request.toString()), { model: 'native-inpage-test', ...ABC });
      }
    } finally {
      await proxy.close();
    }
  });

  test('server first, then the device: nothing upstream at load, then exactly N', async () => {
    const proxy = await recordingProxy(server.port);
    try {
      const table = {
        upstreams: { srv: upstream(proxy) },
        routes: { 'inpage-test': { targets: ['srv', 'device'] } },
      };
      const page = await open(withRoutes('inpage-test', table));
      assert.equal(posts(proxy.log).length, 0, 'nothing went upstream at page load');
      assert.deepEqual(await callMany(page, 2), Array(2).fill([200, 'srv']));
      assert.equal(posts(proxy.log).length, 2);
    } finally {
      await proxy.close();
    }
  });

  test('round-robin over two upstreams: 4 requests are exactly a 2 / b 2, in turn', async () => {
    const [a, b] = await Promise.all([recordingProxy(server.port), recordingProxy(server.port)]);
    try {
      const table = {
        upstreams: { a: upstream(a), b: upstream(b) },
        routes: { 'inpage-test': { targets: ['a', 'b'], balance: 'round-robin' } },
      };
      const page = await open(withRoutes('inpage-test', table));
      assert.deepEqual([posts(a.log).length, posts(b.log).length], [0, 0], 'nothing went upstream at page load');
      const answers = await callMany(page, 4);
      assert.deepEqual(
        answers.map(([, provider]) => provider),
        ['a', 'b', 'a', 'b'],
      );
      assert.deepEqual([posts(a.log).length, posts(b.log).length], [2, 2]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  test("an upstream that answers 400: ready resolves, and only the page's own request gets the 400", async () => {
    const refusing = await refusingUpstream();
    try {
      const table = { upstreams: { bad: upstream(refusing) }, routes: { 'inpage-test': { targets: ['bad'] } } };
      const { context, page } = await harness.openPage(withRoutes('inpage-test', table), { waitReady: false });
      contexts.push(context);
      const settled = await page.evaluate(() =>
        window.inpage.ready.then(
          () => 'resolved',
          (error: { status?: number; code?: string }) => `rejected: ${error.status} ${error.code}`,
        ),
      );
      assert.equal(settled, 'resolved');
      assert.equal(await page.evaluate(() => window.inpage.device.status), 'ready');
      assert.deepEqual(refusing.seen, [], 'nothing went upstream at page load');
      assert.deepEqual(await callMany(page, 1), [[400, 'bad']]);
      assert.deepEqual(refusing.seen, ['POST /v1/completions']);
    } finally {
      await refusing.close();
    }
  });

  test('a device that cannot load, with an upstream: nothing upstream at load, then exactly N', async () => {
    const proxy = await recordingProxy(server.port);
    try {
      const table = { upstreams: { srv: upstream(proxy) }, routes: { 'inpage-test': { targets: ['device', 'srv'] } } };
      const page = await open(withRoutes('/test-models/missing.gguf', table));
      assert.equal(await page.evaluate(() => window.inpage.device.status), 'failed');
      assert.equal(posts(proxy.log).length, 0, 'nothing went upstream at page load');
      assert.deepEqual(await callMany(page, 2), Array(2).fill([200, 'srv']));
      assert.equal(posts(proxy.log).length, 2);
    } finally {
      await proxy.close();
    }
  });

  test("a follower tab's readiness goes to the leader's engine, not upstream", async () => {
    const proxy = await recordingProxy(server.port);
    try {
      const table = { upstreams: { srv: upstream(proxy) }, routes: { 'inpage-test': { targets: ['srv'] } } };
      const path = withRoutes('inpage-test', table);
      const leader = await open(path);
      const follower = await leader.context().newPage();
      await follower.goto(harness.origin + path);
      await follower.evaluate(() => window.inpage.ready);
      assert.deepEqual(await Promise.all([leader, follower].map((tab) => tab.evaluate(() => window.inpage.role))), [
        'leader',
        'follower',
      ]);
      assert.equal(posts(proxy.log).length, 0, 'nothing went upstream at either page load');
      assert.deepEqual(await callMany(follower, 2), Array(2).fill([200, 'srv']));
      assert.equal(posts(proxy.log).length, 2);
    } finally {
      await proxy.close();
    }
  });
});
