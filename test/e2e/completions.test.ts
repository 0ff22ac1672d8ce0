import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { usePage } from './page-fixture';

const fixture = usePage();

interface StreamResult {
  texts: string[];
  finishes: Array<string | null>;
  ids: string[];
  objects: string[];
  usage: unknown;
}

/** Runs a request through the official `openai` SDK inside the page. */
function sdkCreate(params: Record<string, unknown>) {
  return fixture.page.evaluate(async (params) => {
    const client = new window.OpenAI({
      baseURL: location.origin + '/v1',
      apiKey: 'unused',
      dangerouslyAllowBrowser: true,
    });
    const completion = await client.completions.create({ model: 'inpage-test', prompt: '', ...params, stream: false });
    return JSON.parse(JSON.stringify(completion));
  }, params);
}

function sdkStream(params: Record<string, unknown>): Promise<StreamResult> {
  return fixture.page.evaluate(async (params) => {
    const client = new window.OpenAI({
      baseURL: location.origin + '/v1',
      apiKey: 'unused',
      dangerouslyAllowBrowser: true,
    });
    const stream = await client.completions.create({ model: 'inpage-test', prompt: '', ...params, stream: true });
    const result = {
      texts: [] as string[],
      finishes: [] as Array<string | null>,
      ids: [] as string[],
      objects: [] as string[],
      usage: null as unknown,
    };
    for await (const chunk of stream) {
      result.ids.push(chunk.id);
      result.objects.push(chunk.object);
      if (chunk.usage) result.usage = chunk.usage;
      for (const choice of chunk.choices) {
        result.texts.push(choice.text);
        result.finishes.push(choice.finish_reason);
      }
    }
    return result;
  }, params);
}

describe('POST /v1/completions through the Service Worker with the openai SDK', () => {
  test('greedy "abc" with max_tokens 5 returns "defgh", finish length, exact usage', async () => {
    const completion = await sdkCreate({ prompt: 'abc', max_tokens: 5, temperature: 0 });
    assert.match(completion.id, /^cmpl-/);
    assert.equal(completion.object, 'text_completion');
    assert.equal(completion.model, 'inpage-test');
    assert.ok(Math.abs(completion.created - Date.now() / 1000) < 60, 'created is in seconds');
    assert.deepEqual(completion.choices, [{ text: 'defgh', index: 0, logprobs: null, finish_reason: 'length' }]);
    assert.deepEqual(completion.usage, { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 });
  });

  test('the same request streamed yields chunks joining to "defgh", finish_reason once, in the last chunk', async () => {
    const result = await sdkStream({ prompt: 'abc', max_tokens: 5, temperature: 0 });
    assert.equal(result.texts.join(''), 'defgh');
    assert.deepEqual(
      result.finishes.filter((reason) => reason !== null),
      ['length'],
    );
    assert.equal(result.finishes.at(-1), 'length');
    assert.equal(new Set(result.ids).size, 1, 'one id for all chunks');
    assert.ok(result.objects.every((object) => object === 'text_completion'));
    assert.equal(result.usage, null, 'no usage in chunks unless asked');
  });

  test('stream and non-stream give the same text', async () => {
    const whole = await sdkCreate({ prompt: 'Wx', max_tokens: 12, temperature: 0 });
    const streamed = await sdkStream({ prompt: 'Wx', max_tokens: 12, temperature: 0 });
    assert.equal(whole.choices[0].text, 'yzabcdefghij');
    assert.equal(streamed.texts.join(''), whole.choices[0].text);
  });

  test('stream_options.include_usage adds a final chunk with choices [] and usage', async () => {
    const result = await sdkStream({
      prompt: 'abc',
      max_tokens: 4,
      temperature: 0,
      stream_options: { include_usage: true },
    });
    assert.equal(result.texts.join(''), 'defg');
    const usage = result.usage as { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    assert.deepEqual([usage.prompt_tokens, usage.completion_tokens, usage.total_tokens], [3, 4, 7]);
  });

  test('a stop string spanning several tokens ends the text before it, finish stop', async () => {
    const completion = await sdkCreate({ prompt: 'abc', max_tokens: 10, temperature: 0, stop: 'fg' });
    assert.equal(completion.choices[0].text, 'de');
    assert.equal(completion.choices[0].finish_reason, 'stop');
    const streamed = await sdkStream({ prompt: 'abc', max_tokens: 10, temperature: 0, stop: ['zz', 'gh'] });
    assert.equal(streamed.texts.join(''), 'def');
    assert.equal(streamed.finishes.at(-1), 'stop');
  });

  test('"x." ends at once with EOS: empty text, finish stop', async () => {
    const completion = await sdkCreate({ prompt: 'x.', max_tokens: 5, temperature: 0 });
    assert.equal(completion.choices[0].text, '');
    assert.equal(completion.choices[0].finish_reason, 'stop');
    assert.deepEqual(completion.usage, { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3 });
  });

  test('"hi " continues with spaces; default max_tokens is 16', async () => {
    const completion = await sdkCreate({ prompt: 'hi ' });
    assert.equal(completion.choices[0].text, ' '.repeat(16));
    assert.equal(completion.usage.completion_tokens, 16);
  });

  test('the same seed at temperature 1 gives the same text', async () => {
    const first = await sdkCreate({ prompt: 'a', max_tokens: 24, seed: 7 });
    const second = await sdkCreate({ prompt: 'a', max_tokens: 24, seed: 7 });
    assert.equal(first.choices[0].text, second.choices[0].text);
    assert.match(first.choices[0].text, /^[a-z]{24}$/);
  });

  test('the SDK retrieves one model (GET /v1/models/{id}); an unknown id is a NotFoundError', async () => {
    const result = await fixture.page.evaluate(async () => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      const model = await client.models.retrieve('inpage-test');
      const missing = await client.models.retrieve('nope').then(
        () => null,
        (error: { status: number; code: string; constructor: { name: string } }) => ({
          status: error.status,
          code: error.code,
          name: error.constructor.name,
        }),
      );
      const list = await client.models.list();
      return { model: JSON.parse(JSON.stringify(model)), missing, ids: list.data.map((entry) => entry.id) };
    });
    assert.equal(result.model.id, 'inpage-test');
    assert.equal(result.model.object, 'model');
    assert.equal(result.model.owned_by, 'inpage-llm');
    assert.deepEqual(result.missing, { status: 404, code: 'model_not_found', name: 'NotFoundError' });
    assert.deepEqual(result.ids, ['inpage-test']);
  });

  test('GET /v1/models lists inpage-test in the OpenAI list shape', async () => {
    const list = await fixture.page.evaluate(async () => (await fetch('/v1/models')).json());
    assert.equal(list.object, 'list');
    const model = list.data.find((entry: { id: string }) => entry.id === 'inpage-test');
    assert.ok(model, 'inpage-test is listed');
    assert.equal(model.object, 'model');
    assert.equal(model.owned_by, 'inpage-llm');
    assert.equal(model.status, 'ready');
    assert.equal(typeof model.created, 'number');
  });
});
