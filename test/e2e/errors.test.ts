import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright';
import { startHarness, type Harness } from './harness';
import { postFromPage, type RawResponse } from './page-helpers';

let harness: Harness;
let page: Page;

before(async () => {
  harness = await startHarness();
  ({ page } = await harness.openPage());
});

after(() => harness.close());

function assertOpenAIError(response: RawResponse, status: number, param: string | null): void {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.match(response.contentType ?? '', /application\/json/);
  const body = response.body as { error: Record<string, unknown> };
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
  assert.equal(typeof body.error.message, 'string');
  assert.ok(String(body.error.message).length > 0);
  assert.equal(body.error.param, param);
}

async function assertStillAnswers(): Promise<void> {
  const response = await postFromPage(page, '/v1/completions', { model: 'inpage-test', prompt: 'abc', max_tokens: 5, temperature: 0 });
  assert.equal(response.status, 200);
  assert.equal((response.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
}

describe('bad input gets OpenAI error JSON and the engine keeps answering', () => {
  test('non-JSON body -> 400', async () => {
    const response = await postFromPage(page, '/v1/completions', '{"model": "inpage-test", prompt');
    assertOpenAIError(response, 400, null);
    assert.equal((response.body as { error: { type: string } }).error.type, 'invalid_request_error');
    await assertStillAnswers();
  });

  test('prompt missing -> 400 param prompt', async () => {
    const response = await postFromPage(page, '/v1/completions', { model: 'inpage-test', max_tokens: 5 });
    assertOpenAIError(response, 400, 'prompt');
    await assertStillAnswers();
  });

  test('max_tokens "x" -> 400 param max_tokens', async () => {
    const response = await postFromPage(page, '/v1/completions', { model: 'inpage-test', prompt: 'a', max_tokens: 'x' });
    assertOpenAIError(response, 400, 'max_tokens');
    await assertStillAnswers();
  });

  test('unknown model -> 404 model_not_found', async () => {
    const response = await postFromPage(page, '/v1/completions', { model: 'no-such-model', prompt: 'a' });
    assertOpenAIError(response, 404, 'model');
    assert.equal((response.body as { error: { code: string } }).error.code, 'model_not_found');
    await assertStillAnswers();
  });

  test('a parameter the endpoint cannot honour -> 400 naming it, never ignored', async () => {
    const response = await postFromPage(page, '/v1/completions', { model: 'inpage-test', prompt: 'a', logprobs: 2 });
    assertOpenAIError(response, 400, 'logprobs');
    await assertStillAnswers();
  });

  test('the openai SDK surfaces the 404 as NotFoundError with the body', async () => {
    const result = await page.evaluate(async () => {
      const client = new window.OpenAI({ baseURL: location.origin + '/v1', apiKey: 'unused', dangerouslyAllowBrowser: true });
      try {
        await client.completions.create({ model: 'missing', prompt: 'a' });
        return null;
      } catch (error) {
        const apiError = error as { status: number; code: string; param: string; constructor: { name: string } };
        return { status: apiError.status, code: apiError.code, param: apiError.param, name: apiError.constructor.name };
      }
    });
    assert.deepEqual(result, { status: 404, code: 'model_not_found', param: 'model', name: 'NotFoundError' });
  });

  test('requests outside the /v1 routes go to the network untouched', async () => {
    const response = await page.evaluate(async () => {
      const other = await fetch('/v1/not-a-route', { method: 'POST', body: '{}' });
      const page = await fetch('/');
      return { other: other.status, otherType: other.headers.get('content-type'), page: (await page.text()).includes('<inpage-playground>') };
    });
    assert.ok(!String(response.otherType).includes('application/json') || response.other !== 400, 'not answered by the SW');
    assert.equal(response.page, true);
  });
});
