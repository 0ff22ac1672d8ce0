/**
 * LangChain's `ChatOpenAI` (`@langchain/openai` + `@langchain/core`) against the Service Worker,
 * bundled into the test page, on `inpage-test` (its chat template concatenates the messages'
 * contents; greedy decoding continues the alphabet, so 'abc' answers 'defgh' in 5 tokens).
 * It calls `/v1/chat/completions`. The same page then loads `inpage-test-qwen3` (Qwen3's real
 * vocabulary and chat template), whose greedy answer to any user message is
 * `Hello, world! 你好 😀 𝔸 café.`.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { INPAGE_TEST_QWEN3_CHAIN_TEXT } from '../fixtures/inpage-test-qwen3-spec';
import { usePage } from './page-fixture';
import { recordV1Fetches, takeV1Fetches } from './page-helpers';
import { loadSdk } from './sdk-scripts';

const fixture = usePage(undefined, async (page) => {
  await loadSdk(page, 'langchain');
  await recordV1Fetches(page);
});

const CHAT = [{ method: 'POST', path: '/v1/chat/completions', status: 200 }];

describe('LangChain ChatOpenAI', () => {
  test('invoke: abc answers defgh, usage 3/5/8', async () => {
    const result = await fixture.page.evaluate(async () => {
      const { ChatOpenAI } = window.LangChain;
      const model = new ChatOpenAI({
        model: 'inpage-test',
        configuration: { baseURL: location.origin + '/v1' },
        apiKey: 'x',
        temperature: 0,
        maxTokens: 5,
      });
      const answer = await model.invoke('abc');
      return {
        content: answer.content,
        usage: answer.usage_metadata,
        finish: answer.response_metadata.finish_reason as unknown,
      };
    });
    assert.equal(result.content, 'defgh');
    assert.equal(result.finish, 'length');
    assert.deepEqual([result.usage?.input_tokens, result.usage?.output_tokens, result.usage?.total_tokens], [3, 5, 8]);
    assert.deepEqual((await takeV1Fetches(fixture.page)).calls, CHAT);
  });

  test('stream: the chunks join to defgh', async () => {
    const result = await fixture.page.evaluate(async () => {
      const { ChatOpenAI } = window.LangChain;
      const model = new ChatOpenAI({
        model: 'inpage-test',
        configuration: { baseURL: location.origin + '/v1' },
        apiKey: 'x',
        temperature: 0,
        maxTokens: 5,
      });
      const chunks: string[] = [];
      for await (const chunk of await model.stream('abc')) chunks.push(String(chunk.content));
      return chunks;
    });
    assert.equal(result.join(''), 'defgh');
    assert.deepEqual((await takeV1Fetches(fixture.page)).calls, CHAT);
  });

  test('bindTools: the tool is sent and accepted, the answer is exact text; a past tool call and its result round-trip', async () => {
    const result = await fixture.page.evaluate(async () => {
      const { ChatOpenAI, AIMessage, HumanMessage, ToolMessage } = window.LangChain;
      const model = new ChatOpenAI({
        model: 'inpage-test',
        configuration: { baseURL: location.origin + '/v1' },
        apiKey: 'x',
        temperature: 0,
        maxTokens: 5,
      });
      const lookup = {
        type: 'function' as const,
        function: {
          name: 'lookup',
          description: 'Looks a word up.',
          parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
        },
      };
      const withTools = model.bindTools([lookup]);
      const plain = await withTools.invoke('abc');
      // [user 'a', assistant: a call of lookup, tool: 'bc'] renders as 'abc' with this template.
      const followUp = await withTools.invoke([
        new HumanMessage('a'),
        new AIMessage({
          content: '',
          tool_calls: [{ id: 'call_1', name: 'lookup', args: { word: 'b' }, type: 'tool_call' }],
        }),
        new ToolMessage({ content: 'bc', tool_call_id: 'call_1' }),
      ]);
      return {
        plain: plain.content,
        plainCalls: plain.tool_calls?.length,
        followUp: followUp.content,
        usage: followUp.usage_metadata?.input_tokens,
      };
    });
    assert.deepEqual(result, { plain: 'defgh', plainCalls: 0, followUp: 'defgh', usage: 3 });
    const { calls, bodies } = await takeV1Fetches(fixture.page);
    assert.deepEqual(calls, [...CHAT, ...CHAT]);
    for (const body of bodies)
      assert.deepEqual(
        (body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name),
        ['lookup'],
      );
    assert.deepEqual(
      (bodies[1]?.messages as Array<{ role: string }>).map((m) => m.role),
      ['user', 'assistant', 'tool'],
    );
  });
});

describe('LangChain ChatOpenAI on inpage-test-qwen3 (Qwen3 vocabulary and template)', () => {
  before(() => fixture.page.evaluate(() => window.inpage.load('/models/inpage-test-qwen3.gguf')));

  test('invoke and stream answer the chain exactly; usage 9 in', async () => {
    const result = await fixture.page.evaluate(async () => {
      const { ChatOpenAI } = window.LangChain;
      const model = new ChatOpenAI({
        model: 'inpage-test-qwen3',
        configuration: { baseURL: location.origin + '/v1' },
        apiKey: 'x',
        temperature: 0,
      });
      const answer = await model.invoke('abc');
      const chunks: string[] = [];
      for await (const chunk of await model.stream('abc')) chunks.push(String(chunk.content));
      return {
        content: answer.content,
        input: answer.usage_metadata?.input_tokens,
        finish: answer.response_metadata.finish_reason as unknown,
        streamed: chunks.join(''),
      };
    });
    assert.deepEqual(result, {
      content: INPAGE_TEST_QWEN3_CHAIN_TEXT,
      input: 9,
      finish: 'stop',
      streamed: INPAGE_TEST_QWEN3_CHAIN_TEXT,
    });
    assert.deepEqual((await takeV1Fetches(fixture.page)).calls, [...CHAT, ...CHAT]);
  });
});
