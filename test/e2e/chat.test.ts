/**
 * `/v1/chat/completions` and `/v1/responses` through the Service Worker with the official openai
 * SDK, on `inpage-test`: its chat template concatenates the messages' contents, so the
 * conversation [user 'abc'] is the prompt 'abc' and greedy decoding answers 'defgh'.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { usePage } from './page-fixture';

const fixture = usePage();

describe('chat completions and responses with the openai SDK', () => {
  test('chat: [user abc] answers defgh with usage 3/5/8; a system message x before it adds one prompt token', async () => {
    const result = await fixture.page.evaluate(async () => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      const plain = await client.chat.completions.create({
        model: 'inpage-test',
        messages: [{ role: 'user', content: 'abc' }],
        max_tokens: 5,
        temperature: 0,
      });
      const system = await client.chat.completions.create({
        model: 'inpage-test',
        messages: [
          { role: 'system', content: 'x' },
          { role: 'user', content: 'abc' },
        ],
        max_completion_tokens: 5,
        temperature: 0,
      });
      return JSON.parse(JSON.stringify({ plain, system }));
    });
    assert.match(result.plain.id, /^chatcmpl-/);
    assert.equal(result.plain.object, 'chat.completion');
    assert.equal(result.plain.choices[0].message.role, 'assistant');
    assert.equal(result.plain.choices[0].message.content, 'defgh');
    assert.equal(result.plain.choices[0].finish_reason, 'length');
    assert.deepEqual(result.plain.usage, {
      prompt_tokens: 3,
      completion_tokens: 5,
      total_tokens: 8,
      prompt_tokens_details: { cached_tokens: 0 },
    });
    assert.equal(result.system.choices[0].message.content, 'defgh');
    assert.equal(result.system.usage.prompt_tokens, 4);
  });

  test('chat stream: the role comes first, the deltas join to defgh, one finish, and usage last when asked', async () => {
    const result = await fixture.page.evaluate(async () => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      const stream = await client.chat.completions.create({
        model: 'inpage-test',
        messages: [{ role: 'user', content: 'abc' }],
        max_tokens: 5,
        temperature: 0,
        stream: true,
        stream_options: { include_usage: true },
      });
      const chunks: unknown[] = [];
      for await (const chunk of stream) chunks.push(JSON.parse(JSON.stringify(chunk)));
      return chunks as Array<{
        object: string;
        choices: Array<{ delta: { role?: string; content?: string }; finish_reason: string | null }>;
        usage?: unknown;
      }>;
    });
    assert.ok(result.every((chunk) => chunk.object === 'chat.completion.chunk'));
    assert.equal(result[0]?.choices[0]?.delta.role, 'assistant');
    const text = result.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? '')).join('');
    assert.equal(text, 'defgh');
    assert.deepEqual(
      result.flatMap((chunk) => chunk.choices.map((c) => c.finish_reason)).filter((r) => r !== null),
      ['length'],
    );
    assert.deepEqual(result.at(-1)?.choices, []);
    // The prefix cache may hold the same prompt from the test before: cached_tokens is what it reused.
    assert.deepEqual(
      { ...(result.at(-1)?.usage as object), prompt_tokens_details: undefined },
      { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8, prompt_tokens_details: undefined },
    );
  });

  test('chat logprobs come in the chat shape with the known distribution', async () => {
    const result = await fixture.page.evaluate(async () => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      const answer = await client.chat.completions.create({
        model: 'inpage-test',
        messages: [{ role: 'user', content: 'abc' }],
        max_tokens: 2,
        temperature: 0,
        logprobs: true,
        top_logprobs: 2,
      });
      return JSON.parse(JSON.stringify(answer.choices[0]?.logprobs));
    });
    assert.deepEqual(
      result.content.map((entry: { token: string }) => entry.token),
      ['d', 'e'],
    );
    assert.deepEqual(result.content[0].bytes, [100]);
    assert.equal(result.content[0].top_logprobs.length, 2);
    assert.equal(result.content[0].top_logprobs[0].token, 'd');
    assert.ok(result.content[0].logprob < 0 && result.content[0].logprob === result.content[0].top_logprobs[0].logprob);
  });

  test('responses logprobs (include message.output_text.logprobs, top_logprobs): on the output_text part and the delta events', async () => {
    const result = await fixture.page.evaluate(async () => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      const params = {
        model: 'inpage-test',
        input: 'abc',
        max_output_tokens: 2,
        temperature: 0,
        include: ['message.output_text.logprobs' as const],
        top_logprobs: 2,
      };
      const whole = await client.responses.create(params);
      const deltas: unknown[] = [];
      for await (const event of await client.responses.create({ ...params, stream: true }))
        if (event.type === 'response.output_text.delta') deltas.push(...event.logprobs);
      const unknown = await fetch('/v1/responses', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...params, include: ['message.output_text.logprob'] }),
      });
      return {
        output: JSON.parse(JSON.stringify(whole.output)),
        deltas: JSON.parse(JSON.stringify(deltas)),
        unknown: { status: unknown.status, body: await unknown.json() },
      };
    });
    const logprobs = result.output[0].content[0].logprobs;
    assert.deepEqual(
      logprobs.map((entry: { token: string }) => entry.token),
      ['d', 'e'],
    );
    assert.deepEqual(logprobs[0].bytes, [100]);
    assert.equal(logprobs[0].top_logprobs.length, 2);
    assert.equal(logprobs[0].top_logprobs[0].token, 'd');
    assert.ok(logprobs[0].logprob < 0 && logprobs[0].logprob === logprobs[0].top_logprobs[0].logprob);
    // The delta events carry OpenAI's delta shape: the same tokens and numbers, without bytes.
    const strip = ({ token, logprob, top_logprobs }: { token: string; logprob: number; top_logprobs: [] }) => ({
      token,
      logprob,
      top_logprobs: top_logprobs.map(({ token, logprob }) => ({ token, logprob })),
    });
    assert.deepEqual(result.deltas, logprobs.map(strip));
    assert.equal(result.unknown.status, 400);
    assert.equal(result.unknown.body.error.param, 'include');
  });

  test('responses: input abc answers defgh as an output_text message, stream and not', async () => {
    const result = await fixture.page.evaluate(async () => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      const whole = await client.responses.create({
        model: 'inpage-test',
        input: 'abc',
        max_output_tokens: 5,
        temperature: 0,
      });
      const stream = await client.responses.create({
        model: 'inpage-test',
        input: [{ role: 'user', content: [{ type: 'input_text', text: 'abc' }] }],
        max_output_tokens: 5,
        temperature: 0,
        stream: true,
      });
      const events: Array<{ type: string; delta?: string }> = [];
      for await (const event of stream)
        events.push({
          type: event.type,
          ...('delta' in event && typeof event.delta === 'string' ? { delta: event.delta } : {}),
        });
      return { whole: JSON.parse(JSON.stringify(whole)), text: whole.output_text, events };
    });
    assert.equal(result.whole.object, 'response');
    assert.equal(result.text, 'defgh');
    assert.deepEqual(result.whole.usage.input_tokens, 3);
    assert.deepEqual(result.whole.usage.output_tokens, 5);
    assert.equal(result.events[0]?.type, 'response.created');
    assert.equal(result.events.at(-1)?.type, 'response.incomplete');
    assert.equal(
      result.events
        .filter((e) => e.type === 'response.output_text.delta')
        .map((e) => e.delta)
        .join(''),
      'defgh',
    );
  });

  test('bad chat input is a 400 naming the parameter, decided without the engine', async () => {
    const result = await fixture.page.evaluate(async () => {
      const post = (body: unknown) =>
        fetch('/v1/chat/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const answers = await Promise.all([
        post({ model: 'inpage-test' }),
        post({ model: 'inpage-test', messages: [{ role: 'wizard', content: 'x' }] }),
        post({ model: 'inpage-test', messages: [{ role: 'user', content: 'x' }], top_logprobs: 2 }),
      ]);
      return Promise.all(answers.map(async (r) => ({ status: r.status, body: await r.json() })));
    });
    for (const answer of result) assert.equal(answer.status, 400);
    assert.equal(result[0]?.body.error.param, 'messages');
    assert.match(String(result[1]?.body.error.param), /^messages/);
    assert.equal(result[2]?.body.error.param, 'top_logprobs');
  });
});
