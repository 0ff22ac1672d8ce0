/**
 * M-RoPE images through the routes: `inpage-test-mrope` (a Qwen2-VL projector and a `qwen2vl`
 * text model: an image of w x h tokens takes max(w, h) positions, so the text after it does not
 * sit at its index) on a page with two slots, against Debian's llama-server 0.7.0 `--mmproj` on
 * the same pair (F32 cache, as the engine's). Greedy chat, 8 tokens: the same text and token
 * counts, logprobs within 1e-3, for one image, for two images in one message, for the next turn of
 * a conversation about an image (its cells kept), and for two requests at once (each slot's
 * tokens decoded in one batch after its own image).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildInpageTestMropeModel, buildInpageTestMropeProjector } from '../fixtures/inpage-test-mrope';
import { pngBytes } from '../fixtures/test-media';
import { serverSkip, startMmprojServer, type LlamaServer } from './llama-server';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';
import { assertSameChat, type ChatAnswer } from './same-chat';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const fixture = usePage('/?model=inpage-test-mrope&slots=2');

type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
type Message = { role: 'user'; content: Part[] } | { role: 'assistant'; content: string };

const image = (bytes: Uint8Array): Part => ({
  type: 'image_url',
  image_url: { url: `data:image/png;base64,${Buffer.from(bytes).toString('base64')}` },
});
const text = (value: string): Part => ({ type: 'text', text: value });

/** 3x3, 4x3 and 6x6 tokens after the projector's resize to multiples of 8 pixels. */
const SQUARE = image(pngBytes(24, 24, (x, y) => (x < 12 === y < 12 ? [200, 40, 40] : [30, 60, 220])));
const WIDE = image(pngBytes(32, 24, (x) => (x < 16 ? [20, 200, 40] : [230, 230, 20])));
const GRADIENT = image(pngBytes(48, 48, (x, y) => [x * 5, y * 5, 128]));

const chat = (messages: Message[]) => ({ messages, temperature: 0, max_tokens: 8, logprobs: true, top_logprobs: 1 });

async function native(server: LlamaServer, messages: Message[]): Promise<ChatAnswer> {
  const response = await fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(chat(messages)),
  });
  const json = (await response.json()) as ChatAnswer;
  assert.equal(response.status, 200, JSON.stringify(json));
  return json;
}

async function inPage(messages: Message[]): Promise<ChatAnswer> {
  const answer = await postFromPage(fixture.page, '/v1/chat/completions', {
    model: 'inpage-test-mrope',
    ...chat(messages),
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as ChatAnswer;
}

describe('M-RoPE images through the routes, against llama-server --mmproj', { skip: skip ?? false }, () => {
  let server: LlamaServer;
  before(async () => {
    server = await startMmprojServer('media-mrope', buildInpageTestMropeModel(), buildInpageTestMropeProjector(), [
      ...['-ctk', 'f32', '-ctv', 'f32', '-fa', 'off'],
    ]);
  });
  after(() => server?.stop());

  const CONVERSATIONS: Record<string, Message[]> = {
    'one image': [{ role: 'user', content: [WIDE, text('describe')] }],
    'two images and text between': [{ role: 'user', content: [SQUARE, text('and'), GRADIENT, text('describe')] }],
  };

  test("chat: one image, and two in one message, give llama-server's answers", async () => {
    const answers: Record<string, ChatAnswer> = {};
    for (const [label, messages] of Object.entries(CONVERSATIONS)) {
      answers[label] = await inPage(messages);
      assertSameChat(answers[label], await native(server, messages), label);
    }
    // 12 image tokens, 30 bytes of <|vision_start|> and <|vision_end|> around them, `describe>`.
    assert.equal(answers['one image']?.usage.prompt_tokens, 12 + 30 + 'describe>'.length);
  });

  test("the next turn about the same image (its cells kept) gives llama-server's answer", async () => {
    const first: Message[] = [{ role: 'user', content: [GRADIENT, text('describe')] }];
    const reply = (await inPage(first)).choices[0]?.message.content ?? '';
    const next: Message[] = [
      ...first,
      { role: 'assistant', content: reply },
      { role: 'user', content: [text('more')] },
    ];
    assertSameChat(await inPage(next), await native(server, next), 'next turn');
  });

  test("two requests at once, one per slot, each give llama-server's answer alone", async () => {
    const conversations: Message[][] = [
      [{ role: 'user', content: [SQUARE, text('describe')] }],
      [{ role: 'user', content: [text('look:'), WIDE, text('describe')] }],
    ];
    const expected: ChatAnswer[] = [];
    for (const messages of conversations) expected.push(await native(server, messages));
    const actual = await Promise.all(conversations.map((messages) => inPage(messages)));
    actual.forEach((answer, i) => assertSameChat(answer, expected[i]!, `request ${i}`));
    assert.notEqual(actual[0]?.choices[0]?.message.content, actual[1]?.choices[0]?.message.content);
  });
});
