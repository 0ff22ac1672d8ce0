import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { usePage } from './page-fixture';
import { postFromPage, streamFromPage } from './page-helpers';

const fixture = usePage();

/** Every field with wrong types and out-of-range values: each must be a 400 naming it. */
const BAD: Array<[string, unknown[]]> = [
  ['model', [5, '', true]],
  ['prompt', [5, {}, [], [[]], [1.5], [-1], ['a', 1], true]],
  ['max_tokens', ['x', 1.5, -2, true]],
  ['min_tokens', ['x', -1, 0.5]],
  ['temperature', ['1', -0.1, 2.1]],
  ['top_p', ['1', 0, 1.1]],
  ['top_k', ['1', -2, 0.5]],
  ['min_p', ['1', -0.1, 1.1]],
  ['typical_p', ['1', 0, 1.1]],
  ['mirostat', ['1', 3, -1]],
  ['mirostat_mode', [3]],
  ['mirostat_tau', ['1', -1]],
  ['mirostat_eta', ['1', -1, 2]],
  ['presence_penalty', ['1', -2.1, 2.1]],
  ['frequency_penalty', ['1', -2.1, 2.1]],
  ['repetition_penalty', ['1', 0, -1]],
  ['repeat_penalty', [0]],
  ['logit_bias', [[1], 'x', { x: true }, { '1': 101 }, { '1': 'a' }]],
  ['seed', ['1', 1.5]],
  ['ignore_eos', ['yes', 1]],
  ['stop', [5, [''], [1], {}]],
  ['stop_token_ids', ['1', [-1], [1.5], 5]],
  ['include_stop_str_in_output', ['yes']],
  ['no_stop_trim', [1]],
  ['n', ['1', 0, 1.5, 129]],
  ['best_of', ['1', 0]],
  ['logprobs', ['1', -1, 6, 1.5]],
  ['echo', ['yes']],
  ['suffix', [5]],
  ['stream', ['yes', 1]],
  ['cache_prompt', ['yes']],
  ['user', [5]],
];

describe('conformance: errors', () => {
  test('each field with a wrong type or out-of-range value is a 400 naming that field', async () => {
    for (const [field, values] of BAD) {
      for (const value of values) {
        const body = { model: 'inpage-test', prompt: 'a', [field]: value };
        const response = await postFromPage(fixture.page, '/v1/completions', body);
        const error = (response.body as { error: { param: string | null; type: string } }).error;
        assert.equal(response.status, 400, `${field}=${JSON.stringify(value)}`);
        assert.equal(error.type, 'invalid_request_error');
        assert.equal(error.param, field, `${field}=${JSON.stringify(value)} named ${error.param}`);
      }
    }
  });

  test('cross-field rules are 400s naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ n: 3, best_of: 2 }, 'best_of'],
      [{ best_of: 2, stream: true }, 'best_of'],
      [{ stream_options: { include_usage: true } }, 'stream_options'],
      [{ stream: true, stream_options: { bogus: true } }, 'stream_options.bogus'],
      [{ max_tokens: 2, min_tokens: 3 }, 'min_tokens'],
      [{ mirostat: 1, mirostat_mode: 2 }, 'mirostat_mode'],
      [{ bogus: 1 }, 'bogus'],
      [{ prompt: [300] }, 'prompt'],
      [{ stop_token_ids: [999] }, 'stop_token_ids'],
      [{ logit_bias: { '258': 1 } }, 'logit_bias'],
      [{ suffix: 'xyz' }, 'suffix'],
    ];
    for (const [fields, param] of cases) {
      const response = await postFromPage(fixture.page, '/v1/completions', {
        model: 'inpage-test',
        prompt: 'a',
        ...fields,
      });
      assert.equal(response.status, 400, JSON.stringify(fields));
      assert.equal((response.body as { error: { param: string } }).error.param, param, JSON.stringify(fields));
    }
  });

  test('a prompt longer than the context is a 400', async () => {
    const response = await postFromPage(fixture.page, '/v1/completions', {
      model: 'inpage-test',
      prompt: 'a'.repeat(5000),
      max_tokens: 1,
    });
    assert.equal(response.status, 400, JSON.stringify(response.body));
    assert.equal((response.body as { error: { code: string; param: string } }).error.param, 'prompt');
  });

  test('an error after streaming began is a data: {"error":...} frame, then the stream ends (no [DONE])', async () => {
    const result = await streamFromPage(fixture.page, {
      model: 'inpage-test',
      prompt: ['abc', 'a'.repeat(5000)],
      max_tokens: 3,
      temperature: 0,
      stream: true,
    });
    assert.equal(result.status, 200);
    const texts = result.events.flatMap((event) =>
      ((event.choices as Array<{ text: string }> | undefined) ?? []).map((choice) => choice.text),
    );
    assert.equal(texts.join(''), 'def');
    const last = result.events.at(-1) as { error?: { param: string; type: string } };
    assert.equal(last.error?.param, 'prompt');
    assert.equal(result.done, false);
    const whole = await postFromPage(fixture.page, '/v1/completions', {
      model: 'inpage-test',
      prompt: ['abc', 'a'.repeat(5000)],
      max_tokens: 3,
    });
    assert.equal(whole.status, 400);
  });

  test("output that is not valid UTF-8 is served with U+FFFD, JSON and SSE, with its tokens and logprobs (as llama.cpp's server does)", async () => {
    // After the bytes of "é" (C3 A9) the model writes the lone continuation bytes AA AB AC.
    const body = { model: 'inpage-test', prompt: 'é', max_tokens: 3, temperature: 0, logprobs: 1 };
    const json = await postFromPage(fixture.page, '/v1/completions', body);
    const sse = await streamFromPage(fixture.page, { ...body, stream: true });
    console.log(JSON.stringify({ json: json.body, sse: sse.events }));
    assert.equal(json.status, 200);
    const choice = (
      json.body as {
        choices: Array<{
          text: string;
          finish_reason: string;
          logprobs: { tokens: string[]; token_logprobs: number[] };
        }>;
      }
    ).choices[0]!;
    assert.equal(choice.text, '\uFFFD\uFFFD\uFFFD');
    assert.equal(choice.finish_reason, 'length');
    assert.equal(choice.logprobs.tokens.length, 3);
    for (const logprob of choice.logprobs.token_logprobs) assert.ok(logprob > -0.01, `greedy step ${logprob}`);
    assert.equal(sse.status, 200);
    assert.equal(sse.done, true);
    const streamed = sse.events
      .map((event) => (event as { choices: Array<{ text: string }> }).choices[0]?.text ?? '')
      .join('');
    assert.equal(streamed, '\uFFFD\uFFFD\uFFFD');
    const ok = await postFromPage(fixture.page, '/v1/completions', {
      model: 'inpage-test',
      prompt: 'abc',
      max_tokens: 2,
      temperature: 0,
    });
    assert.equal((ok.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'de');
  });

  test('the streamed form of an early error keeps its status', async () => {
    const result = await streamFromPage(fixture.page, { model: 'inpage-test', prompt: 'a', suffix: 'b', stream: true });
    assert.equal(result.status, 400);
  });

  test('every error body has exactly {error:{message,type,param,code}}; the endpoint still answers', async () => {
    const response = await postFromPage(fixture.page, '/v1/completions', { model: 'inpage-test', prompt: 'a', n: 0 });
    const body = response.body as { error: Record<string, unknown> };
    assert.deepEqual(Object.keys(body), ['error']);
    assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
    const ok = await postFromPage(fixture.page, '/v1/completions', {
      model: 'inpage-test',
      prompt: 'abc',
      max_tokens: 2,
      temperature: 0,
    });
    assert.equal(ok.status, 200);
  });
});

describe('conformance: API key', () => {
  test('with a key set at start, a missing or wrong key is a 401; the right key works', async () => {
    const { page: keyed, context } = await fixture.harness.openPage('/?model=inpage-test&api_key=sk-test-123');
    const body = { model: 'inpage-test', prompt: 'abc', max_tokens: 2, temperature: 0 };
    const missing = await postFromPage(keyed, '/v1/completions', body);
    assert.equal(missing.status, 401);
    assert.equal((missing.body as { error: { code: string } }).error.code, 'invalid_api_key');
    const wrong = await streamFromPage(keyed, { ...body, stream: true }, { authorization: 'Bearer nope' });
    assert.equal(wrong.status, 401);
    const right = await keyed.evaluate(async (body) => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'sk-test-123',
        dangerouslyAllowBrowser: true,
      });
      return (await client.completions.create(body)).choices[0]?.text;
    }, body);
    assert.equal(right, 'de');
    const models = await keyed.evaluate(async () => (await fetch('/v1/models')).status);
    assert.equal(models, 401);
    await context.close();
  });

  test('without a key, any key is accepted', async () => {
    const status = await fixture.page.evaluate(async () => {
      const response = await fetch('/v1/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer anything' },
        body: JSON.stringify({ model: 'inpage-test', prompt: 'a', max_tokens: 1 }),
      });
      return response.status;
    });
    assert.equal(status, 200);
  });
});
