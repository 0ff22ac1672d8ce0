import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { usePage } from './page-fixture';
import { postFromPage, type RawResponse } from './page-helpers';

// Bad input is decided in the SW: a 4xx in OpenAI's error shape, never a 500, never a hang,
// and the error echoes only a bounded prefix of the input.
const fixture = usePage();

function assertError(
  response: RawResponse,
  status: number,
): { message: string; param: string | null; code: string | null } {
  assert.equal(response.status, status, JSON.stringify(response.body).slice(0, 300));
  assert.match(response.contentType ?? '', /application\/json/);
  const body = response.body as { error: { message: string; param: string | null; code: string | null } };
  assert.deepEqual(Object.keys(body), ['error']);
  return body.error;
}

/** GET or another method on `path` from the page, the answer parsed when it is JSON. */
function request(method: string, path: string): Promise<RawResponse & { allow: string | null }> {
  return fixture.page.evaluate(
    async ({ method, path }) => {
      const response = await fetch(path, {
        method,
        ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      return {
        status: response.status,
        contentType: response.headers.get('content-type'),
        body,
        allow: response.headers.get('allow'),
      };
    },
    { method, path },
  );
}

const completion = (extra: Record<string, unknown>) =>
  postFromPage(fixture.page, '/v1/completions', {
    model: 'inpage-test',
    prompt: 'abc',
    max_tokens: 5,
    temperature: 0,
    ...extra,
  });

describe('bad input is a 4xx from the SW', () => {
  for (const id of ['%', '%zz', '%E0%A4%A', 'x%', '%FF']) {
    test(`GET /v1/models/${id} -> 400, not a 500`, async () => {
      const error = assertError(await request('GET', `/v1/models/${id}`), 400);
      assert.equal(error.param, 'model');
    });
  }

  test('a stop list of 100,000 strings works (no stack overflow)', async () => {
    const stop = Array.from({ length: 100_000 }, (_, i) => `<${i}>`);
    const response = await completion({ stop });
    assert.equal(response.status, 200, JSON.stringify(response.body).slice(0, 300));
    assert.equal((response.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  });

  for (const [param, value] of [
    ['repetition_penalty', 1e-40],
    ['repeat_penalty', 5e-324],
  ] as const) {
    test(`${param} ${value} -> 400 naming it`, async () => {
      assert.equal(assertError(await completion({ [param]: value }), 400).param, param);
    });
  }

  for (const key of ['__proto__', 'constructor', 'prototype']) {
    test(`logit_bias key ${key} is a text (llama-server's form), not silently dropped: its tokens win`, async () => {
      const body = `{"model":"inpage-test","prompt":"abc","max_tokens":5,"temperature":0,"logit_bias":{"${key}":100}}`;
      const response = await postFromPage(fixture.page, '/v1/completions', body);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      const text = String((response.body as { choices: Array<{ text: string }> }).choices[0]?.text);
      assert.ok(text.length > 0 && [...text].every((char) => key.includes(char)), text);
    });
  }

  test('a 5 MB model name gets a 404 of bounded size', async () => {
    const response = await completion({ model: 'm'.repeat(5_000_000) });
    const error = assertError(response, 404);
    assert.ok(JSON.stringify(response.body).length < 2000, `${JSON.stringify(response.body).length} bytes`);
    assert.match(error.message, /5000000|characters in all/);
  });
});

describe('wrong methods and unknown paths under /v1 get OpenAI JSON', () => {
  for (const [method, path, allow] of [
    ['GET', '/v1/completions', 'POST'],
    ['POST', '/v1/models', 'GET'],
    ['DELETE', '/v1/models/inpage-test', 'GET'],
  ] as const) {
    test(`${method} ${path} -> 405, Allow: ${allow}`, async () => {
      const response = await request(method, path);
      assert.equal(assertError(response, 405).code, 'method_not_allowed');
      assert.equal(response.allow, allow);
    });
  }

  for (const path of ['/v1/nope', '/v1', '/v1/completions/x']) {
    test(`POST ${path} -> 404`, async () => {
      assert.equal(assertError(await request('POST', path), 404).code, 'unknown_url');
    });
  }
});
