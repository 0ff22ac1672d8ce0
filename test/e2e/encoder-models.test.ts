/**
 * Encoders on the llamacpp backend, against Debian's native `llama-server --embedding` on the same
 * generated BERT (`inpage-test-bert`: bge-small's layout, CLS pooling, a WordPiece vocabulary;
 * test/fixtures/inpage-test-bert.ts): `/v1/embeddings` with the openai SDK and llama-server's
 * `/embedding` give its vectors (within 1e-5) and token counts; the card says it cannot generate
 * (completions and chat are 400s naming `model`) and that its context is its 512 learned
 * positions, so a longer input is a 400 naming `input`, not a trap that loses the model. The
 * BERT reranker is in rerank.test.ts. Part of the llama-server differential: skipped, with what is
 * missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildInpageTestBertModel } from '../fixtures/inpage-test-bert';
import { placeModel, serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { askBoth, type Json } from './llama-server-compare';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const MODEL = 'inpage-test-bert';
const INPUTS = ['what does a cat eat?', 'The sky is BLUE.', 'xyz', 'cats, meat: food!'];
const fixture = usePage();
let native: LlamaServer | undefined;
let card: Json = {};

/** The largest difference between two vectors (of the same length). */
function largestGap(own: unknown, theirs: unknown, label: string): number {
  assert.ok(Array.isArray(own) && Array.isArray(theirs), label);
  assert.equal(own.length, theirs.length, `${label}: length`);
  return own.reduce((max: number, v, i) => Math.max(max, Math.abs(Number(v) - Number(theirs[i]))), 0);
}

describe('a BERT embedder against native llama-server --embedding', { skip: skip ?? false }, () => {
  before(async () => {
    placeModel(MODEL, buildInpageTestBertModel());
    // The attention the engine gives a model whose cache would fit in F32: flash attention off
    // (native/attention.cpp; the embedding context follows the generation context's).
    native = await startLlamaServer({
      model: MODEL,
      args: ['--embedding', '-c', '512', '-np', '1', '--flash-attn', 'off'],
    });
    card = await fixture.page.evaluate(
      async (model) => JSON.parse(JSON.stringify(await window.inpage.load(`/models/${model}.gguf`))) as Json,
      MODEL,
    );
  });
  after(async () => {
    await native?.stop();
  });

  const both = (path: string, body: Json) => {
    if (!native) throw new Error('llama-server starts in before()');
    return askBoth(fixture.page, native, 'POST', path, body, MODEL);
  };

  test('/v1/embeddings through the openai SDK: the same vectors and usage', async () => {
    const own = await fixture.page.evaluate(
      async ({ model, inputs }) => {
        const client = new window.OpenAI({
          baseURL: location.origin + '/v1',
          apiKey: 'x',
          dangerouslyAllowBrowser: true,
        });
        return JSON.parse(
          JSON.stringify(await client.embeddings.create({ model, input: inputs, encoding_format: 'float' })),
        );
      },
      { model: MODEL, inputs: INPUTS },
    );
    const theirs = (await both('/v1/embeddings', { input: INPUTS })).native.body as Json;
    assert.deepEqual(own.usage, theirs.usage);
    const data = theirs.data as Json[];
    INPUTS.forEach((input, i) => {
      const gap = largestGap(own.data[i].embedding, data[i]?.embedding, input);
      assert.ok(gap <= 1e-5, `${input}: largest difference ${gap}`);
    });
  });

  test("llama-server's /embedding: the same vectors", async () => {
    const answer = await both('/embedding', { content: INPUTS });
    assert.equal(answer.own.status, 200, answer.ownText.slice(0, 300));
    const own = answer.own.body as Json[];
    const theirs = answer.native.body as Json[];
    INPUTS.forEach((input, i) => {
      const vector = (entry: Json | undefined) => (entry?.embedding as unknown[] | undefined)?.[0];
      const gap = largestGap(vector(own[i]), vector(theirs[i]), input);
      assert.ok(gap <= 1e-5, `${input}: largest difference ${gap}`);
    });
  });

  test('it cannot generate, its context is its learned positions, and a longer input leaves it working', async () => {
    assert.equal(card.context_length, 512);
    assert.ok(((card.capabilities as Json).unsupported as string[]).includes('generation'));
    for (const [path, body] of [
      ['/v1/completions', { prompt: 'a', max_tokens: 2 }],
      ['/v1/chat/completions', { messages: [{ role: 'user', content: 'a' }], max_tokens: 2 }],
    ] as const) {
      const answer = await postFromPage(fixture.page, path, { ...body, model: MODEL });
      assert.equal(answer.status, 400, path);
      assert.equal((answer.body as { error: Json }).error.param, 'model', path);
    }
    const long = await postFromPage(fixture.page, '/v1/embeddings', { model: MODEL, input: 'a '.repeat(700) });
    assert.equal(long.status, 400);
    assert.deepEqual(
      { param: (long.body as { error: Json }).error.param, code: (long.body as { error: Json }).error.code },
      { param: 'input', code: 'context_length_exceeded' },
    );
    const after = await postFromPage(fixture.page, '/v1/embeddings', { model: MODEL, input: 'a b' });
    assert.equal(after.status, 200);
  });
});
