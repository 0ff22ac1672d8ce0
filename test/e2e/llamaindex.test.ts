/**
 * LlamaIndex's `@llamaindex/openai` against the Service Worker, bundled into the test page, on
 * `inpage-test` (its chat template concatenates the messages' contents; greedy decoding continues
 * the alphabet, so 'abc' answers 'defgh' in 5 tokens). `OpenAI` calls `/v1/chat/completions`,
 * `OpenAIResponses` calls `/v1/responses`. Both wrap the openai SDK (v5), which needs
 * `dangerouslyAllowBrowser` in a page.
 *
 * `OpenAIResponses` (0.4.23) has two bugs of its own, worked around here: it never sends its
 * `temperature` (the server's default, 1, samples), so the spec passes it in
 * `additionalChatOptions`; and its stream chunks keep the last text delta, so every event after
 * the last `response.output_text.delta` (text done, item done, completed...) repeats it: the
 * spec joins the deltas of the text-delta chunks only, as the chunk's `raw` event says.
 *
 * The same page then loads `inpage-test-qwen3` (Qwen3's real vocabulary and chat template), whose
 * greedy answer to any user message is `Hello, world! 你好 😀 𝔸 café.`, through both classes.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { ToolCallLLM } from '@llamaindex/core/llms';
import type { OpenAIResponses } from '@llamaindex/openai';
import { INPAGE_TEST_QWEN3_CHAIN_TEXT } from '../fixtures/inpage-test-qwen3-spec';
import { usePage } from './page-fixture';
import { recordV1Fetches, takeV1Fetches } from './page-helpers';
import { loadSdk } from './sdk-scripts';

/** Its type omits `temperature`, which it does not send (see above); the server reads it here. */
type OpenAIResponsesChatOptions = NonNullable<OpenAIResponses['additionalChatOptions']>;

const fixture = usePage(undefined, async (page) => {
  await loadSdk(page, 'llamaindex');
  await recordV1Fetches(page);
});

for (const api of ['chat', 'responses'] as const) {
  const path = api === 'chat' ? '/v1/chat/completions' : '/v1/responses';

  describe(`LlamaIndex ${api === 'chat' ? 'OpenAI: chat completions' : 'OpenAIResponses: Responses API'}`, () => {
    test('chat: [user abc] answers defgh', async () => {
      const result = await fixture.page.evaluate(async (api) => {
        const { OpenAI, OpenAIResponses } = window.LlamaIndex;
        const options = {
          model: 'inpage-test',
          baseURL: location.origin + '/v1',
          apiKey: 'x',
          temperature: 0,
          additionalSessionOptions: { dangerouslyAllowBrowser: true },
        };
        const llm: ToolCallLLM =
          api === 'chat'
            ? new OpenAI({ ...options, maxTokens: 5 })
            : new OpenAIResponses({
                ...options,
                maxOutputTokens: 5,
                additionalChatOptions: { temperature: 0 } as OpenAIResponsesChatOptions,
              });
        const answer = await llm.chat({ messages: [{ role: 'user', content: 'abc' }] });
        return { role: answer.message.role, content: answer.message.content };
      }, api);
      assert.deepEqual(result, { role: 'assistant', content: 'defgh' });
      const { calls, bodies } = await takeV1Fetches(fixture.page);
      assert.deepEqual(calls, [{ method: 'POST', path, status: 200 }]);
      assert.equal(bodies[0]?.temperature, 0);
    });

    test('chat stream: the deltas join to defgh', async () => {
      const result = await fixture.page.evaluate(async (api) => {
        const { OpenAI, OpenAIResponses } = window.LlamaIndex;
        const options = {
          model: 'inpage-test',
          baseURL: location.origin + '/v1',
          apiKey: 'x',
          temperature: 0,
          additionalSessionOptions: { dangerouslyAllowBrowser: true },
        };
        const llm: ToolCallLLM =
          api === 'chat'
            ? new OpenAI({ ...options, maxTokens: 5 })
            : new OpenAIResponses({
                ...options,
                maxOutputTokens: 5,
                additionalChatOptions: { temperature: 0 } as OpenAIResponsesChatOptions,
              });
        const deltas: string[] = [];
        for await (const chunk of await llm.chat({ messages: [{ role: 'user', content: 'abc' }], stream: true })) {
          const raw = chunk.raw as { type?: string; object?: string };
          if (raw.type === 'response.output_text.delta' || raw.object === 'chat.completion.chunk')
            deltas.push(chunk.delta);
        }
        return deltas;
      }, api);
      assert.equal(result.join(''), 'defgh');
      assert.deepEqual((await takeV1Fetches(fixture.page)).calls, [{ method: 'POST', path, status: 200 }]);
    });

    test('tools: a declared tool, a past tool call and its result round-trip; the answer is exact text', async () => {
      const result = await fixture.page.evaluate(async (api) => {
        const { OpenAI, OpenAIResponses } = window.LlamaIndex;
        const options = {
          model: 'inpage-test',
          baseURL: location.origin + '/v1',
          apiKey: 'x',
          temperature: 0,
          additionalSessionOptions: { dangerouslyAllowBrowser: true },
        };
        const llm: ToolCallLLM =
          api === 'chat'
            ? new OpenAI({ ...options, maxTokens: 5 })
            : new OpenAIResponses({
                ...options,
                maxOutputTokens: 5,
                additionalChatOptions: { temperature: 0 } as OpenAIResponsesChatOptions,
              });
        const lookup = {
          metadata: {
            name: 'lookup',
            description: 'Looks a word up.',
            parameters: {
              type: 'object' as const,
              properties: { word: { type: 'string' as const } },
              required: ['word'],
            },
          },
          call: ({ word }: { word: string }) => word,
        };
        // [user 'a', assistant: a call of lookup, tool: 'bc'] renders as 'abc' with this template.
        const answer = await llm.chat({
          tools: [lookup],
          messages: [
            { role: 'user', content: 'a' },
            {
              role: 'assistant',
              content: '',
              options: { toolCall: [{ id: 'call_1', name: 'lookup', input: { word: 'b' } }] },
            },
            { role: 'user', content: 'bc', options: { toolResult: { id: 'call_1', result: 'bc', isError: false } } },
          ],
        });
        const said = answer.message.options as { toolCall?: unknown[] } | undefined;
        return { content: answer.message.content, toolCalls: said?.toolCall?.length ?? 0 };
      }, api);
      assert.deepEqual(result, { content: 'defgh', toolCalls: 0 });
      const { calls, bodies } = await takeV1Fetches(fixture.page);
      assert.deepEqual(calls, [{ method: 'POST', path, status: 200 }]);
      const body = bodies[0] ?? {};
      if (api === 'chat') {
        assert.deepEqual(
          (body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name),
          ['lookup'],
        );
        assert.deepEqual(
          (body.messages as Array<{ role: string }>).map((m) => m.role),
          ['user', 'assistant', 'tool'],
        );
      } else {
        assert.deepEqual(
          (body.tools as Array<{ name: string }>).map((t) => t.name),
          ['lookup'],
        );
        assert.deepEqual(
          (body.input as Array<{ type?: string; role?: string }>).map((item) => item.type ?? item.role),
          ['user', 'function_call', 'function_call_output'],
        );
      }
    });
  });
}

describe('LlamaIndex on inpage-test-qwen3 (Qwen3 vocabulary and template), both classes', () => {
  before(() => fixture.page.evaluate(() => window.inpage.load('/models/inpage-test-qwen3.gguf')));

  test('chat and chat stream answer the chain exactly', async () => {
    const result = await fixture.page.evaluate(async () => {
      const { OpenAI, OpenAIResponses } = window.LlamaIndex;
      const options = {
        model: 'inpage-test-qwen3',
        baseURL: location.origin + '/v1',
        apiKey: 'x',
        temperature: 0,
        additionalSessionOptions: { dangerouslyAllowBrowser: true },
      };
      const answers = [];
      for (const llm of [
        new OpenAI(options),
        new OpenAIResponses({ ...options, additionalChatOptions: { temperature: 0 } as OpenAIResponsesChatOptions }),
      ] as ToolCallLLM[]) {
        const messages = [{ role: 'user' as const, content: 'abc' }];
        const answer = await llm.chat({ messages });
        const deltas: string[] = [];
        for await (const chunk of await llm.chat({ messages, stream: true })) {
          const raw = chunk.raw as { type?: string; object?: string };
          if (raw.type === 'response.output_text.delta' || raw.object === 'chat.completion.chunk')
            deltas.push(chunk.delta);
        }
        answers.push({ content: answer.message.content, streamed: deltas.join('') });
      }
      return answers;
    });
    const exact = { content: INPAGE_TEST_QWEN3_CHAIN_TEXT, streamed: INPAGE_TEST_QWEN3_CHAIN_TEXT };
    assert.deepEqual(result, [exact, exact]);
    assert.deepEqual(
      (await takeV1Fetches(fixture.page)).calls.map((call) => [call.path, call.status]),
      [
        ['/v1/chat/completions', 200],
        ['/v1/chat/completions', 200],
        ['/v1/responses', 200],
        ['/v1/responses', 200],
      ],
    );
  });
});
