/**
 * Speculative decoding in n-gram mode (issue 35, item 2: llama-server's `speculative.*` fields,
 * llama.cpp's ngram-simple): the output with a draft is the output without one, token for token
 * with log-probabilities within 1e-4, greedy and seeded, on `/completion` and chat; the draft's
 * counts are `timings.draft_n` and `draft_n_accepted`, as llama-server gives them. `inpage-test`
 * writes the alphabet in a loop, so once its output holds an n-gram twice every draft is taken;
 * a tiny random-weight llama with live attention checks batch against one-token decodes where
 * the logits come from real attention. A choice that ends inside a draft (a stop string,
 * `n_predict`, the context's end) leaves the context holding only its own tokens: the next
 * request that reuses it is exact, and a trap inside a draft ends its request with the crash's
 * 503 and a new engine. Fields llama.cpp has but this engine does not are a 400.
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { buildBenchModel } from '../fixtures/bench-model';
import { engineWorker } from './engine-worker-helpers';
import { usePage } from './page-fixture';
import { completeFromPage, postFromPage } from './page-helpers';
import { assertSameOutput, type Probability } from './native-probabilities';

const DIR = 'dist/test-speculative';
const LIVE_URL = '/test-speculative/live-attention.gguf';
const NGRAM = { 'speculative.type': 'ngram-simple' };
const fixture = usePage();

interface NativeAnswer {
  content: string;
  tokens: number[];
  tokens_predicted: number;
  stop_type: string;
  timings: { cache_n: number; draft_n?: number; draft_n_accepted?: number };
  completion_probabilities: Probability[];
}

before(async () => {
  await mkdir(DIR, { recursive: true });
  await writeFile(`${DIR}/live-attention.gguf`, buildBenchModel({ nEmbd: 64, nLayer: 2, nFf: 128, nHead: 2 }, 'f32'));
});
after(() => rm(DIR, { recursive: true, force: true }));

const DEFAULTS = { model: 'inpage-test', temperature: 0, n_probs: 2, return_tokens: true, cache_prompt: false };
const complete = (body: Record<string, unknown>) =>
  completeFromPage<NativeAnswer>(fixture.page, { ...DEFAULTS, ...body });

test('a repeating greedy generation takes whole drafts and is the output without them', async () => {
  const plain = await complete({ prompt: 'abc', n_predict: 200 });
  const drafted = await complete({ prompt: 'abc', n_predict: 200, ...NGRAM });
  assertSameOutput(drafted, plain);
  assert.equal(plain.timings.draft_n, undefined, 'no draft counts without speculative decoding');
  const { draft_n: n = 0, draft_n_accepted: accepted = 0 } = drafted.timings;
  assert.ok(n >= 100, `drafted ${n} tokens`);
  assert.equal(accepted, n, 'the alphabet loop takes every draft token');
});

test('on live attention, greedy and seeded sampling give the same tokens with drafts', async () => {
  const live = (await fixture.page.evaluate((url) => window.inpage.load(url), LIVE_URL)).id;
  const prompt = 'one two three four five six seven eight nine ten\n'.repeat(6);
  for (const sampling of [{ temperature: 0 }, { temperature: 1, seed: 7, top_k: 0 }]) {
    const body = { model: live, prompt, n_predict: 120, ...sampling, 'speculative.ngram_size_n': 1 };
    const plain = await complete(body);
    const drafted = await complete({ ...body, ...NGRAM });
    assertSameOutput(drafted, plain);
    assert.ok((drafted.timings.draft_n ?? 0) > 0, `${JSON.stringify(sampling)}: a draft was checked`);
  }
});

test('a choice that ends inside a draft leaves only its own tokens in the context', async () => {
  // Three laps of the alphabet: the first token after them starts a draft (llama.cpp drafts once
  // the context holds n + m + 1 = 61 tokens); the stop ends the choice inside it.
  const laps = 'abcdefghijklmnopqrstuvwxyz'.repeat(3);
  for (const end of [{ n_predict: 30 }, { n_predict: 200, stop: ['pqr'] }]) {
    const first = await complete({ prompt: laps, ...end, ...NGRAM, cache_prompt: true });
    // (A choice a stop string ends has no draft counts; its first token starts a draft all the same.)
    if (!('stop' in end)) assert.ok((first.timings.draft_n ?? 0) > 0, JSON.stringify(end));
    // The next request reuses the context's tokens: they must be the prompt's and the text's only.
    const next = `${laps}${first.content}`;
    const reused = await complete({ prompt: next, n_predict: 30, cache_prompt: true });
    const cold = await complete({ prompt: next, n_predict: 30 });
    assert.ok(reused.timings.cache_n >= next.length - 1, `reused ${reused.timings.cache_n} tokens`);
    assertSameOutput(reused, cold);
  }
});

test("drafts stop at the context's end: prompt + completion = n_ctx, as without them", async () => {
  await fixture.page.evaluate(() =>
    window.inpage.load({ id: 'inpage-test-96', backend: 'llamacpp', source: { kind: 'builtin' }, contextLength: 96 }),
  );
  const body = { model: 'inpage-test-96', prompt: 'abc', n_predict: -1 };
  const plain = await complete(body);
  const drafted = await complete({ ...body, ...NGRAM });
  assertSameOutput(drafted, plain);
  assert.equal(drafted.tokens_predicted, 93);
  assert.ok((drafted.timings.draft_n ?? 0) > 0);
});

test('chat takes the fields too, with the same answer', async () => {
  const ask = (extra: Record<string, unknown>) =>
    postFromPage(fixture.page, '/v1/chat/completions', {
      model: 'inpage-test',
      messages: [{ role: 'user', content: 'abc' }],
      max_tokens: 80,
      temperature: 0,
      ...extra,
    });
  const [plain, drafted] = [await ask({}), await ask(NGRAM)];
  assert.equal(drafted.status, 200, JSON.stringify(drafted.body));
  const text = (answer: typeof plain) =>
    (answer.body as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content;
  assert.equal(text(drafted), text(plain));
});

test('what is not built here is a 400 naming the field', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ 'speculative.type': 'draft-simple' }, 'speculative.type'],
    [{ 'speculative.type': 'lookahead' }, 'speculative.type'],
    [{ 'speculative.p_min': 0.5 }, 'speculative.p_min'],
    [{ ...NGRAM, 'speculative.n_min': 9, 'speculative.n_max': 4 }, 'speculative.n_min'],
    [{ ...NGRAM, 'speculative.ngram_size_n': 0 }, 'speculative.ngram_size_n'],
  ];
  for (const [fields, param] of cases) {
    for (const [path, body] of [
      ['/completion', { prompt: 'abc' }],
      ['/v1/chat/completions', { messages: [{ role: 'user', content: 'abc' }] }],
    ] as const) {
      const answer = await postFromPage(fixture.page, path, { model: 'inpage-test', ...body, ...fields });
      const what = `${path} ${JSON.stringify(fields)}`;
      const error = (answer.body as { error: { param?: string; message: string } }).error;
      assert.equal(answer.status, 400, what);
      // llama-server's error JSON has no \`param\`: there the message names the field.
      if (path === '/completion') assert.ok(error.message.includes(`'${param}'`), `${what}: ${error.message}`);
      else assert.equal(error.param, param, what);
    }
  }
});

test('a trap inside a draft ends the request with the crash; a new engine answers the next one exactly', async () => {
  const laps = 'abcdefghijklmnopqrstuvwxyz'.repeat(3);
  const plain = await complete({ prompt: laps, n_predict: 120 });
  const worker = await engineWorker(fixture.page);
  // Drafts of 8, 16 and 32 tokens come first: the 70th token is sampled inside the fourth.
  await worker.evaluate(() => Reflect.set(globalThis, '__inpageTestTrap', 70));
  const crashed = await postFromPage(fixture.page, '/completion', {
    model: 'inpage-test',
    prompt: laps,
    n_predict: 120,
    temperature: 0,
    ...NGRAM,
  });
  // Its prompt was accepted, so the answer's status was sent: the error comes in the body
  // (docs/reliability.md), as llama-server's error JSON with its own 503.
  const error = (crashed.body as { error?: { code?: number; message?: string } }).error;
  assert.equal(error?.code, 503, JSON.stringify(crashed.body));
  assert.match(error?.message ?? '', /crashed \(memory access out of bounds\)/);
  const next = await complete({ prompt: laps, n_predict: 120, ...NGRAM });
  assertSameOutput(next, plain);
  assert.notEqual(await engineWorker(fixture.page), worker, 'a new engine worker serves');
});
