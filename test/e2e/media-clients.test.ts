/**
 * Images from the client SDKs, unchanged, bundled into the test page (issue 32, item 5): the AI
 * SDK's `generateText` with an `image` part (chat completions and the Responses API), LangChain's
 * `ChatOpenAI` with an `image_url` message part, and the Anthropic SDK's `messages.create` with an
 * `image` block, on `inpage-test-vision`. Each gets the text Debian's llama-server `--mmproj` gives
 * the same conversation (greedy, 8 tokens) on the same files. (The openai SDK's image and
 * transcription calls are in media-routes.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildInpageTestVisionModel, buildInpageTestVisionProjector } from '../fixtures/inpage-test-vision';
import { pngBytes } from '../fixtures/test-media';
import { serverSkip, startMmprojServer, type LlamaServer } from './llama-server';
import { usePage } from './page-fixture';
import { loadSdk } from './sdk-scripts';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const fixture = usePage('/?model=inpage-test-vision', async (page) => {
  await loadSdk(page, 'ai-sdk');
  await loadSdk(page, 'langchain');
  await loadSdk(page, 'anthropic');
});

const IMAGE = Buffer.from(pngBytes(36, 28, (x, y) => [(x * 7) % 256, y * 9, 200 - x]));
const BASE64 = IMAGE.toString('base64');
const [BEFORE, AFTER] = ['what is in it?', 'say'];

describe('client SDKs send images: the same text as llama-server --mmproj', { skip: skip ?? false }, () => {
  let server: LlamaServer;
  let expected = '';
  before(async () => {
    server = await startMmprojServer('media-clients', buildInpageTestVisionModel(), buildInpageTestVisionProjector());
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'm',
        temperature: 0,
        max_tokens: 8,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: BEFORE },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${BASE64}` } },
              { type: 'text', text: AFTER },
            ],
          },
        ],
      }),
    });
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    assert.equal(response.status, 200, JSON.stringify(body));
    expected = body.choices[0]?.message.content ?? '';
    assert.ok(expected.length > 0);
  });
  after(() => server?.stop());

  for (const api of ['chat', 'responses'] as const) {
    test(`AI SDK generateText with an image part (${api})`, async () => {
      const text = await fixture.page.evaluate(
        async ({ api, base64, before, after }) => {
          const { generateText, createOpenAI } = window.AISDK;
          const openai = createOpenAI({ baseURL: location.origin + '/v1', apiKey: 'x' });
          const model = api === 'responses' ? openai('inpage-test-vision') : openai.chat('inpage-test-vision');
          const image = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          const answer = await generateText({
            model,
            temperature: 0,
            maxOutputTokens: 8,
            messages: [
              {
                role: 'user',
                content: [
                  { type: 'text', text: before },
                  { type: 'image', image, mediaType: 'image/png' },
                  { type: 'text', text: after },
                ],
              },
            ],
          });
          return answer.text;
        },
        { api, base64: BASE64, before: BEFORE, after: AFTER },
      );
      assert.equal(text, expected);
    });
  }

  test('LangChain ChatOpenAI with an image_url message part', async () => {
    const text = await fixture.page.evaluate(
      async ({ base64, before, after }) => {
        const { ChatOpenAI, HumanMessage } = window.LangChain;
        const model = new ChatOpenAI({
          model: 'inpage-test-vision',
          configuration: { baseURL: location.origin + '/v1' },
          apiKey: 'x',
          temperature: 0,
          maxTokens: 8,
        });
        const answer = await model.invoke([
          new HumanMessage({
            content: [
              { type: 'text', text: before },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${base64}` } },
              { type: 'text', text: after },
            ],
          }),
        ]);
        return String(answer.content);
      },
      { base64: BASE64, before: BEFORE, after: AFTER },
    );
    assert.equal(text, expected);
  });

  test('the Anthropic SDK messages.create with an image block', async () => {
    const text = await fixture.page.evaluate(
      async ({ base64, before, after }) => {
        const client = new window.Anthropic({ baseURL: location.origin, apiKey: 'x', dangerouslyAllowBrowser: true });
        const answer = await client.messages.create({
          model: 'inpage-test-vision',
          max_tokens: 8,
          // The SDK's types no longer list the samplers; the body carries them (greedy here).
          ...{ temperature: 0 },
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: before },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64 } },
                { type: 'text', text: after },
              ],
            },
          ],
        });
        const first = answer.content[0];
        return first?.type === 'text' ? first.text : '';
      },
      { base64: BASE64, before: BEFORE, after: AFTER },
    );
    assert.equal(text, expected);
  });
});
