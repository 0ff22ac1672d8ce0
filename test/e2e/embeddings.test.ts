/**
 * `/v1/embeddings` through the Service Worker with the official openai SDK, on `inpage-test`:
 * its blocks add nothing (zero attn_output/ffn_down), so a token's hidden state is its one-hot
 * embedding scaled by the final RMSNorm, and the mean-pooled, unit-length embedding of "ab" is
 * 1/sqrt(2) at dimensions 97 and 98 and 0 in the other 318 of 320.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { usePage } from './page-fixture';

const fixture = usePage();
const DIM = 320;

/** The unit vector with equal weight on `indices`. */
function expected(indices: number[]): number[] {
  const vector = new Array<number>(DIM).fill(0);
  for (const i of indices) vector[i] = 1 / Math.sqrt(indices.length);
  return vector;
}

function assertClose(actual: ArrayLike<number>, wanted: number[], label: string): void {
  assert.equal(actual.length, wanted.length, `${label}: length`);
  const worst = wanted.reduce((max, w, i) => Math.max(max, Math.abs((actual[i] ?? NaN) - w)), 0);
  assert.ok(worst <= 1e-5, `${label}: largest difference ${worst}`);
}

describe('embeddings with the openai SDK', () => {
  test('float, base64 (little-endian float32), two inputs and token ids: exact vectors and usage', async () => {
    const result = await fixture.page.evaluate(async () => {
      const client = new window.OpenAI({
        baseURL: location.origin + '/v1',
        apiKey: 'unused',
        dangerouslyAllowBrowser: true,
      });
      const float = await client.embeddings.create({ model: 'inpage-test', input: 'ab', encoding_format: 'float' });
      const base64 = await client.embeddings.create({ model: 'inpage-test', input: 'ab', encoding_format: 'base64' });
      const pair = await client.embeddings.create({
        model: 'inpage-test',
        input: ['ab', 'c'],
        encoding_format: 'float',
      });
      const ids = await client.embeddings.create({
        model: 'inpage-test',
        input: [[97, 98], [99]],
        encoding_format: 'float',
      });
      const sdkDefault = await client.embeddings.create({ model: 'inpage-test', input: 'ab' });
      const text = String(base64.data[0]?.embedding);
      const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
      const view = new DataView(bytes.buffer);
      const decoded = Array.from({ length: bytes.length / 4 }, (_, i) => view.getFloat32(i * 4, true));
      return JSON.parse(
        JSON.stringify({ float, base64Type: typeof base64.data[0]?.embedding, decoded, pair, ids, sdkDefault }),
      );
    });
    assert.equal(result.float.object, 'list');
    assert.equal(result.float.model, 'inpage-test');
    assert.deepEqual(result.float.usage, { prompt_tokens: 2, total_tokens: 2 });
    assert.equal(result.float.data[0].object, 'embedding');
    assert.equal(result.float.data[0].index, 0);
    assertClose(result.float.data[0].embedding, expected([97, 98]), 'float');
    assert.equal(result.base64Type, 'string');
    assertClose(result.decoded, expected([97, 98]), 'base64');
    assertClose(result.sdkDefault.data[0].embedding, expected([97, 98]), 'SDK default (base64 decoded by the SDK)');
    assert.deepEqual(
      result.pair.data.map((d: { index: number }) => d.index),
      [0, 1],
    );
    assertClose(result.pair.data[0].embedding, expected([97, 98]), 'pair[0]');
    assertClose(result.pair.data[1].embedding, expected([99]), 'pair[1]');
    assert.deepEqual(result.pair.usage, { prompt_tokens: 3, total_tokens: 3 });
    assertClose(result.ids.data[0].embedding, expected([97, 98]), 'ids[0]');
    assertClose(result.ids.data[1].embedding, expected([99]), 'ids[1]');
    assert.equal(result.ids.usage.prompt_tokens, 3);
  });

  test('dimensions, an empty input and an out-of-vocabulary id are 400s naming the parameter; completions still work after', async () => {
    const result = await fixture.page.evaluate(async () => {
      const post = (path: string, body: unknown) =>
        fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const answers = await Promise.all([
        post('/v1/embeddings', { model: 'inpage-test', input: 'ab', dimensions: 8 }),
        post('/v1/embeddings', { model: 'inpage-test', input: '' }),
        post('/v1/embeddings', { model: 'inpage-test', input: [9999] }),
      ]);
      const errors = await Promise.all(answers.map(async (r) => ({ status: r.status, body: await r.json() })));
      const completion = await (
        await post('/v1/completions', { model: 'inpage-test', prompt: 'abc', max_tokens: 3, temperature: 0 })
      ).json();
      return { errors, text: completion.choices?.[0]?.text };
    });
    for (const answer of result.errors) assert.equal(answer.status, 400);
    assert.equal(result.errors[0]?.body.error.param, 'dimensions');
    assert.equal(result.errors[1]?.body.error.param, 'input');
    assert.equal(result.errors[2]?.body.error.param, 'input');
    assert.equal(result.text, 'def');
  });
});
