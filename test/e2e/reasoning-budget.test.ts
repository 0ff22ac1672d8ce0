/**
 * The reasoning budget against Debian's native `llama-server` 0.7.0, on `inpage-test-qwen3-think`
 * (Qwen3's vocabulary, its thinking template: the answer opens `<think>\n`, and the model's
 * reasoning is the chain `Hello, world! 你好 😀 𝔸 café.`): `reasoning_budget_tokens` (and its
 * older name `thinking_budget_tokens`) cuts the reasoning there with `</think>` after
 * `reasoning_budget_message`, and the answer follows, token for token as llama-server's (the same
 * llama.cpp budget sampler: its count includes the generation prompt's `\n` after `<think>`, and a
 * budget spent inside a character waits for its end); `enable_thinking: false` leaves nothing to
 * cut; `POST /v1/chat/completions/control` ends a running completion's reasoning. Part of the
 * llama-server differential: skipped, with what is missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { serverSkip } from './llama-server';
import { answerOf, sameAnswer, useThinkServer } from './think-model';
import { askBoth, type Json } from './llama-server-compare';
import { usePage } from './page-fixture';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const FOLDER = 'test-models-think';
const fixture = usePage();
const messages = [{ role: 'user', content: 'abc' }];

/**
 * Streams a chat completion from `base` and, at its first reasoning delta, asks
 * `/v1/chat/completions/control` to end its reasoning (self-contained: it runs in the page too).
 */
async function streamWithControl(args: { base: string; body: Record<string, unknown> }) {
  const post = (path: string, body: unknown) =>
    fetch(`${args.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const response = await post('/v1/chat/completions', { ...args.body, stream: true });
  if (!response.body) throw new Error(`the stream answered ${response.status} without a body`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let control: unknown = null;
  let reasoningBefore = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
    if (control !== null) continue;
    const first = text
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: {'))
      .map(
        (frame) =>
          JSON.parse(frame.slice(6)) as { id: string; choices: Array<{ delta?: { reasoning_content?: string } }> },
      )
      .find((frame) => frame.choices[0]?.delta?.reasoning_content);
    if (first) {
      reasoningBefore = String(first.choices[0]?.delta?.reasoning_content);
      const answer = await post('/v1/chat/completions/control', { id: first.id, action: 'reasoning_end' });
      control = { status: answer.status, body: await answer.json() };
    }
  }
  return { text, control, reasoningBefore };
}

describe('the reasoning budget against native llama-server', { skip: skip ?? false }, () => {
  const think = useThinkServer(fixture, FOLDER);

  const cases: Array<[string, Json]> = [
    ['no budget: the whole chain is reasoning', {}],
    // The budget's sampler is armed by the generation prompt's <think>, whose "\n" then counts (or,
    // at 0, ends the forcing at once): llama.cpp's own behaviour, on both.
    ['budget 0', { reasoning_budget_tokens: 0 }],
    ['budget 3', { reasoning_budget_tokens: 3 }],
    ['budget 7: spent inside 𝔸, cut after it', { reasoning_budget_tokens: 7 }],
    ['budget 9', { reasoning_budget_tokens: 9 }],
    ['thinking_budget_tokens with a message', { thinking_budget_tokens: 3, reasoning_budget_message: ' Enough.' }],
    ['reasoning_budget_tokens over thinking_budget_tokens', { reasoning_budget_tokens: 2, thinking_budget_tokens: 9 }],
    ['thinking off: nothing to cut', { reasoning_budget_tokens: 3, chat_template_kwargs: { enable_thinking: false } }],
  ];
  for (const [name, extra] of cases) {
    for (const stream of [false, true]) {
      test(`${name}${stream ? ', streamed' : ''}: the same reasoning, answer and tokens`, async () => {
        const body = {
          messages,
          temperature: 0,
          max_tokens: 60,
          ...extra,
          ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
        };
        const { own } = await sameAnswer(fixture.page, think.server, body, think.model);
        if (extra.reasoning_budget_tokens === 3 && !extra.chat_template_kwargs)
          assert.deepEqual(own, {
            reasoning: 'Hello,',
            content: 'Hello, world! 你好 😀 𝔸 café.',
            finish: 'stop',
            completion: 16,
          });
      });
    }
  }

  test('a budget out of range is a 400 naming it, on both', async () => {
    for (const extra of [{ reasoning_budget_tokens: -2 }, { thinking_budget_tokens: 2 ** 31 }]) {
      const both = await askBoth(
        fixture.page,
        think.server,
        'POST',
        '/v1/chat/completions',
        { messages, ...extra },
        think.model,
      );
      assert.deepEqual([both.own.status, both.native.status], [400, 400]);
      assert.equal(((both.own.body as Json).error as Json).param, Object.keys(extra)[0]);
    }
  });

  test("Anthropic's thinking.budget_tokens is the budget (llama-server's thinking_budget_tokens)", async () => {
    const body = {
      max_tokens: 1100,
      messages,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      temperature: 0,
    };
    const both = await askBoth(fixture.page, think.server, 'POST', '/v1/messages', body, think.model);
    assert.equal(both.own.status, 200, both.ownText);
    const blocks = (answer: unknown) => ((answer as Json).content as Json[]).map((block) => block.type);
    assert.deepEqual(blocks(both.own.body), blocks(both.native.body));
    const output = (answer: unknown) => ((answer as Json).usage as Json).output_tokens;
    assert.equal(output(both.own.body), output(both.native.body));
  });

  test("POST /v1/chat/completions/control's refusals, in llama-server's words", async () => {
    const ask = (body: Json) => askBoth(fixture.page, think.server, 'POST', '/v1/chat/completions/control', body);
    for (const body of [
      { action: 'reasoning_end' },
      { id: 'x', action: 'reasoning_stop' },
      { id: 'chatcmpl-none', action: 'reasoning_end' },
    ]) {
      const both = await ask(body);
      assert.equal(both.own.status, both.native.status, both.ownText);
      assert.deepEqual(both.own.body, both.native.body);
    }
  });

  test('reasoning_end ends a running reasoning at its next token; without reasoning_control it is refused', async () => {
    // With EOS ignored the chain repeats to max_tokens: a long reasoning to end.
    const body = { messages, temperature: 0, max_tokens: 1500, ignore_eos: true, reasoning_control: true };
    const native = await streamWithControl({ base: `http://127.0.0.1:${think.server.port}`, body });
    const own = await fixture.page.evaluate(streamWithControl, { base: '', body: { ...body, model: think.model } });
    for (const run of [native, own]) {
      assert.deepEqual(run.control, { status: 200, body: { success: true } });
      const answer = answerOf(null, run.text, true);
      assert.equal(answer.finish, 'length');
      // Ended a few tokens after the control, where the whole answer was reasoning without it.
      assert.ok(answer.reasoning.length < answer.content.length, answer.reasoning);
      assert.ok(answer.reasoning.startsWith(run.reasoningBefore));
      assert.ok(answer.content.startsWith('Hello, world! 你好 😀 𝔸 café.'), answer.content.slice(0, 80));
    }
    const refused = await fixture.page.evaluate(streamWithControl, {
      base: '',
      body: { ...body, max_tokens: 200, reasoning_control: false, model: think.model },
    });
    assert.deepEqual(refused.control, {
      status: 200,
      body: { success: false, message: 'reasoning control not enabled for this completion' },
    });
    assert.equal(answerOf(null, refused.text, true).content, '');
  });
});
