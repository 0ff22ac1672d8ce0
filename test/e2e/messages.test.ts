/**
 * Anthropic's Messages API (`/v1/messages`, `/v1/messages/count_tokens`) through the real
 * clients, bundled into the test page: the Anthropic SDK (`messages.create` streamed and not,
 * `messages.stream`, a tool round trip, `countTokens`, its errors) and the AI SDK's Anthropic
 * provider (`generateText`, `streamText`), on `inpage-test` (its template concatenates the
 * messages' contents; greedy 'abc' answers 'defgh') and on `inpage-test-qwen3` (Qwen3's real
 * template: any user message answers `Hello, world! 你好 😀 𝔸 café.`).
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { INPAGE_TEST_QWEN3_CHAIN_TEXT } from '../fixtures/inpage-test-qwen3-spec';
import { usePage } from './page-fixture';
import { postFromPage, recordV1Fetches, takeV1Fetches } from './page-helpers';
import { readmeSnippet } from './readme-snippet';
import { loadSdk } from './sdk-scripts';

const fixture = usePage(undefined, async (page) => {
  await loadSdk(page, 'anthropic');
  await loadSdk(page, 'ai-sdk-anthropic');
  await recordV1Fetches(page);
});

const USAGE_ABC = { input_tokens: 3, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

describe('the Anthropic SDK on inpage-test', () => {
  beforeEach(() => takeV1Fetches(fixture.page));

  test('messages.create: abc answers defgh, stop_reason max_tokens, usage 3 in / 5 out', async () => {
    const message = await fixture.page.evaluate(async () => {
      const client = new window.Anthropic({ baseURL: location.origin, apiKey: 'x', dangerouslyAllowBrowser: true });
      // The SDK's types no longer list the samplers; the body carries them (greedy here).
      const greedy = <T>(body: T) => ({ ...body, temperature: 0 });
      const answer = await client.messages.create(
        greedy({ model: 'inpage-test', max_tokens: 5, messages: [{ role: 'user', content: 'abc' }] }),
      );
      return JSON.parse(JSON.stringify(answer));
    });
    assert.match(message.id, /^msg_/);
    assert.deepEqual(
      { ...message, id: 'msg' },
      {
        id: 'msg',
        type: 'message',
        role: 'assistant',
        model: 'inpage-test',
        content: [{ type: 'text', text: 'defgh' }],
        stop_reason: 'max_tokens',
        stop_sequence: null,
        usage: USAGE_ABC,
      },
    );
    assert.deepEqual((await takeV1Fetches(fixture.page)).calls, [
      { method: 'POST', path: '/v1/messages', status: 200 },
    ]);
  });

  test('stop_sequences: the text before the stop, stop_reason stop_sequence naming it', async () => {
    const message = await fixture.page.evaluate(async () => {
      const client = new window.Anthropic({ baseURL: location.origin, apiKey: 'x', dangerouslyAllowBrowser: true });
      // The SDK's types no longer list the samplers; the body carries them (greedy here).
      const greedy = <T>(body: T) => ({ ...body, temperature: 0 });
      return client.messages.create(
        greedy({
          model: 'inpage-test',
          max_tokens: 5,
          stop_sequences: ['fg'],
          messages: [{ role: 'user', content: 'abc' }],
        }),
      );
    });
    assert.deepEqual(
      [message.content, message.stop_reason, message.stop_sequence],
      [[{ type: 'text', text: 'de' }], 'stop_sequence', 'fg'],
    );
  });

  test('streamed: the named events in order, text deltas join to defgh, the final message has the totals', async () => {
    const result = await fixture.page.evaluate(async () => {
      const client = new window.Anthropic({ baseURL: location.origin, apiKey: 'x', dangerouslyAllowBrowser: true });
      const body = {
        model: 'inpage-test',
        max_tokens: 5,
        temperature: 0,
        messages: [{ role: 'user' as const, content: 'abc' }],
      };
      const types: string[] = [];
      const deltas: string[] = [];
      for await (const event of await client.messages.create({ ...body, stream: true })) {
        types.push(event.type);
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') deltas.push(event.delta.text);
      }
      const helper = client.messages.stream(body);
      const final = JSON.parse(JSON.stringify(await helper.finalMessage()));
      const raw = await fetch('/v1/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ ...body, stream: true }),
      });
      const text = await raw.text();
      const frames = text
        .split('\n\n')
        .filter((frame) => frame !== '')
        .map((frame) => {
          const [event, data] = frame.split('\n');
          const parsed = JSON.parse(data?.replace('data: ', '') ?? '{}');
          return { event: event?.replace('event: ', ''), type: parsed.type, usage: parsed.message?.usage };
        });
      return { types, deltas, final, frames, contentType: raw.headers.get('content-type') };
    });
    // The SDK's iterator skips pings; the raw stream has one after message_start.
    assert.deepEqual(
      [...new Set(result.types)],
      [
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ],
    );
    assert.equal(result.types.at(-1), 'message_stop');
    assert.match(result.contentType ?? '', /^text\/event-stream/);
    assert.deepEqual(
      result.frames.slice(0, 3).map((frame) => frame.event),
      ['message_start', 'ping', 'content_block_start'],
    );
    // message_start already counts the prompt (as Anthropic and llama-server do); output comes with message_delta.
    const start = result.frames[0]?.usage as
      { input_tokens: number; cache_read_input_tokens: number; output_tokens: number } | undefined;
    assert.deepEqual(
      [(start?.input_tokens ?? 0) + (start?.cache_read_input_tokens ?? 0), start?.output_tokens],
      [3, 0],
    );
    assert.ok(
      result.frames.every((frame) => frame.event === frame.type),
      'each event: line names its data type',
    );
    assert.equal(result.deltas.join(''), 'defgh');
    assert.deepEqual(result.final.content, [{ type: 'text', text: 'defgh' }]);
    assert.equal(result.final.stop_reason, 'max_tokens');
    // The same prompt again: llama-server's rule, input_tokens + cache_read_input_tokens is the prompt.
    const { input_tokens, cache_read_input_tokens, output_tokens } = result.final.usage;
    assert.deepEqual([input_tokens + cache_read_input_tokens, output_tokens], [3, 5]);
  });

  test('a tool round trip: a declared tool, a past tool_use and its tool_result; the answer is exact text', async () => {
    const message = await fixture.page.evaluate(async () => {
      const client = new window.Anthropic({ baseURL: location.origin, apiKey: 'x', dangerouslyAllowBrowser: true });
      // The SDK's types no longer list the samplers; the body carries them (greedy here).
      const greedy = <T>(body: T) => ({ ...body, temperature: 0 });
      // [user 'a', assistant: tool_use lookup, user: tool_result 'bc'] renders as 'abc' with this template.
      return client.messages.create(
        greedy({
          model: 'inpage-test',
          max_tokens: 5,
          tools: [
            {
              name: 'lookup',
              description: 'Looks a word up.',
              input_schema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
            },
          ],
          messages: [
            { role: 'user', content: 'a' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { word: 'b' } }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'bc' }] },
          ],
        }),
      );
    });
    assert.deepEqual([message.content, message.stop_reason], [[{ type: 'text', text: 'defgh' }], 'max_tokens']);
    assert.equal(message.usage.input_tokens + (message.usage.cache_read_input_tokens ?? 0), 3);
  });

  test('countTokens: the prompt as the engine renders it', async () => {
    const counted = await fixture.page.evaluate(async () => {
      const client = new window.Anthropic({ baseURL: location.origin, apiKey: 'x', dangerouslyAllowBrowser: true });
      const one = await client.messages.countTokens({
        model: 'inpage-test',
        messages: [{ role: 'user', content: 'abc' }],
      });
      const two = await client.messages.countTokens({
        model: 'inpage-test',
        system: [{ type: 'text', text: 'xy' }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'ab' },
              { type: 'text', text: 'c' },
            ],
          },
        ],
      });
      return [one, two];
    });
    // 'xy' + 'ab\nc': user text blocks join with '\n'.
    assert.deepEqual(counted, [{ input_tokens: 3 }, { input_tokens: 6 }]);
    assert.deepEqual((await takeV1Fetches(fixture.page)).calls, [
      { method: 'POST', path: '/v1/messages/count_tokens', status: 200 },
      { method: 'POST', path: '/v1/messages/count_tokens', status: 200 },
    ]);
  });

  test("errors in Anthropic's shape: the SDK's error classes, a 404 under /v1/messages/, an unknown model", async () => {
    const result = await fixture.page.evaluate(async () => {
      const client = new window.Anthropic({
        baseURL: location.origin,
        apiKey: 'x',
        dangerouslyAllowBrowser: true,
        maxRetries: 0,
      });
      const caught = async (run: () => Promise<unknown>) => {
        try {
          await run();
          return null;
        } catch (error) {
          const e = error as { name: string; status: number; error: unknown };
          return { name: e.name, status: e.status, body: e.error };
        }
      };
      return {
        missing: await caught(() =>
          // @ts-expect-error: max_tokens is required, and the endpoint says so.
          client.messages.create({ model: 'inpage-test', messages: [{ role: 'user', content: 'abc' }] }),
        ),
        model: await caught(() =>
          client.messages.create({ model: 'nope', max_tokens: 5, messages: [{ role: 'user', content: 'abc' }] }),
        ),
      };
    });
    assert.deepEqual(result.missing, {
      name: 'BadRequestError',
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: "Missing required parameter: 'max_tokens'." },
      },
    });
    assert.equal(result.model?.name, 'NotFoundError');
    assert.deepEqual((result.model?.body as { error: { type: string } }).error.type, 'not_found_error');
    const unknown = await postFromPage(fixture.page, '/v1/messages/nope', {});
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, {
      type: 'error',
      error: { type: 'not_found_error', message: 'Unknown request URL: POST /v1/messages/nope.' },
    });
    const openai = await postFromPage(fixture.page, '/v1/nope', {});
    assert.equal(
      (openai.body as { error: { code: string } }).error.code,
      'unknown_url',
      "the OpenAI routes' 404 is OpenAI's",
    );
  });
});

const WEATHER_SCHEMA = {
  type: 'object' as const,
  properties: {
    city: { type: 'string', minLength: 2, maxLength: 5 },
    unit: { enum: ['c', 'f'] },
    days: { type: 'integer', minimum: 3, maximum: 7 },
  },
  required: ['city', 'unit', 'days'],
  additionalProperties: false,
};

describe('forced tool choices on inpage-test (grammar-constrained, as strict tools on chat)', () => {
  test("tool_choice {type: 'tool'}: one tool_use whose input fits the schema, stop_reason tool_use, streamed and not", async () => {
    const result = await fixture.page.evaluate(async (schema) => {
      const client = new window.Anthropic({ baseURL: location.origin, apiKey: 'x', dangerouslyAllowBrowser: true });
      const body = {
        model: 'inpage-test',
        max_tokens: 1500,
        temperature: 0,
        tools: [{ name: 'get_weather', input_schema: schema }],
        tool_choice: { type: 'tool' as const, name: 'get_weather', disable_parallel_tool_use: true },
        messages: [{ role: 'user' as const, content: 'abc' }],
      };
      const whole = await client.messages.create(body);
      const json: string[] = [];
      const stream = client.messages.stream(body).on('inputJson', (partial) => void json.push(partial));
      const final = await stream.finalMessage();
      return { whole: JSON.parse(JSON.stringify(whole)), final: JSON.parse(JSON.stringify(final)), json };
    }, WEATHER_SCHEMA);
    // What the grammar leaves this byte model: its preferred byte wherever the schema allows one.
    const input = { city: '     ', unit: 'c', days: 3 };
    for (const message of [result.whole, result.final]) {
      assert.equal(message.stop_reason, 'tool_use');
      assert.equal(message.content.length, 1);
      assert.match(message.content[0].id, /^toolu_/);
      assert.deepEqual([message.content[0].type, message.content[0].name], ['tool_use', 'get_weather']);
      assert.deepEqual(message.content[0].input, input);
    }
    assert.ok(result.json.length > 1, 'the arguments stream in pieces');
    assert.equal(result.json.join(''), JSON.stringify(input));
  });
});

describe('the API key on the Anthropic routes', () => {
  test('x-api-key or Authorization: Bearer; a missing key is an authentication_error; the OpenAI routes do not read x-api-key', async () => {
    const { page: keyed, context } = await fixture.harness.openPage('/?model=inpage-test&api_key=sk-ant-1');
    await loadSdk(keyed, 'anthropic');
    const result = await keyed.evaluate(async () => {
      const body = JSON.stringify({
        model: 'inpage-test',
        max_tokens: 2,
        messages: [{ role: 'user', content: 'abc' }],
      });
      const post = async (path: string, headers: Record<string, string>) => {
        const response = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
        });
        return { status: response.status, body: await response.json() };
      };
      const sdk = new window.Anthropic({ baseURL: location.origin, apiKey: 'sk-ant-1', dangerouslyAllowBrowser: true });
      const bearer = new window.Anthropic({
        baseURL: location.origin,
        authToken: 'sk-ant-1',
        dangerouslyAllowBrowser: true,
      });
      const message = { model: 'inpage-test', max_tokens: 2, messages: [{ role: 'user' as const, content: 'abc' }] };
      return {
        missing: await post('/v1/messages', {}),
        wrong: (await post('/v1/messages', { 'x-api-key': 'nope' })).status,
        apiKey: (await sdk.messages.create(message)).usage.output_tokens,
        authToken: (await bearer.messages.create(message)).usage.output_tokens,
        openai: (await post('/v1/chat/completions', { 'x-api-key': 'sk-ant-1' })).status,
      };
    });
    await context.close();
    assert.equal(result.missing.status, 401);
    assert.equal(result.missing.body.error.type, 'authentication_error');
    assert.deepEqual([result.wrong, result.apiKey, result.authToken, result.openai], [401, 2, 2, 401]);
  });
});

test("docs/messages.md's example: defgh, max_tokens, 3 input tokens", async () => {
  const snippet = readmeSnippet('messages-example');
  const body = `const { Anthropic } = window;\n${snippet}\nreturn JSON.parse(JSON.stringify({ message, input_tokens }));`;
  const { message, input_tokens } = (await fixture.page.evaluate(`(async () => {\n${body}\n})()`)) as {
    message: { content: unknown; stop_reason: string };
    input_tokens: number;
  };
  assert.deepEqual(
    [message.content, message.stop_reason, input_tokens],
    [[{ type: 'text', text: 'defgh' }], 'max_tokens', 3],
  );
});

describe("the AI SDK's Anthropic provider on inpage-test", () => {
  beforeEach(() => takeV1Fetches(fixture.page));

  test('generateText and streamText: defgh, finishReason length, 3 in / 5 out; x-api-key to /v1/messages', async () => {
    const result = await fixture.page.evaluate(async () => {
      const { generateText, streamText, createAnthropic } = window.AISDKAnthropic;
      const model = createAnthropic({ baseURL: location.origin + '/v1', apiKey: 'x' })('inpage-test');
      const options = { model, prompt: 'abc', maxOutputTokens: 5, temperature: 0 };
      const whole = await generateText(options);
      const errors: string[] = [];
      const stream = streamText({ ...options, onError: ({ error }) => void errors.push(String(error)) });
      const deltas: string[] = [];
      for await (const delta of stream.textStream) deltas.push(delta);
      return {
        whole: [whole.text, whole.finishReason, whole.usage.inputTokens, whole.usage.outputTokens],
        streamed: [
          deltas.join(''),
          await stream.finishReason,
          (await stream.usage).inputTokens,
          (await stream.usage).outputTokens,
        ],
        errors,
      };
    });
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.whole, ['defgh', 'length', 3, 5]);
    assert.deepEqual(result.streamed, ['defgh', 'length', 3, 5]);
    assert.deepEqual((await takeV1Fetches(fixture.page)).calls, [
      { method: 'POST', path: '/v1/messages', status: 200 },
      { method: 'POST', path: '/v1/messages', status: 200 },
    ]);
  });
});

describe('both clients on inpage-test-qwen3 (Qwen3 vocabulary and template)', () => {
  before(() => fixture.page.evaluate(() => window.inpage.load('/models/inpage-test-qwen3.gguf')));

  test('the Anthropic SDK, streamed and not, and countTokens: the chain, end_turn, 9 in / 13 out', async () => {
    const result = await fixture.page.evaluate(async () => {
      const client = new window.Anthropic({ baseURL: location.origin, apiKey: 'x', dangerouslyAllowBrowser: true });
      const body = {
        model: 'inpage-test-qwen3',
        max_tokens: 40,
        temperature: 0,
        messages: [{ role: 'user' as const, content: 'abc' }],
      };
      const prompt = (usage: { input_tokens: number; cache_read_input_tokens: number | null }) =>
        usage.input_tokens + (usage.cache_read_input_tokens ?? 0);
      const whole = await client.messages.create(body);
      const deltas: string[] = [];
      const stream = client.messages.stream(body).on('text', (text) => void deltas.push(text));
      const final = await stream.finalMessage();
      const counted = await client.messages.countTokens({ model: body.model, messages: body.messages });
      const raw = await fetch('/v1/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ ...body, stream: true }),
      });
      const startFrame = (await raw.text()).split('\n\n')[0]?.split('\n')[1]?.slice('data: '.length) ?? '{}';
      const started = (JSON.parse(startFrame) as { message: { usage: Parameters<typeof prompt>[0] } }).message.usage;
      return {
        started: prompt(started),
        whole: [whole.content, whole.stop_reason, prompt(whole.usage), whole.usage.output_tokens],
        streamed: [deltas.join(''), final.stop_reason, prompt(final.usage), final.usage.output_tokens],
        counted,
        split: deltas.some((delta) => delta.includes('\uFFFD')),
      };
    });
    assert.deepEqual(result.whole, [[{ type: 'text', text: INPAGE_TEST_QWEN3_CHAIN_TEXT }], 'end_turn', 9, 13]);
    assert.deepEqual(result.streamed, [INPAGE_TEST_QWEN3_CHAIN_TEXT, 'end_turn', 9, 13]);
    assert.deepEqual(result.counted, { input_tokens: 9 });
    assert.equal(result.started, 9, "message_start's usage counts the prompt");
    assert.equal(result.split, false, 'no U+FFFD mid-stream');
  });

  test("the AI SDK's Anthropic provider: generateText and streamText answer the chain, finishReason stop", async () => {
    const result = await fixture.page.evaluate(async () => {
      const { generateText, streamText, createAnthropic } = window.AISDKAnthropic;
      const model = createAnthropic({ baseURL: location.origin + '/v1', apiKey: 'x' })('inpage-test-qwen3');
      const options = { model, prompt: 'abc', maxOutputTokens: 40, temperature: 0 };
      const whole = await generateText(options);
      const stream = streamText(options);
      let text = '';
      for await (const delta of stream.textStream) text += delta;
      return [whole.text, whole.finishReason, text, await stream.finishReason];
    });
    assert.deepEqual(result, [INPAGE_TEST_QWEN3_CHAIN_TEXT, 'stop', INPAGE_TEST_QWEN3_CHAIN_TEXT, 'stop']);
  });
});
