/**
 * Forwarding on the routes that routes.test.ts does not take through an upstream: embeddings,
 * responses (JSON, SSE, the openai SDK and the AI SDK's default model) and chat streamed, each
 * through a route to Debian's real `llama-server` (started with `--embeddings --pooling mean`,
 * which still completes) and on the device, asserting the same exact answer on both sides; and
 * `/v1/models`, made in the page (`X-Inpage-Provider: device`, no upstream asked).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright';
import { startHarness, type Harness } from './harness';
import { serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { loadSdk } from './sdk-scripts';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const withRoutes = (table: unknown) =>
  `/?model=inpage-test&routes=${encodeURIComponent(`data:application/json,${JSON.stringify(table)}`)}`;

/** 320 floats, 1/sqrt(2) at 97 and 98: the mean-pooled unit embedding of "ab" on `inpage-test`. */
function abVector(): number[] {
  const vector = new Array<number>(320).fill(0);
  vector[97] = vector[98] = Math.SQRT1_2;
  return vector;
}

const largestDifference = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length ? a.reduce((max, x, i) => Math.max(max, Math.abs(x - (b[i] ?? NaN))), 0) : Infinity;

describe('forwarding every route to a real llama-server', { skip: skip ?? false }, () => {
  let harness: Harness;
  let server: LlamaServer;
  let page: Page;

  before(async () => {
    [harness, server] = await Promise.all([
      startHarness(),
      startLlamaServer({ args: ['--embeddings', '--pooling', 'mean'] }),
    ]);
    const table = {
      upstreams: { srv: { baseURL: server.baseURL, model: 'native-inpage-test' } },
      routes: { remote: { targets: ['srv'] }, local: { targets: ['device'] } },
    };
    ({ page } = await harness.openPage(withRoutes(table)));
    await loadSdk(page, 'ai-sdk');
  });
  after(async () => {
    await Promise.all([harness?.close(), server?.stop()]);
  });

  const post = (path: string, body: unknown) =>
    page.evaluate(
      async ({ path, body }) => {
        const response = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const text = await response.text();
        return { status: response.status, provider: response.headers.get('x-inpage-provider'), text };
      },
      { path, body },
    );

  test('embeddings: the same vectors through the route as on the device, the upstream asked for its own model id', async () => {
    const answers = {
      remote: await post('/v1/embeddings', { model: 'remote', input: ['ab', 'c'], encoding_format: 'float' }),
      local: await post('/v1/embeddings', { model: 'local', input: ['ab', 'c'], encoding_format: 'float' }),
    };
    assert.deepEqual(
      [answers.remote.status, answers.remote.provider, answers.local.status, answers.local.provider],
      [200, 'srv', 200, 'device'],
    );
    const [remote, local] = [answers.remote, answers.local].map(
      (answer) =>
        JSON.parse(answer.text) as {
          model: string;
          data: Array<{ index: number; embedding: number[] }>;
          usage: unknown;
        },
    );
    assert.ok(remote && local);
    // llama-server echoes the model it was asked for: the upstream's id, not the route's.
    assert.equal(remote.model, 'native-inpage-test');
    assert.deepEqual(remote.usage, { prompt_tokens: 3, total_tokens: 3 });
    assert.deepEqual(local.usage, remote.usage);
    assert.deepEqual(
      remote.data.map((d) => d.index),
      [0, 1],
    );
    const ab = largestDifference(remote.data[0]?.embedding ?? [], abVector());
    assert.ok(ab <= 1e-6, `remote "ab": largest difference from the exact vector ${ab}`);
    for (const i of [0, 1]) {
      const difference = largestDifference(remote.data[i]?.embedding ?? [], local.data[i]?.embedding ?? []);
      assert.ok(difference <= 1e-6, `input ${i}: remote and device differ by ${difference}`);
    }
  });

  test('responses, JSON and SSE, through the route: the text the device answers', async () => {
    const body = { input: 'abc', max_output_tokens: 5, temperature: 0 };
    const outputText = (text: string) =>
      (JSON.parse(text) as { output: Array<{ content?: Array<{ text?: string }> }> }).output
        .flatMap((item) => item.content ?? [])
        .map((part) => part.text ?? '')
        .join('');
    const remote = await post('/v1/responses', { ...body, model: 'remote' });
    const local = await post('/v1/responses', { ...body, model: 'local' });
    assert.deepEqual([remote.status, remote.provider, local.provider], [200, 'srv', 'device']);
    assert.equal(outputText(remote.text), 'defgh');
    assert.equal(outputText(local.text), 'defgh');
    const streamed = await post('/v1/responses', { ...body, model: 'remote', stream: true });
    assert.deepEqual([streamed.status, streamed.provider], [200, 'srv']);
    const events = streamed.text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string });
    const deltas = events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta);
    assert.equal(deltas.join(''), 'defgh');
    assert.equal(events.at(-1)?.type, 'response.completed');
  });

  test("the openai SDK (responses, chat streamed) and the AI SDK's default model (Responses API) through the route", async () => {
    const result = await page.evaluate(async () => {
      const openai = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'x',
        dangerouslyAllowBrowser: true,
      });
      const texts: Record<string, string> = {};
      for (const model of ['remote', 'local']) {
        const response = await openai.responses.create({ model, input: 'abc', max_output_tokens: 5, temperature: 0 });
        let chat = '';
        const stream = await openai.chat.completions.create({
          model,
          messages: [{ role: 'user', content: 'abc' }],
          max_tokens: 5,
          temperature: 0,
          stream: true,
        });
        for await (const chunk of stream) chat += chunk.choices[0]?.delta?.content ?? '';
        const { generateText, streamText, createOpenAI } = window.AISDK;
        const ai = createOpenAI({ baseURL: location.origin + '/v1', apiKey: 'x' });
        const generated = await generateText({ model: ai(model), prompt: 'abc', maxOutputTokens: 5, temperature: 0 });
        let aiStreamed = '';
        for await (const delta of streamText({ model: ai(model), prompt: 'abc', maxOutputTokens: 5, temperature: 0 })
          .textStream)
          aiStreamed += delta;
        texts[model] = [response.output_text, chat, generated.text, aiStreamed].join(' ');
      }
      return texts;
    });
    assert.deepEqual(result, { remote: 'defgh defgh defgh defgh', local: 'defgh defgh defgh defgh' });
  });

  test('/v1/models lists the union of the routes, made in the page: X-Inpage-Provider device', async () => {
    const result = await page.evaluate(async () => {
      const list = await fetch('/v1/models');
      const one = await fetch('/v1/models/remote');
      const missing = await fetch('/v1/models/elsewhere');
      return {
        providers: [list, one, missing].map((response) => response.headers.get('x-inpage-provider')),
        ids: ((await list.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id),
        one: (await one.json()) as unknown,
        missing: missing.status,
      };
    });
    assert.deepEqual(result.providers, ['device', 'device', 'device']);
    assert.deepEqual(result.ids, ['inpage-test', 'remote', 'local']);
    assert.deepEqual(result.one, {
      id: 'remote',
      object: 'model',
      created: 0,
      owned_by: 'inpage-llm-route',
      targets: ['srv'],
    });
    assert.equal(result.missing, 404);
  });
});
