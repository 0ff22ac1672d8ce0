import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { usePage } from './page-fixture';
import { assertAnswersDefgh, postFromPage, type RawResponse } from './page-helpers';

const fixture = usePage();

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

const assertStillAnswers = (): Promise<void> => assertAnswersDefgh(fixture.page);

describe('bad input gets OpenAI error JSON and the engine keeps answering', () => {
  test('non-JSON body -> 400', async () => {
    const response = await postFromPage(fixture.page, '/v1/completions', '{"model": "inpage-test", prompt');
    assertOpenAIError(response, 400, null);
    assert.equal((response.body as { error: { type: string } }).error.type, 'invalid_request_error');
    await assertStillAnswers();
  });

  test('prompt missing -> 400 param prompt', async () => {
    const response = await postFromPage(fixture.page, '/v1/completions', { model: 'inpage-test', max_tokens: 5 });
    assertOpenAIError(response, 400, 'prompt');
    await assertStillAnswers();
  });

  test('max_tokens "x" -> 400 param max_tokens', async () => {
    const response = await postFromPage(fixture.page, '/v1/completions', {
      model: 'inpage-test',
      prompt: 'a',
      max_tokens: 'x',
    });
    assertOpenAIError(response, 400, 'max_tokens');
    await assertStillAnswers();
  });

  test('unknown model -> 404 model_not_found', async () => {
    const response = await postFromPage(fixture.page, '/v1/completions', { model: 'no-such-model', prompt: 'a' });
    assertOpenAIError(response, 404, 'model');
    assert.equal((response.body as { error: { code: string } }).error.code, 'model_not_found');
    await assertStillAnswers();
  });

  test('a parameter the model cannot honour -> 400 naming it, never ignored', async () => {
    const response = await postFromPage(fixture.page, '/v1/completions', {
      model: 'inpage-test',
      prompt: 'a',
      suffix: 'z',
    });
    assertOpenAIError(response, 400, 'suffix');
    await assertStillAnswers();
  });

  test('the openai SDK surfaces the 404 as NotFoundError with the body', async () => {
    const result = await fixture.page.evaluate(async () => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
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

  test('requests outside the /v1 prefix are not answered by the endpoint; inside it, unknown paths are OpenAI 404s', async () => {
    const response = await fixture.page.evaluate(async () => {
      const outside = await fetch('/not-v1/completions', { method: 'POST', body: '{}' });
      const inside = await fetch('/v1/not-a-route', { method: 'POST', body: '{}' });
      const home = await fetch('/');
      return {
        outside: outside.status,
        outsideBody: await outside.text(),
        inside: inside.status,
        insideBody: await inside.text(),
        home: (await home.text()).includes('<inpage-playground>'),
      };
    });
    // The preview server's own 404, not an OpenAI error from the SW.
    assert.equal(response.outside, 404);
    assert.ok(!response.outsideBody.includes('"error"'), response.outsideBody);
    assert.equal(response.inside, 404);
    assert.equal(JSON.parse(response.insideBody).error.code, 'unknown_url');
    assert.equal(response.home, true);
  });
});
