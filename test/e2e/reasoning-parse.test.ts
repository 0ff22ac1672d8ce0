/**
 * How the reasoning is read out of the answer, against Debian's native `llama-server` 0.7.0, on
 * `inpage-test-qwen3-think` (the thinking template: the answer opens `<think>\n`): the reasoning
 * keeps its own leading and trailing whitespace, one of only whitespace is none, the content
 * after `</think>` starts past up to two newlines and keeps any other whitespace; a reasoning
 * cut short keeps its trailing whitespace, and one cut short that is only whitespace is the
 * content of an unstreamed answer (nothing in a stream). The model's tokens are steered with
 * `logit_bias` (` some`, `\n`, ` `) and the budget's forced message. `reasoning_format: "none"`
 * leaves the reasoning in the content, from the prompt's `<think>\n` on, and a constraint starts
 * at the first token. Part of the llama-server
 * differential: skipped, with what is missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { serverSkip } from './llama-server';
import { sameAnswer, useThinkServer } from './think-model';
import { askBoth, type Json } from './llama-server-compare';
import { usePage } from './page-fixture';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const fixture = usePage();
const SOME = { '1045': 100 };
const NEWLINE = { '198': 100 };
const SPACE = { '220': 100 };

describe('the reasoning read out of the answer, against native llama-server', { skip: skip ?? false }, () => {
  const think = useThinkServer(fixture, 'test-models-think-parse');

  const cases: Array<[string, Json, string, string]> = [
    ['a leading space is kept', { logit_bias: SOME, max_tokens: 3 }, ' some some some', ''],
    ['a reasoning cut short (length) keeps its trailing whitespace', { max_tokens: 5 }, 'Hello, world! ', ''],
    [
      'a trailing message newline before </think> is kept',
      { reasoning_budget_tokens: 3, reasoning_budget_message: ' x \n' },
      'Hello, x \n',
      'Hello, world! 你好 😀 𝔸 café.',
    ],
    [
      'two newlines before </think> are kept',
      { reasoning_budget_tokens: 3, reasoning_budget_message: '\n\n' },
      'Hello,\n\n',
      'Hello, world! 你好 😀 𝔸 café.',
    ],
    [
      'up to two newlines after </think> go',
      { logit_bias: NEWLINE, max_tokens: 8, reasoning_budget_tokens: 2, reasoning_budget_message: 'x' },
      '\nx',
      '\n\n\n',
    ],
    [
      'spaces after </think> stay',
      { logit_bias: SPACE, max_tokens: 8, reasoning_budget_tokens: 2, reasoning_budget_message: 'x' },
      ' x',
      '     ',
    ],
    [
      'a reasoning of only whitespace is none',
      { logit_bias: NEWLINE, max_tokens: 8, reasoning_budget_tokens: 2 },
      '',
      '\n\n\n\n',
    ],
    [
      'the content keeps its leading space',
      { logit_bias: SOME, max_tokens: 6, reasoning_budget_tokens: 2, reasoning_budget_message: '\n' },
      ' some\n',
      ' some some some',
    ],
    [
      'reasoning_format none: the reasoning stays in the content',
      { reasoning_format: 'none', reasoning_budget_tokens: 3 },
      '',
      '<think>\nHello,</think>Hello, world! 你好 😀 𝔸 café.',
    ],
    [
      'reasoning_format deepseek: split out',
      { reasoning_format: 'deepseek', reasoning_budget_tokens: 3 },
      'Hello,',
      'Hello, world! 你好 😀 𝔸 café.',
    ],
  ];
  for (const [name, extra, reasoning, content] of cases) {
    for (const stream of [false, true]) {
      test(`${name}${stream ? ', streamed' : ''}`, async () => {
        const body = { messages: [{ role: 'user', content: 'abc' }], temperature: 0, max_tokens: 60, ...extra };
        const streamed = stream ? { stream: true, stream_options: { include_usage: true } } : {};
        const { own } = await sameAnswer(fixture.page, think.server, { ...body, ...streamed }, think.model);
        assert.deepEqual([own.reasoning, own.content], [reasoning, content]);
      });
    }
  }

  test('an unterminated reasoning of only whitespace: the content unstreamed, nothing in a stream (as llama-server)', async () => {
    for (const stream of [false, true]) {
      const body = {
        messages: [{ role: 'user', content: 'abc' }],
        temperature: 0,
        max_tokens: 4,
        logit_bias: SPACE,
        stream,
      };
      const { own } = await sameAnswer(fixture.page, think.server, body, think.model);
      assert.deepEqual([own.reasoning, own.content], ['', stream ? '' : '    ']);
    }
  });

  test('reasoning_format none with a constraint: the JSON from the first token, in the content (llama-server: a 400)', async () => {
    const body = {
      messages: [{ role: 'user', content: 'abc' }],
      temperature: 0,
      max_tokens: 30,
      reasoning_format: 'none',
      response_format: { type: 'json_object' },
    };
    // llama-server cannot read its own generation prompt with that grammar ("Failed to initialize samplers").
    const both = await askBoth(fixture.page, think.server, 'POST', '/v1/chat/completions', body, think.model);
    assert.equal(both.native.status, 400, both.nativeText);
    assert.equal(both.own.status, 200, both.ownText);
    const message = ((both.own.body as Json).choices as Json[])[0]?.message as Json;
    assert.equal(message.reasoning_content, undefined);
    // The opener, then the JSON: on this model in llama-server's ```json fence, which is not content.
    // The opener, then the JSON (on this model in llama-server's ```json fence, which is not content).
    assert.match(String(message.content), /^<think>\n\{"Hello, world!/);
  });
});
