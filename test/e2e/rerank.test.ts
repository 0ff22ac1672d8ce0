/**
 * llama-server's rerank endpoint against Debian's native `llama-server --reranking` on the same
 * generated rerankers (test/fixtures/): `inpage-test-rerank`, whose `rerank` template holds the
 * query and the document, and `inpage-test-rerank-plain`, without one, whose vocabulary adds BOS,
 * EOS and SEP, both Qwen3-Reranker's layout; and `inpage-test-bert-rerank`, bge-reranker's (a BERT
 * encoder, a WordPiece vocabulary: [CLS] query [SEP] document [SEP]). On every path (`/rerank`,
 * `/reranking`, `/v1/rerank`, `/v1/reranking`), in Jina's shape and TEI's: the same order, the
 * same token counts (so the same prompts) and the same scores within 1e-5, pairs that keep the
 * prefix they share with the one before included (`/metrics` counts the kept tokens, checked token
 * for token); llama-server's 400s; the AI SDK's `rerank()`; a model that is not a reranker, and
 * embeddings asked of a reranker, are 400s naming `model`. Part of the llama-server differential:
 * skipped, with what is missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildInpageTestBertModel } from '../fixtures/inpage-test-bert';
import { buildInpageTestRerankModel, inpageTestRerankSpec } from '../fixtures/inpage-test-rerank';
import { placeModel, serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { askBoth, type Json } from './llama-server-compare';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';
import { loadSdk } from './sdk-scripts';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const MODELS = ['inpage-test-rerank', 'inpage-test-rerank-plain', 'inpage-test-bert-rerank'] as const;
type Model = (typeof MODELS)[number];
const fixture = usePage(undefined, (page) => loadSdk(page, 'ai-sdk-cohere'));
const native = new Map<Model, LlamaServer>();

const QUERY = 'what does a cat eat?';
const DOCUMENTS = [
  'Cats eat meat: they are obligate carnivores.',
  'The sky is blue because of Rayleigh scattering.',
  'cat food',
  '',
  'A <|im_start|> marker, typed as text: {document} and {query}.',
];

interface Result {
  index: number;
  score: number;
  text?: unknown;
}

/** The results of a Jina-shaped answer or a TEI array, with the score under one name. */
function resultsOf(answer: unknown): Result[] {
  const list = Array.isArray(answer) ? answer : ((answer as Json).results as Json[]);
  return list.map((raw: Json) => ({
    index: raw.index as number,
    score: (raw.relevance_score ?? raw.score) as number,
    ...(raw.text === undefined ? {} : { text: raw.text }),
  }));
}

/**
 * Same order, same texts, scores within 1e-5 (the wasm engine and native x86 sum in other orders;
 * with the prefix kept, the Qwen3-shaped ones were within 1e-6 in F32 caches; in F16 ones, 3e-4).
 */
function assertSameResults(own: Result[], theirs: Result[], label: string) {
  assert.deepEqual(
    own.map(({ index, text }) => ({ index, text })),
    theirs.map(({ index, text }) => ({ index, text })),
    label,
  );
  own.forEach((result, i) => {
    const score = theirs[i]?.score ?? NaN;
    assert.ok(Math.abs(result.score - score) <= 1e-5, `${label}: result ${i}: ${result.score} against ${score}`);
  });
}

describe('rerank against native llama-server --reranking', { skip: skip ?? false }, () => {
  before(async () => {
    placeModel('inpage-test-rerank', buildInpageTestRerankModel());
    placeModel('inpage-test-rerank-plain', buildInpageTestRerankModel(true));
    placeModel('inpage-test-bert-rerank', buildInpageTestBertModel(true));
    // One slot: each pair is scored alone, as here. With two, llama-server puts two documents in one
    // batch, which moves the BERT reranker's scores by up to 2e-4 (the same pair alone: 5e-8 from ours).
    // The KV cache the engine gives these small models: F32, flash attention off (native/attention.cpp).
    const args = ['--reranking', '-np', '1', '--cache-type-k', 'f32', '--cache-type-v', 'f32', '--flash-attn', 'off'];
    const servers = await Promise.all(MODELS.map((model) => startLlamaServer({ model, args })));
    MODELS.forEach((model, i) => native.set(model, servers[i] as LlamaServer));
    await fixture.page.evaluate(async (models) => {
      await window.inpage.load({ id: 'inpage-test', backend: 'llamacpp', source: { kind: 'builtin' } });
      for (const model of models) await window.inpage.load(`/models/${model}.gguf`);
    }, MODELS);
  });
  after(async () => {
    await Promise.all([...native.values()].map((server) => server.stop()));
  });

  const both = (model: Model, path: string, body: Json) => {
    const server = native.get(model);
    if (!server) throw new Error('llama-server starts in before()');
    return askBoth(fixture.page, server, 'POST', path, { ...body, model });
  };

  for (const model of MODELS)
    test(`${model}: every path, Jina's shape: the same order, usage and scores`, async () => {
      for (const path of ['/v1/rerank', '/rerank', '/reranking', '/v1/reranking']) {
        for (const extra of [{}, { top_n: 2 }, { top_n: 0 }]) {
          const label = `${model} ${path} ${JSON.stringify(extra)}`;
          const answer = await both(model, path, { query: QUERY, documents: DOCUMENTS, ...extra });
          assert.equal(answer.own.status, 200, `${label}: ${answer.ownText.slice(0, 300)}`);
          assert.equal(answer.native.status, 200, `${label}: ${answer.nativeText.slice(0, 300)}`);
          const own = answer.own.body as Json;
          const theirs = answer.native.body as Json;
          // The usage llama-server gives; `usage.completion_tokens` and `meta` are additions (rerank-response.ts).
          const { completion_tokens: completion, ...usage } = own.usage as Json;
          assert.equal(completion, 0, label);
          assert.deepEqual(
            { model: own.model, object: own.object, usage },
            { model: theirs.model, object: theirs.object, usage: theirs.usage },
            label,
          );
          assertSameResults(resultsOf(own), resultsOf(theirs), label);
        }
      }
    });

  test('the scores move with the document and the query (a model that could not tell them apart would prove nothing)', async () => {
    for (const model of MODELS) {
      const scoreOf = async (query: string, documents: string[]) =>
        (await both(model, '/v1/rerank', { query, documents })).own.body as Json;
      const scores = resultsOf(await scoreOf(QUERY, DOCUMENTS)).map((result) => result.score);
      assert.equal(new Set(scores).size, DOCUMENTS.length, `${model}: ${scores.join(', ')}`);
      const [first] = resultsOf(await scoreOf(QUERY, DOCUMENTS.slice(0, 1)));
      const [other] = resultsOf(await scoreOf('the weather', DOCUMENTS.slice(0, 1)));
      assert.notEqual(first?.score, other?.score, model);
    }
  });

  test("TEI's shape (`texts`): a bare array, `score`, texts where `return_text` asks", async () => {
    for (const model of MODELS)
      for (const extra of [{}, { return_text: true, top_n: 3 }]) {
        const label = `${model} ${JSON.stringify(extra)}`;
        const answer = await both(model, '/rerank', { query: QUERY, texts: DOCUMENTS, ...extra });
        assert.equal(answer.own.status, 200, `${label}: ${answer.ownText.slice(0, 300)}`);
        assert.ok(Array.isArray(answer.own.body), label);
        assertSameResults(resultsOf(answer.own.body), resultsOf(answer.native.body), label);
      }
  });

  test("the AI SDK's rerank() with its Cohere provider (baseURL /v1): llama-server's ranking", async () => {
    const native = await both('inpage-test-rerank', '/v1/rerank', { query: QUERY, documents: DOCUMENTS, top_n: 3 });
    const own = await fixture.page.evaluate(
      async ({ query, documents }) => {
        const { rerank, createCohere } = window.AISDKCohere;
        const cohere = createCohere({ baseURL: location.origin + '/v1', apiKey: 'x' });
        const result = await rerank({ model: cohere.reranking('inpage-test-rerank'), query, documents, topN: 3 });
        return result.ranking.map(({ originalIndex, score, document }) => ({ originalIndex, score, document }));
      },
      { query: QUERY, documents: DOCUMENTS },
    );
    const theirs = resultsOf(native.native.body);
    assert.equal(own.length, 3);
    assertSameResults(
      own.map(({ originalIndex, score }) => ({ index: originalIndex, score })),
      theirs,
      'AI SDK rerank',
    );
    assert.deepEqual(
      own.map(({ document }) => document),
      theirs.map(({ index }) => DOCUMENTS[index]),
    );
  });

  test('a Qwen3-shaped reranker keeps the prefix pairs share (the template and the query): /metrics counts it', async () => {
    const spec = inpageTestRerankSpec;
    const bytes = (text: string) => [...new TextEncoder().encode(text)];
    // The byte vocabulary: a pair's ids are its prompt's bytes (the template's) or BOS, EOS, SEP around them.
    const idsOf: Record<string, (document: string) => number[]> = {
      'inpage-test-rerank': (document) =>
        bytes(spec.rerankTemplate.split('{query}').join(QUERY).split('{document}').join(document)),
      'inpage-test-rerank-plain': (document) => [256, ...bytes(QUERY), 257, 258, ...bytes(document), 257],
    };
    const counter = async (name: string, model: string) => {
      const text = await fixture.page.evaluate(() => fetch('/metrics').then((r) => r.text()));
      const line = text.split('\n').find((l) => l.startsWith(`llamacpp:${name}{model="${model}"} `));
      return Number(line?.split(' ')[1] ?? NaN);
    };
    for (const model of MODELS) {
      const ask = () => both(model, '/v1/rerank', { query: QUERY, documents: DOCUMENTS });
      await ask();
      const [cachedBefore, evaluatedBefore] = [
        await counter('prompt_tokens_cached_total', model),
        await counter('prompt_tokens_total', model),
      ];
      const usage = ((await ask()).own.body as { usage: { prompt_tokens: number } }).usage;
      const ids = idsOf[model];
      // Each pair keeps what it shares with the one before (the first, the request before's last), short of its last id.
      const expected = ids
        ? DOCUMENTS.map((document, i) => {
            const [previous, own] = [ids(DOCUMENTS.at(i - 1) ?? ''), ids(document)];
            let shared = 0;
            while (shared < own.length - 1 && previous[shared] === own[shared]) shared++;
            return shared;
          }).reduce((a, b) => a + b, 0)
        : 0; // BERT's: no KV cache, every pair read whole
      const cached = (await counter('prompt_tokens_cached_total', model)) - cachedBefore;
      assert.equal(cached, expected, model);
      assert.equal(
        (await counter('prompt_tokens_total', model)) - evaluatedBefore,
        usage.prompt_tokens - expected,
        model,
      );
      if (ids) assert.ok(expected > usage.prompt_tokens / 3, `${model}: ${expected} of ${usage.prompt_tokens}`);
    }
  });

  test("llama-server's 400s, with its messages", async () => {
    const bodies: Json[] = [
      { documents: ['a'] },
      { query: 5, documents: ['a'] },
      { query: 'q', documents: [] },
      { query: 'q', documents: ['a', 3] },
      { query: 'q' },
    ];
    for (const body of bodies) {
      const answer = await both('inpage-test-rerank', '/v1/rerank', body);
      const label = JSON.stringify(body);
      assert.equal(answer.own.status, 400, label);
      assert.equal(answer.native.status, 400, label);
      const message = (b: unknown) => ((b as Json).error as Json).message;
      assert.equal(message(answer.own.body), message(answer.native.body), label);
    }
  });

  test('a model that is not a reranker cannot rerank; a reranker cannot embed: 400s naming model', async () => {
    const notReranker = await postFromPage(fixture.page, '/v1/rerank', {
      model: 'inpage-test',
      query: 'q',
      documents: ['a'],
    });
    assert.equal(notReranker.status, 400);
    const error = (notReranker.body as { error: Json }).error;
    assert.match(String(error.message), /'inpage-test' is not a reranker/);
    const embeddings = await postFromPage(fixture.page, '/v1/embeddings', { model: 'inpage-test-rerank', input: 'a' });
    assert.equal(embeddings.status, 400);
    assert.equal((embeddings.body as { error: Json }).error.param, 'model');
  });
});
