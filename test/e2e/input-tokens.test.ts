/**
 * Counting a prompt's tokens without generating: OpenAI's `POST /v1/responses/input_tokens`
 * (the openai SDK's `responses.inputTokens.count`) and llama-server's
 * `POST /v1/chat/completions/input_tokens`, against Debian's native `llama-server` 0.7.0 on
 * `inpage-test-qwen3` (Qwen3's real template, tools included): the same counts and answers,
 * the same statuses for a body without its conversation; the count is the prompt a generation on
 * the same body reads. Part of the llama-server differential: skipped, with what is missing,
 * where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { placeModel, serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { askBoth, type Json } from './llama-server-compare';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const MODEL = 'inpage-test-qwen3';
const fixture = usePage(`/?model=/models/${MODEL}.gguf`);
let server: LlamaServer | undefined;

const TOOLS_CHAT = [
  { type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object', properties: {} } } },
];
const TOOLS_RESPONSES = [
  { type: 'function', name: 'f', description: 'd', parameters: { type: 'object', properties: {} } },
];

const CASES: Array<{ path: string; body: Json }> = [
  { path: '/v1/responses/input_tokens', body: { input: 'abc' } },
  {
    path: '/v1/responses/input_tokens',
    body: { input: [{ role: 'user', content: 'abc' }], instructions: 'Be brief.' },
  },
  { path: '/v1/responses/input_tokens', body: { input: 'abc', tools: TOOLS_RESPONSES } },
  { path: '/v1/chat/completions/input_tokens', body: { messages: [{ role: 'user', content: 'abc' }] } },
  {
    path: '/v1/chat/completions/input_tokens',
    body: {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'abc' },
        { role: 'assistant', content: 'def' },
        { role: 'user', content: 'ghi' },
      ],
      tools: TOOLS_CHAT,
    },
  },
];

describe('prompt token counts against native llama-server', { skip: skip ?? false }, () => {
  before(async () => {
    placeModel(MODEL, new Uint8Array(await readFile(`dist/models/${MODEL}.gguf`)));
    server = await startLlamaServer({ model: MODEL });
  });
  after(() => server?.stop());

  test("/v1/responses/input_tokens and /v1/chat/completions/input_tokens: llama-server's counts", async () => {
    if (!server) throw new Error('llama-server starts in before()');
    for (const { path, body } of CASES) {
      const { own, native, ownText, nativeText } = await askBoth(fixture.page, server, 'POST', path, body, MODEL);
      const label = `${path} ${JSON.stringify(body)}: ${ownText} / ${nativeText}`;
      assert.equal(native.status, 200, label);
      assert.equal(own.status, 200, label);
      assert.deepEqual(own.body, native.body, label);
    }
    // Without the conversation: a 400 on both.
    for (const path of ['/v1/responses/input_tokens', '/v1/chat/completions/input_tokens']) {
      const { own, native } = await askBoth(fixture.page, server, 'POST', path, {}, MODEL);
      assert.deepEqual([own.status, native.status], [400, 400], path);
    }
  });

  test("the openai SDK's responses.inputTokens.count; the count is the prompt a generation reads", async () => {
    const [counted, answered] = await fixture.page.evaluate(async (model) => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'x',
        dangerouslyAllowBrowser: true,
      });
      const input = [{ role: 'user' as const, content: 'abc' }];
      const count = await client.responses.inputTokens.count({ model, input, instructions: 'Be brief.' });
      const response = await client.responses.create({
        model,
        input,
        instructions: 'Be brief.',
        max_output_tokens: 1,
      });
      return [count, response.usage?.input_tokens] as const;
    }, MODEL);
    assert.deepEqual(counted, { object: 'response.input_tokens', input_tokens: answered });
    const chat = await postFromPage(fixture.page, '/v1/chat/completions/input_tokens', {
      model: MODEL,
      messages: [{ role: 'user', content: 'abc' }],
    });
    assert.deepEqual(chat.body, { object: 'response.input_tokens', input_tokens: 9 });
  });
});
