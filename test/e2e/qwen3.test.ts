/**
 * `inpage-test-qwen3`: a test model with Qwen3's real 151,936-token vocabulary and chat
 * template, served by the build from the page's own origin. Greedy decoding after any prompt
 * that does not end in a chain token writes `Hello, world! 你好 😀 𝔸 café.` (12 tokens, `𝔸`
 * split across three of them) and stops.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { INPAGE_TEST_QWEN3_CHAIN_TEXT } from '../fixtures/inpage-test-qwen3-spec';
import { usePage } from './page-fixture';

const fixture = usePage('/?model=/models/inpage-test-qwen3.gguf');

describe('inpage-test-qwen3 through the endpoint', () => {
  test('completions: greedy writes the chain and stops, stream and not; the split character is never split across chunks', async () => {
    const result = await fixture.page.evaluate(async () => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      const whole = await client.completions.create({
        model: 'inpage-test-qwen3',
        prompt: 'x',
        max_tokens: 40,
        temperature: 0,
      });
      const stream = await client.completions.create({
        model: 'inpage-test-qwen3',
        prompt: 'x',
        max_tokens: 40,
        temperature: 0,
        stream: true,
      });
      const pieces: string[] = [];
      for await (const chunk of stream) for (const choice of chunk.choices) pieces.push(choice.text);
      return { whole: JSON.parse(JSON.stringify(whole)), pieces };
    });
    assert.equal(result.whole.choices[0].text, INPAGE_TEST_QWEN3_CHAIN_TEXT);
    assert.equal(result.whole.choices[0].finish_reason, 'stop');
    assert.equal(result.whole.usage.completion_tokens, 13, '12 chain tokens and <|im_end|>');
    assert.equal(result.pieces.join(''), INPAGE_TEST_QWEN3_CHAIN_TEXT);
    assert.ok(
      result.pieces.every((piece) => !piece.includes('\uFFFD')),
      'no U+FFFD mid-stream',
    );
  });

  test('chat: the real Qwen3 template renders [user abc] as 9 tokens, and the answer is the chain', async () => {
    const answer = await fixture.page.evaluate(async () => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      return JSON.parse(
        JSON.stringify(
          await client.chat.completions.create({
            model: 'inpage-test-qwen3',
            messages: [{ role: 'user', content: 'abc' }],
            temperature: 0,
          }),
        ),
      );
    });
    assert.equal(answer.choices[0].message.content, INPAGE_TEST_QWEN3_CHAIN_TEXT);
    assert.equal(answer.choices[0].finish_reason, 'stop');
    assert.equal(answer.usage.prompt_tokens, 9);
  });

  test('openai SDK: chat streamed, and the Responses API created and streamed, answer the chain exactly', async () => {
    const result = await fixture.page.evaluate(async () => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      const model = 'inpage-test-qwen3';
      const chat: string[] = [];
      const chatStream = await client.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'abc' }],
        temperature: 0,
        stream: true,
      });
      for await (const chunk of chatStream) chat.push(chunk.choices[0]?.delta.content ?? '');
      const response = await client.responses.create({ model, input: 'abc', temperature: 0 });
      const deltas: string[] = [];
      const stream = await client.responses.create({ model, input: 'abc', temperature: 0, stream: true });
      for await (const event of stream) if (event.type === 'response.output_text.delta') deltas.push(event.delta);
      return { chat: chat.join(''), response: response.output_text, streamed: deltas.join('') };
    });
    assert.deepEqual(result, {
      chat: INPAGE_TEST_QWEN3_CHAIN_TEXT,
      response: INPAGE_TEST_QWEN3_CHAIN_TEXT,
      streamed: INPAGE_TEST_QWEN3_CHAIN_TEXT,
    });
  });
});
