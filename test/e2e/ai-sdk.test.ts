/**
 * The Vercel AI SDK (`ai` + `@ai-sdk/openai`) against the Service Worker, bundled into the test
 * page, on `inpage-test` (its chat template concatenates the messages' contents; greedy decoding
 * continues the alphabet, so 'abc' answers 'defgh' in 5 tokens). `createOpenAI(...)(id)` calls
 * `/v1/responses`; `.chat(id)` calls `/v1/chat/completions`. The same page then loads
 * `inpage-test-qwen3` (Qwen3's real vocabulary and chat template), whose greedy answer to any
 * user message is `Hello, world! 你好 😀 𝔸 café.`, through both APIs, streamed and not.
 */
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { INPAGE_TEST_QWEN3_CHAIN_TEXT } from '../fixtures/inpage-test-qwen3-spec';
import { usePage } from './page-fixture';
import { recordV1Fetches, takeV1Fetches } from './page-helpers';
import { loadSdk } from './sdk-scripts';

const fixture = usePage(undefined, async (page) => {
  await loadSdk(page, 'ai-sdk');
  await recordV1Fetches(page);
});

for (const api of ['responses', 'chat'] as const) {
  const path = api === 'responses' ? '/v1/responses' : '/v1/chat/completions';

  describe(`AI SDK, ${api === 'responses' ? 'createOpenAI(...)(id): Responses API' : '.chat(id): chat completions'}`, () => {
    // A test that failed before reading its requests leaves them in the log.
    beforeEach(() => takeV1Fetches(fixture.page));

    test('generateText: prompt abc answers defgh, 3 in / 5 out', async () => {
      const result = await fixture.page.evaluate(async (api) => {
        const { generateText, createOpenAI } = window.AISDK;
        const openai = createOpenAI({ baseURL: location.origin + '/v1', apiKey: 'x' });
        const model = api === 'responses' ? openai('inpage-test') : openai.chat('inpage-test');
        const answer = await generateText({ model, prompt: 'abc', maxOutputTokens: 5, temperature: 0 });
        return {
          text: answer.text,
          finishReason: answer.finishReason,
          input: answer.usage.inputTokens,
          output: answer.usage.outputTokens,
        };
      }, api);
      assert.deepEqual(result, { text: 'defgh', finishReason: 'length', input: 3, output: 5 });
      assert.deepEqual((await takeV1Fetches(fixture.page)).calls, [{ method: 'POST', path, status: 200 }]);
    });

    test('streamText: the text deltas join to defgh', async () => {
      const result = await fixture.page.evaluate(async (api) => {
        const { streamText, createOpenAI } = window.AISDK;
        const openai = createOpenAI({ baseURL: location.origin + '/v1', apiKey: 'x' });
        const model = api === 'responses' ? openai('inpage-test') : openai.chat('inpage-test');
        const errors: string[] = [];
        const stream = streamText({
          model,
          prompt: 'abc',
          maxOutputTokens: 5,
          temperature: 0,
          onError: ({ error }) => void errors.push(String(error)),
        });
        const deltas: string[] = [];
        for await (const delta of stream.textStream) deltas.push(delta);
        return { deltas, errors, finishReason: await stream.finishReason, output: (await stream.usage).outputTokens };
      }, api);
      assert.deepEqual(result.errors, []);
      assert.equal(result.deltas.join(''), 'defgh');
      assert.equal(result.finishReason, 'length');
      assert.equal(result.output, 5);
      assert.deepEqual((await takeV1Fetches(fixture.page)).calls, [{ method: 'POST', path, status: 200 }]);
    });

    test('provider options that cannot change the answer (store, metadata, user, service tier, cache key, safety id, verbosity) are accepted', async () => {
      const result = await fixture.page.evaluate(async (api) => {
        const { generateText, createOpenAI } = window.AISDK;
        const openai = createOpenAI({ baseURL: location.origin + '/v1', apiKey: 'x' });
        const model = api === 'responses' ? openai('inpage-test') : openai.chat('inpage-test');
        const openaiOptions = {
          store: false,
          metadata: { run: 'e2e' },
          user: 'u-1',
          serviceTier: 'auto',
          promptCacheKey: 'k-1',
          safetyIdentifier: 's-1',
          parallelToolCalls: false,
          textVerbosity: 'low',
        };
        const answer = await generateText({
          model,
          prompt: 'abc',
          maxOutputTokens: 5,
          temperature: 0,
          providerOptions: { openai: openaiOptions },
        });
        return answer.text;
      }, api);
      assert.equal(result, 'defgh');
      const { calls, bodies } = await takeV1Fetches(fixture.page);
      assert.deepEqual(calls, [{ method: 'POST', path, status: 200 }]);
      const body = bodies[0] ?? {};
      assert.deepEqual(
        [body.store, body.metadata, body.user, body.service_tier, body.prompt_cache_key, body.safety_identifier],
        [false, { run: 'e2e' }, 'u-1', 'auto', 'k-1', 's-1'],
      );
      assert.equal(api === 'responses' ? (body.text as { verbosity?: string }).verbosity : body.verbosity, 'low');
    });

    test('tools: a declared tool, a past tool call and its result round-trip; the answer is exact text', async () => {
      const result = await fixture.page.evaluate(async (api) => {
        const { generateText, createOpenAI, jsonSchema, tool } = window.AISDK;
        const openai = createOpenAI({ baseURL: location.origin + '/v1', apiKey: 'x' });
        const model = api === 'responses' ? openai('inpage-test') : openai.chat('inpage-test');
        const lookup = tool({
          description: 'Looks a word up.',
          inputSchema: jsonSchema<{ word: string }>({
            type: 'object',
            properties: { word: { type: 'string' } },
            required: ['word'],
            additionalProperties: false,
          }),
          execute: async ({ word }) => word,
        });
        // [user 'a', assistant: a call of lookup, tool: 'bc'] renders as 'abc' with this template.
        const answer = await generateText({
          model,
          tools: { lookup },
          maxOutputTokens: 5,
          temperature: 0,
          messages: [
            { role: 'user', content: 'a' },
            {
              role: 'assistant',
              content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup', input: { word: 'b' } }],
            },
            {
              role: 'tool',
              content: [
                {
                  type: 'tool-result',
                  toolCallId: 'call_1',
                  toolName: 'lookup',
                  output: { type: 'text', value: 'bc' },
                },
              ],
            },
          ],
        });
        return {
          text: answer.text,
          toolCalls: answer.toolCalls.length,
          input: answer.usage.inputTokens,
          output: answer.usage.outputTokens,
        };
      }, api);
      assert.deepEqual(result, { text: 'defgh', toolCalls: 0, input: 3, output: 5 });
      const { calls, bodies } = await takeV1Fetches(fixture.page);
      assert.deepEqual(calls, [{ method: 'POST', path, status: 200 }]);
      // What the SDK sent: the tool, the past call and its output, each in this API's own shape.
      const body = bodies[0] ?? {};
      if (api === 'responses') {
        assert.deepEqual(
          (body.tools as Array<{ name: string }>).map((t) => t.name),
          ['lookup'],
        );
        assert.deepEqual(
          (body.input as Array<{ type?: string; role?: string }>).map((item) => item.type ?? item.role),
          ['user', 'function_call', 'function_call_output'],
        );
      } else {
        assert.deepEqual(
          (body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name),
          ['lookup'],
        );
        assert.deepEqual(
          (body.messages as Array<{ role: string }>).map((m) => m.role),
          ['user', 'assistant', 'tool'],
        );
      }
    });
  });
}

describe('AI SDK, embed: /v1/embeddings', () => {
  beforeEach(() => takeV1Fetches(fixture.page));

  test('embed("ab") is the unit vector with 1/sqrt(2) at 97 and 98 (inpage-test\'s one-hot hidden states)', async () => {
    const result = await fixture.page.evaluate(async () => {
      const { embed, createOpenAI } = window.AISDK;
      const openai = createOpenAI({ baseURL: location.origin + '/v1', apiKey: 'x' });
      const answer = await embed({ model: openai.embedding('inpage-test'), value: 'ab' });
      return { embedding: answer.embedding, tokens: answer.usage.tokens };
    });
    assert.equal(result.embedding.length, 320);
    result.embedding.forEach((value, index) =>
      assert.ok(Math.abs(value - (index === 97 || index === 98 ? Math.SQRT1_2 : 0)) < 1e-5, `index ${index}: ${value}`),
    );
    assert.equal(result.tokens, 2);
    assert.deepEqual((await takeV1Fetches(fixture.page)).calls, [
      { method: 'POST', path: '/v1/embeddings', status: 200 },
    ]);
  });
});

describe('AI SDK on inpage-test-qwen3 (Qwen3 vocabulary and template), both APIs', () => {
  before(() => fixture.page.evaluate(() => window.inpage.load('/models/inpage-test-qwen3.gguf')));
  beforeEach(() => takeV1Fetches(fixture.page));

  test('generateText and streamText answer the chain exactly, 9 prompt tokens, ending with stop', async () => {
    const result = await fixture.page.evaluate(async () => {
      const { generateText, streamText, createOpenAI } = window.AISDK;
      const openai = createOpenAI({ baseURL: location.origin + '/v1', apiKey: 'x' });
      const answers = [];
      for (const model of [openai('inpage-test-qwen3'), openai.chat('inpage-test-qwen3')]) {
        const whole = await generateText({ model, prompt: 'abc', temperature: 0 });
        const errors: string[] = [];
        const stream = streamText({
          model,
          prompt: 'abc',
          temperature: 0,
          onError: ({ error }) => void errors.push(String(error)),
        });
        const deltas: string[] = [];
        for await (const delta of stream.textStream) deltas.push(delta);
        answers.push({
          text: whole.text,
          finishReason: whole.finishReason,
          input: whole.usage.inputTokens,
          streamed: deltas.join(''),
          streamFinish: await stream.finishReason,
          errors,
        });
      }
      return answers;
    });
    for (const answer of result)
      assert.deepEqual(answer, {
        text: INPAGE_TEST_QWEN3_CHAIN_TEXT,
        finishReason: 'stop',
        input: 9,
        streamed: INPAGE_TEST_QWEN3_CHAIN_TEXT,
        streamFinish: 'stop',
        errors: [],
      });
    assert.deepEqual(
      (await takeV1Fetches(fixture.page)).calls.map((call) => [call.path, call.status]),
      [
        ['/v1/responses', 200],
        ['/v1/responses', 200],
        ['/v1/chat/completions', 200],
        ['/v1/chat/completions', 200],
      ],
    );
  });
});
