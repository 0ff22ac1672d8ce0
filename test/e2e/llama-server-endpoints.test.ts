/**
 * llama.cpp server's own `/tokenize`, `/detokenize`, `/apply-template` and `/health`, beside the route prefix (`/tokenize`
 * next to `/v1`), on the llamacpp backend: the ids, pieces and text llama-server gives on the
 * same GGUF, `model` optional (the model loaded here), and errors in llama-server's shape. On
 * `inpage-test` (one token per byte) and `inpage-test-qwen3` (Qwen3's real vocabulary).
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { INPAGE_TEST_QWEN3_CHAIN, INPAGE_TEST_QWEN3_CHAIN_TEXT } from '../fixtures/inpage-test-qwen3-spec';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const fixture = usePage();

const post = async (path: string, body: unknown) => postFromPage(fixture.page, path, body);

describe('/tokenize and /detokenize on inpage-test', () => {
  test('abc is 3 tokens, the prompt count of a completion; the pieces spell it; /detokenize gives it back', async () => {
    const ids = await post('/tokenize', { content: 'abc' });
    assert.equal(ids.status, 200);
    const { tokens } = ids.body as { tokens: number[] };
    assert.equal(tokens.length, 3);
    const completion = await post('/v1/completions', { model: 'inpage-test', prompt: 'abc', max_tokens: 1 });
    assert.equal((completion.body as { usage: { prompt_tokens: number } }).usage.prompt_tokens, tokens.length);
    const pieces = await post('/tokenize', { content: 'abc', with_pieces: true, model: 'inpage-test' });
    assert.deepEqual(pieces.body, { tokens: tokens.map((id, i) => ({ id, piece: 'abc'[i] })) });
    assert.deepEqual((await post('/detokenize', { tokens })).body, { content: 'abc' });
  });

  test('/health is ok with a model ready; /apply-template renders the conversation as the template does', async () => {
    const health = await fixture.page.evaluate(async () => {
      const response = await fetch('/health');
      return { status: response.status, body: await response.json() };
    });
    assert.deepEqual(health, { status: 200, body: { status: 'ok' } });
    // inpage-test's template concatenates the contents.
    const rendered = await post('/apply-template', {
      messages: [
        { role: 'system', content: 'x' },
        { role: 'user', content: 'abc' },
      ],
    });
    assert.deepEqual(rendered.body, { prompt: 'xabc' });
  });

  test("errors in llama-server's shape: a bad field, an id outside the vocabulary, a wrong method", async () => {
    const bad = await post('/tokenize', { content: 5 });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys((bad.body as { error: object }).error).sort(), ['code', 'message', 'type']);
    assert.deepEqual(
      [(bad.body as { error: { code: number } }).error.code, (bad.body as { error: { type: string } }).error.type],
      [400, 'invalid_request_error'],
    );
    const outside = await post('/detokenize', { tokens: [1, 10_000_000] });
    assert.equal(outside.status, 400);
    assert.match((outside.body as { error: { message: string } }).error.message, /outside the vocabulary/);
    const method = await fixture.page.evaluate(async () => {
      const response = await fetch('/tokenize');
      return { status: response.status, allow: response.headers.get('allow'), body: await response.json() };
    });
    assert.deepEqual([method.status, method.allow, method.body.error.code], [405, 'POST', 405]);
  });
});

describe('/tokenize and /detokenize on inpage-test-qwen3 (Qwen3 vocabulary)', () => {
  before(() => fixture.page.evaluate(() => window.inpage.load('/models/inpage-test-qwen3.gguf')));

  test("the chain's 12 ids; a split character's pieces as bytes; control-token text parsed unless parse_special is false", async () => {
    const model = 'inpage-test-qwen3';
    const chain = await post('/tokenize', { model, content: INPAGE_TEST_QWEN3_CHAIN_TEXT, with_pieces: true });
    const pieces = (chain.body as { tokens: Array<{ id: number; piece: string | number[] }> }).tokens;
    assert.deepEqual(
      pieces.map((token) => token.id),
      INPAGE_TEST_QWEN3_CHAIN,
    );
    // 𝔸 (F0 9D 94 B8) splits across 81250 (" \xF0\x9D"), 242 and 116: no piece of it is UTF-8 alone.
    assert.deepEqual(pieces.slice(7, 10), [
      { id: 81250, piece: [0x20, 0xf0, 0x9d] },
      { id: 242, piece: [0x94] },
      { id: 116, piece: [0xb8] },
    ]);
    assert.deepEqual(pieces.slice(0, 2), [
      { id: 9707, piece: 'Hello' },
      { id: 11, piece: ',' },
    ]);
    const special = await post('/tokenize', { model, content: '<|im_end|>' });
    assert.deepEqual(special.body, { tokens: [151645] });
    const literal = await post('/tokenize', { model, content: '<|im_end|>', parse_special: false });
    assert.ok((literal.body as { tokens: number[] }).tokens.length > 1);
    // The prompt /apply-template renders is the one chat runs: 9 tokens for [user abc].
    const rendered = await post('/apply-template', { model, messages: [{ role: 'user', content: 'abc' }] });
    const { prompt } = rendered.body as { prompt: string };
    assert.equal(prompt, '<|im_start|>user\nabc<|im_end|>\n<|im_start|>assistant\n');
    assert.equal(((await post('/tokenize', { model, content: prompt })).body as { tokens: number[] }).tokens.length, 9);
    const back = await post('/detokenize', { model, tokens: INPAGE_TEST_QWEN3_CHAIN });
    assert.deepEqual(back.body, { content: INPAGE_TEST_QWEN3_CHAIN_TEXT });
  });
});
