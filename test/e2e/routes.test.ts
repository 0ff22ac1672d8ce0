/**
 * Routes in front of the in-page engine and Debian's real `llama-server` (test/e2e/llama-server.ts),
 * both on `inpage-test`: native llama.cpp runs it exactly, so 'abc' answers 'defgh' on either
 * side and fallback is asserted on the text itself. Each case opens its own context (the route
 * table is per page); skipped, with what is missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright';
import { startHarness, type Harness } from './harness';
import { recordingProxy, serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { readmeSnippet } from './readme-snippet';
import { loadSdk } from './sdk-scripts';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const ABC = { prompt: 'abc', max_tokens: 5, temperature: 0 };
const upstream = (server: { baseURL: string }, model = 'native-inpage-test') => ({ baseURL: server.baseURL, model });
const withRoutes = (model: string, table: unknown) =>
  `/?model=${encodeURIComponent(model)}&routes=${encodeURIComponent(`data:application/json,${JSON.stringify(table)}`)}`;

interface Answer {
  status: number;
  provider: string | null;
  body: Record<string, unknown>;
}

function call(page: Page, body: unknown, path = '/v1/completions'): Promise<Answer> {
  return page.evaluate(
    async ({ body, path }) => {
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        provider: response.headers.get('x-inpage-provider'),
        body: await response.json(),
      };
    },
    { body, path },
  );
}

const textOf = (answer: Answer) => {
  const choices = answer.body['choices'];
  return Array.isArray(choices) ? (choices[0] as { text?: string }).text : undefined;
};

describe('routes to a real llama-server', { skip: skip ?? false }, () => {
  let harness: Harness;
  let server: LlamaServer;
  const pages: Array<{ close(): Promise<void> }> = [];
  const open = async (path: string, waitReady = true) => {
    const { context, page } = await harness.openPage(path, { waitReady });
    pages.push(context);
    return page;
  };

  before(async () => {
    [harness, server] = await Promise.all([startHarness(), startLlamaServer()]);
  });
  after(async () => {
    for (const context of pages) await context.close();
    await Promise.all([harness?.close(), server?.stop()]);
  });

  test('a bad route table makes ready reject at start, naming where', async () => {
    const page = await open(withRoutes('inpage-test', { routes: { x: { targets: ['device', 'nope'] } } }), false);
    const error = await page.evaluate(() =>
      window.inpage.ready.then(
        () => null,
        (e: { code?: string; message?: string; param?: string }) => ({
          code: e.code,
          message: e.message,
          param: e.param,
        }),
      ),
    );
    assert.deepEqual(error, {
      code: 'invalid_route_table',
      param: 'routes',
      message: "Invalid route table at 'routes.x.targets[1]': no upstream is named 'nope' (known: device).",
    });
  });

  test('in-page first, then the upstream when the in-page model cannot load; only device is a 503 with nothing sent', async () => {
    const proxy = await recordingProxy(server.port);
    try {
      const table = { upstreams: { srv: upstream(proxy) }, routes: { 'inpage-test': { targets: ['device', 'srv'] } } };
      const page = await open(withRoutes('/test-models/missing.gguf', table));
      const device = await page.evaluate(() => ({
        status: window.inpage.device.status,
        code: window.inpage.device.error?.code,
      }));
      assert.deepEqual(device, { status: 'failed', code: 'model_download_failed' });
      const answer = await call(page, { model: 'inpage-test', ...ABC });
      assert.equal(answer.status, 200);
      assert.equal(answer.provider, 'srv');
      assert.equal(textOf(answer), 'defgh');
      // The upstream's own answer: llama-server names its model file.
      assert.equal(answer.body['model'], '/tmp/inpage-llm-test/inpage-test.gguf');
      const forwarded = proxy.log.find((entry) => entry.method === 'POST');
      assert.deepEqual(JSON.parse(forwarded?.request.toString() ?? '{}'), { model: 'native-inpage-test', ...ABC });
      const sent = proxy.log.length;
      const only = await call(page, { model: 'inpage-test', ...ABC, provider: { only: ['device'] } });
      assert.equal(only.status, 503);
      assert.equal(only.provider, 'device');
      assert.equal((only.body['error'] as { code: string }).code, 'model_load_failed');
      assert.equal(proxy.log.length, sent, 'nothing went to the upstream');
    } finally {
      await proxy.close();
    }
  });

  test('upstream first, then in-page when the upstream is stopped mid-test: the same text', async () => {
    const own = await startLlamaServer();
    const table = { upstreams: { srv: upstream(own) }, routes: { 'inpage-test': { targets: ['srv', 'device'] } } };
    const page = await open(withRoutes('inpage-test', table));
    const remote = await call(page, { model: 'inpage-test', ...ABC });
    await own.stop();
    const started = Date.now();
    const local = await call(page, { model: 'inpage-test', ...ABC });
    assert.deepEqual([remote.status, remote.provider, local.status, local.provider], [200, 'srv', 200, 'device']);
    assert.equal(textOf(local), textOf(remote));
    assert.equal(textOf(local), 'defgh');
    assert.ok(Date.now() - started < 3000, 'no wait beyond the connection error');
  });

  test('two upstreams round-robin; one killed: the other answers every request', async () => {
    const [a, b] = await Promise.all([startLlamaServer(), startLlamaServer()]);
    try {
      const table = {
        upstreams: { a: upstream(a), b: upstream(b) },
        routes: { pair: { targets: ['a', 'b'], balance: 'round-robin' } },
      };
      const page = await open(withRoutes('inpage-test', table));
      const spread: Array<string | null> = [];
      for (let i = 0; i < 4; i++) spread.push((await call(page, { model: 'pair', ...ABC })).provider);
      assert.deepEqual(spread, ['a', 'b', 'a', 'b']);
      await b.stop();
      const after: Array<[string | null, string | undefined]> = [];
      for (let i = 0; i < 4; i++) {
        const answer = await call(page, { model: 'pair', ...ABC });
        after.push([answer.provider, textOf(answer)]);
      }
      assert.deepEqual(after, Array(4).fill(['a', 'defgh']));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  test('an SSE stream is passed through byte for byte; the abort reaches the upstream and frees its slot', async () => {
    const proxy = await recordingProxy(server.port);
    try {
      const table = { upstreams: { srv: upstream(proxy) }, routes: { remote: { targets: ['srv'] } } };
      const page = await open(withRoutes('inpage-test', table));
      const got = await page.evaluate(async () => {
        const response = await fetch('/v1/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'remote', prompt: 'abc', max_tokens: 8, temperature: 0, stream: true }),
        });
        return {
          type: response.headers.get('content-type'),
          provider: response.headers.get('x-inpage-provider'),
          bytes: [...new Uint8Array(await response.arrayBuffer())],
        };
      });
      assert.equal(got.provider, 'srv');
      assert.match(got.type ?? '', /text\/event-stream/);
      const sent = proxy.log.find((entry) => entry.method === 'POST');
      assert.ok(sent);
      assert.deepEqual(Buffer.from(got.bytes), sent.answer);
      assert.match(sent.answer.toString(), /data: \[DONE\]/);

      const slots = async () =>
        (
          (await (await fetch(`http://127.0.0.1:${server.port}/slots`)).json()) as Array<{ is_processing: boolean }>
        ).some((slot) => slot.is_processing);
      await page.evaluate(async () => {
        const controller = new AbortController();
        const response = await fetch('/v1/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'remote', prompt: 'abc', max_tokens: 3500, ignore_eos: true, stream: true }),
          signal: controller.signal,
        });
        const reader = response.body?.getReader();
        await reader?.read();
        (window as unknown as { abortRoute: () => void }).abortRoute = () => controller.abort();
      });
      assert.equal(await slots(), true, 'the upstream is generating');
      await page.evaluate(() => (window as unknown as { abortRoute: () => void }).abortRoute());
      const deadline = Date.now() + 3000;
      while ((await slots()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(await slots(), false, 'llama-server freed the slot after the abort');
    } finally {
      await proxy.close();
    }
  });

  test('parameter policy, provider errors, and /v1/models listing the routes', async () => {
    const table = {
      upstreams: { srv: upstream(server) },
      routes: {
        tight: {
          targets: ['srv', 'device'],
          params: { overrides: { max_tokens: 2 }, defaults: { temperature: 0 }, deny: ['logit_bias'] },
        },
      },
    };
    const page = await open(withRoutes('inpage-test', table));
    const short = await call(page, { model: 'tight', prompt: 'abc', max_tokens: 5 });
    assert.deepEqual([short.status, short.provider, textOf(short)], [200, 'srv', 'de']);
    const onDevice = await call(page, { model: 'tight', prompt: 'abc', max_tokens: 5, provider: 'device' });
    assert.deepEqual([onDevice.status, onDevice.provider, textOf(onDevice)], [200, 'device', 'de']);
    const denied = await call(page, { model: 'tight', prompt: 'abc', logit_bias: { 1: 1 } });
    assert.deepEqual([denied.status, (denied.body['error'] as { code: string }).code], [400, 'parameter_denied']);
    const unknown = await call(page, { model: 'tight', prompt: 'abc', provider: { only: ['elsewhere'] } });
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body['error'], {
      message: "Unknown provider 'elsewhere' in 'provider.only': this route's providers are srv, device.",
      type: 'invalid_request_error',
      param: 'provider.only',
      code: 'provider_unknown_provider',
    });
    const ids = await page.evaluate(async () =>
      ((await (await fetch('/v1/models')).json()) as { data: Array<{ id: string }> }).data.map((m) => m.id),
    );
    assert.deepEqual(ids, ['inpage-test', 'tight']);
  });

  test('the openai SDK and the AI SDK run unchanged through a route to the upstream', async () => {
    const table = { upstreams: { srv: upstream(server) }, routes: { remote: { targets: ['srv'] } } };
    const page = await open(withRoutes('inpage-test', table));
    await loadSdk(page, 'ai-sdk');
    const result = await page.evaluate(async () => {
      const openai = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'x',
        dangerouslyAllowBrowser: true,
      });
      const completion = await openai.completions.create({
        model: 'remote',
        prompt: 'abc',
        max_tokens: 5,
        temperature: 0,
      });
      const stream = await openai.completions.create({
        model: 'remote',
        prompt: 'abc',
        max_tokens: 5,
        temperature: 0,
        stream: true,
      });
      let streamed = '';
      for await (const chunk of stream) streamed += chunk.choices[0]?.text ?? '';
      const { generateText, createOpenAI } = window.AISDK;
      const ai = createOpenAI({ baseURL: location.origin + '/v1', apiKey: 'x' });
      const chat = await generateText({ model: ai.chat('remote'), prompt: 'abc', maxOutputTokens: 5, temperature: 0 });
      return { text: completion.choices[0]?.text, streamed, chat: chat.text };
    });
    assert.deepEqual(result, { text: 'defgh', streamed: 'defgh', chat: 'defgh' });
  });

  test("docs/routes.md's worked example: in-page, and the server when the in-page model cannot load", async () => {
    const table = JSON.parse(
      readmeSnippet('routes-table').replace('http://127.0.0.1:8080/v1', server.baseURL),
    ) as unknown;
    const run = (page: Page) =>
      page.evaluate(
        `(async () => {\n${readmeSnippet('routes-request')}\nreturn { provider, text: choices[0].text };\n})()`,
      );
    assert.deepEqual(await run(await open(withRoutes('inpage-test', table))), { provider: 'device', text: 'defgh' });
    assert.deepEqual(await run(await open(withRoutes('/test-models/missing.gguf', table))), {
      provider: 'srv',
      text: 'defgh',
    });
  });
});
