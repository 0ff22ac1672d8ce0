/**
 * Structured output after the reasoning, against Debian's native `llama-server` 0.7.0, on
 * `inpage-test-qwen3-think` (the thinking template: the answer opens `<think>\n`; greedy, the
 * model reasons in the chain `Hello, world! 你好 😀 𝔸 café.`): llama-server's `response_format`
 * grammar starts with the template's reasoning, so the reasoning is free and the JSON is the
 * answer after it (a reasoning budget ends it where it would); with thinking off, the JSON is all.
 * Its `grammar` (the client's own) applies from the first token. Before, every constraint was
 * forced from the first token, inside the reasoning, where the answer's parser took it for
 * reasoning. Part of the llama-server differential: skipped, with what is missing, where the
 * server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { serverSkip } from './llama-server';
import { type Answer, sameAnswer, useThinkServer } from './think-model';
import { askBoth, type Json } from './llama-server-compare';
import { usePage } from './page-fixture';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const FOLDER = 'test-models-think-constraints';
const fixture = usePage();
const messages = [{ role: 'user', content: 'abc' }];
const schema = { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] };
const jsonSchema = { type: 'json_schema', json_schema: { name: 'a', schema } };
const streamed = (stream: boolean) => (stream ? { stream: true, stream_options: { include_usage: true } } : {});

/** Reasoning, finish, the content and its JSON. */
const structured = (answer: Answer) => [answer.reasoning, answer.finish, answer.content, JSON.parse(answer.content)];

describe('structured output after the reasoning, against native llama-server', { skip: skip ?? false }, () => {
  const think = useThinkServer(fixture, FOLDER);

  /**
   * Asks both for `body` (streamed or not): the same answer, token counts included (the JSON's
   * grammar is llama-server's chat grammar: on this model the JSON comes in a ```json fence, which
   * is not content, on both); ours.
   */
  async function ask(body: Json, stream: boolean): Promise<Answer> {
    const full = { messages, temperature: 0, max_tokens: 60, ...body, ...streamed(stream) };
    return (await sameAnswer(fixture.page, think.server, full, think.model)).own;
  }

  for (const stream of [false, true]) {
    const suffix = stream ? ', streamed' : '';
    test(`json_object: the reasoning runs free, token for token as on llama-server${suffix}`, async () => {
      const body = { messages, temperature: 0, max_tokens: 30, response_format: { type: 'json_object' } };
      const { own } = await sameAnswer(fixture.page, think.server, { ...body, ...streamed(stream) }, think.model);
      // The chain, then on again (its end is not allowed before the JSON): no JSON in the reasoning.
      assert.ok(own.reasoning.startsWith('Hello, world! 你好 😀 𝔸 café.!'), own.reasoning);
      assert.deepEqual([own.content, own.finish], ['', 'length']);
    });

    test(`json_schema after a reasoning budget: the same reasoning and JSON${suffix}`, async () => {
      const own = await ask({ reasoning_budget_tokens: 3, response_format: jsonSchema }, stream);
      assert.deepEqual(structured(own), ['Hello,', 'stop', '{"a":-0}', { a: -0 }]);
      // `Hello` `,` `</think>`, the fence's 7 tokens and its 3, the JSON's 8, the end.
      assert.equal(own.completion, 22);
    });

    test(`json_schema with thinking off: the JSON from the first token${suffix}`, async () => {
      const body = { response_format: jsonSchema, chat_template_kwargs: { enable_thinking: false } };
      const own = await ask(body, stream);
      assert.deepEqual(structured(own), ['', 'stop', '{"a":-0}', { a: -0 }]);
      assert.equal(own.completion, 19);
    });
  }

  test('cut short in and after the fence, streamed and not: the answers of llama-server (the text where its parse gives nothing)', async () => {
    const off = { chat_template_kwargs: { enable_thinking: false } };
    // Thinking off: `` ` ` ` `` `j` `s` `o` `n` `{` ... `}` `` ` ` ` `` (19 tokens in all).
    const cases: Array<[Json, number, string, string]> = [
      [off, 5, '```js', ''],
      [off, 7, '```json', ''],
      [off, 8, '{', '{'],
      [off, 17, '{"a":-0}', '{"a":-0}'],
      // After a reasoning (`Hello` `,` `</think>`), a cut fence is no content either way.
      [{ reasoning_budget_tokens: 3 }, 4, '', ''],
    ];
    for (const [extra, max_tokens, unstreamed, streamedContent] of cases) {
      for (const stream of [false, true]) {
        const own = await ask({ ...extra, max_tokens, response_format: jsonSchema }, stream);
        assert.deepEqual([own.content, own.finish], [stream ? streamedContent : unstreamed, 'length'], `${max_tokens}`);
      }
    }
  });

  test("the client's own grammar applies from the first token, as on llama-server", async () => {
    const body = { messages, temperature: 0, max_tokens: 20, grammar: 'root ::= "ab"' };
    const { own } = await sameAnswer(fixture.page, think.server, body, think.model);
    assert.deepEqual([own.reasoning, own.finish], ['ab', 'stop']);
  });

  test("a client's grammar that cannot take what the budget forces is an invalid_grammar error naming it (llama-server: a 500); the engine goes on", async () => {
    const body = { messages, temperature: 0, max_tokens: 20, grammar: 'root ::= "ab"', reasoning_budget_tokens: 3 };
    const both = await askBoth(fixture.page, think.server, 'POST', '/v1/chat/completions', body, think.model);
    assert.equal(both.native.status, 500, both.nativeText);
    // The error comes after the first tokens: under the status the answer already went out with
    // (engine-response.ts's JSON_HOLD_MS), as the 400's JSON.
    const error = (both.own.body as Json).error as Json;
    assert.deepEqual([error.param, error.code], ['grammar', 'invalid_grammar']);
    assert.match(String(error.message), /grammar/);
    const after = await sameAnswer(
      fixture.page,
      think.server,
      { messages, temperature: 0, max_tokens: 5 },
      think.model,
    );
    assert.equal(after.own.reasoning, 'Hello, world! ');
  });

  test('a forced tool call comes after the reasoning, as the answer', async () => {
    // llama-server 0.7.0 does not hold this template's answer to a call: ours only.
    const tools = [{ type: 'function', function: { name: 'get_weather', strict: true, parameters: schema } }];
    const body = {
      model: think.model,
      messages,
      temperature: 0,
      max_tokens: 200,
      reasoning_budget_tokens: 3,
      tools,
      tool_choice: 'required',
      parallel_tool_calls: false,
    };
    const answer = await fixture.page.evaluate(async (request) => {
      const response = await fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      });
      return (await response.json()) as { choices: Array<{ finish_reason: string; message: Json }> };
    }, body);
    const [choice] = answer.choices;
    assert.equal(choice?.message.reasoning_content, 'Hello,');
    const calls = choice?.message.tool_calls as Array<{ function: { name: string; arguments: string } }>;
    assert.deepEqual(
      calls.map((call) => [call.function.name, JSON.parse(call.function.arguments) as unknown]),
      [['get_weather', { a: -0 }]],
    );
    assert.equal(choice?.finish_reason, 'tool_calls');
  });
});
