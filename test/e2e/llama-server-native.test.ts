/**
 * llama-server's native routes, `/completion` (and its alias `/completions`), `/embedding` and
 * `/metrics`, against Debian's native `llama-server` 0.7.0 on the same GGUF (`inpage-test`,
 * `inpage-test-qwen3`): the deterministic fields of each answer equal (text, ids, counts, stop,
 * the echoed prompt, the candidates' ids and bytes), timings and settings compared by shape,
 * streamed frames equal, errors in llama-server's shape with its status; `/embedding`'s vectors
 * equal within float error; `/metrics`' counters (decodes included) moved by exactly the tokens the answers
 * reported. Skipped, with what is missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, describe, test } from 'node:test';
import { placeModel, serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { usePage } from './page-fixture';
import { askBoth, frames, pick, type Json } from './llama-server-compare';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const fixture = usePage();

/** The page's answer and native llama-server's to the same POST. */
const both = (server: LlamaServer, path: string, body: Json, model: string) =>
  askBoth(fixture.page, server, 'POST', path, body, model);

/** The deterministic fields of a `/completion` answer (timings, settings and the slot's id are not). */
const FIELDS = [
  'index',
  'content',
  'tokens',
  'stop',
  'tokens_predicted',
  'tokens_evaluated',
  'prompt',
  'has_new_line',
  'truncated',
  'stop_type',
  'stopping_word',
  'tokens_cached',
];

/** `completion_probabilities` with each logprob rounded (the wasm and native builds' sums differ in the last bits). */
function probabilities(answer: unknown) {
  const round = (x: unknown) => Math.round(Number(x) * 1e3) / 1e3 + 0;
  const entry = (e: Json): Json => ({
    ...e,
    logprob: round(e.logprob),
    ...(e.top_logprobs ? { top_logprobs: (e.top_logprobs as Json[]).map(entry) } : {}),
  });
  return ((answer as Json).completion_probabilities as Json[] | undefined)?.map(entry);
}

/**
 * One answer against native's: the same keys in the same order, equal fields, timings by shape.
 * With stop strings, three departures (docs/llama-server-endpoints.md): text held as the start
 * of a stop goes with its own token's entry here, with the token that released it there (its own
 * spelled ''); where a stop ended it, llama-server's `tokens` also hold the tokens whose text the
 * stop cut, and its `completion_probabilities` lose as many entries from the end as the stop
 * string has tokens alone. Here both end with the text kept.
 */
function checkAnswer(own: Json, native: Json, what: string, stops: boolean) {
  assert.deepEqual(Object.keys(own), Object.keys(native), `${what}: the answer's keys`);
  const word = native.stop_type === 'word';
  const [ownTokens, nativeTokens] = [own.tokens as number[], native.tokens as number[]];
  if (word) assert.deepEqual(nativeTokens.slice(0, ownTokens.length), ownTokens, `${what}: tokens`);
  assert.deepEqual(pick({ ...own, tokens: word ? nativeTokens : ownTokens }, FIELDS), pick(native, FIELDS), what);
  const [ownProbabilities, nativeProbabilities] = [probabilities(own), probabilities(native)];
  const ids = (list: Json[] | undefined) => list?.map((entry) => [entry.id, entry.logprob]);
  if (stops)
    assert.deepEqual(
      ids(word ? ownProbabilities?.slice(0, nativeProbabilities?.length) : ownProbabilities),
      ids(nativeProbabilities),
      `${what}: completion_probabilities`,
    );
  else assert.deepEqual(ownProbabilities, nativeProbabilities, `${what}: completion_probabilities`);
  const [ownTimings, nativeTimings] = [own.timings, native.timings] as Json[];
  assert.deepEqual(Object.keys(ownTimings ?? {}), Object.keys(nativeTimings ?? {}), `${what}: timings' keys`);
  assert.ok(
    Object.values(ownTimings ?? {}).every((x) => typeof x === 'number' && x >= 0),
    `${what}: timings`,
  );
  assert.deepEqual(
    pick(ownTimings, ['prompt_n', 'predicted_n', 'cache_n']),
    pick(nativeTimings, ['prompt_n', 'predicted_n', 'cache_n']),
  );
  const settings = Object.keys(own.generation_settings as Json);
  assert.deepEqual(
    settings.filter((key) => !(key in (native.generation_settings as Json))),
    [],
    `${what}: every setting is one llama-server gives`,
  );
}

async function checkCompletion(server: LlamaServer, model: string, bodies: Json[]) {
  for (const request of bodies) {
    const body = { temperature: 0, cache_prompt: false, ...request };
    const stops = Array.isArray(request.stop) && request.stop.length > 0;
    for (const path of ['/completion', '/completions']) {
      const { native, own } = await both(server, path, body, model);
      const what = `${path} ${JSON.stringify(body)}`;
      assert.equal(native.status, 200, `native ${what}: ${JSON.stringify(native.body)}`);
      assert.equal(own.status, 200, `${what}: ${JSON.stringify(own.body)}`);
      const list = (answer: unknown) => (Array.isArray(answer) ? (answer as Json[]) : [answer as Json]);
      const [ownAnswers, nativeAnswers] = [list(own.body), list(native.body)];
      assert.equal(Array.isArray(own.body), Array.isArray(native.body), `${what}: one answer or a list`);
      assert.equal(ownAnswers.length, nativeAnswers.length);
      ownAnswers.forEach((answer, i) => checkAnswer(answer, nativeAnswers[i] ?? {}, what, stops));
    }
    // Several prompts stream out of order on llama-server (and with a `data: null` first): one prompt only.
    if (Array.isArray(request.prompt) && typeof request.prompt[0] === 'string' && request.prompt.length > 1) continue;
    const streamed = await both(server, '/completion', { ...body, stream: true }, model);
    const [ownFrames, nativeFrames] = [frames(streamed.ownText), frames(streamed.nativeText)];
    const what = `/completion streamed ${JSON.stringify(body)}`;
    const partial = (frame: Json) => ({
      ...pick(frame, ['index', 'content', 'stop', 'tokens_predicted', 'tokens_evaluated']),
      last: (frame.tokens as number[]).at(-1),
      probabilities: probabilities(frame)?.at(-1),
    });
    const text = (list: Json[]) => list.map((frame) => frame.content).join('');
    // With stop strings, llama-server streams text that could begin one with the token that
    // released it, and never sends it where the generation then ends; here a piece goes with its
    // own token and is sent (docs/llama-server-endpoints.md): frame by frame only without stops.
    if (stops) assert.ok(text(ownFrames).startsWith(text(nativeFrames)), `${what}: ${text(ownFrames)}`);
    else assert.deepEqual(ownFrames.slice(0, -1).map(partial), nativeFrames.slice(0, -1).map(partial), what);
    assert.deepEqual(
      Object.keys(ownFrames.at(-1) ?? {}),
      Object.keys(nativeFrames.at(-1) ?? {}),
      `${what}: last frame`,
    );
    assert.deepEqual(pick(ownFrames.at(-1), FIELDS), pick(nativeFrames.at(-1), FIELDS), `${what}: last frame`);
    assert.ok(!streamed.ownText.includes('[DONE]'), `${what}: no [DONE]`);
  }
}

async function checkErrors(server: LlamaServer, model: string) {
  const bodies: Json[] = [
    { prompt: 'ab', n_predict: 'x' },
    { n_predict: 2 },
    { prompt: [] },
    { prompt: { a: 1 } },
    { prompt: [999999], n_predict: 1 },
    { prompt: 'ab', temperature: 'hot' },
  ];
  for (const body of bodies) {
    const { native, own } = await both(server, '/completion', body, model);
    const what = `/completion ${JSON.stringify(body)}`;
    assert.deepEqual([own.status, native.status], [400, 400], what);
    const shape = (answer: unknown) => {
      const error = (answer as { error: Json }).error;
      return { keys: Object.keys(error), code: error.code, type: error.type };
    };
    assert.deepEqual(shape(own.body), shape(native.body), `${what}: ${JSON.stringify(own.body)}`);
  }
}

/** `/metrics`' samples by name and labels (`name{model="x"}` -> value); throws on a sample without HELP and TYPE. */
function samples(text: string): Map<string, number> {
  const typed = new Set([...text.matchAll(/^# TYPE (\S+) (counter|gauge)$/gm)].map((m) => m[1]));
  const helped = new Set([...text.matchAll(/^# HELP (\S+) /gm)].map((m) => m[1]));
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-z_:]+)(\{[^}]*\})? (\S+)$/.exec(line);
    assert.ok(match, `a sample line: ${line}`);
    const [, name = '', labels = '', value = ''] = match;
    assert.ok(typed.has(name) && helped.has(name), `${name} has # HELP and # TYPE`);
    out.set(name + labels, Number(value));
  }
  return out;
}

const scrape = (server: LlamaServer | null) =>
  server
    ? fetch(`http://127.0.0.1:${server.port}/metrics`).then((r) => r.text())
    : fixture.page.evaluate(() => fetch('/metrics').then((r) => r.text()));

describe('/embedding against native llama-server with --embeddings --pooling mean', { skip: skip ?? false }, () => {
  test('inpage-test: text, a list, ids, every embd_normalize; errors', async () => {
    const server = await startLlamaServer({ args: ['--embeddings', '--pooling', 'mean'] });
    try {
      const bodies: Json[] = [
        { content: 'ab' },
        { content: ['ab', 'xyz'] },
        { content: [97, 98] },
        { content: [[97], [98, 99]] },
        { input: 'abc' },
        ...[-1, 0, 1, 2, 3].map((embd_normalize) => ({ content: 'abcd', embd_normalize })),
      ];
      for (const body of bodies) {
        const { native, own } = await both(server, '/embedding', body, 'inpage-test');
        const what = `/embedding ${JSON.stringify(body)}`;
        assert.deepEqual([own.status, native.status], [200, 200], `${what}: ${JSON.stringify(own.body)}`);
        type Answer = Array<{ index: number; embedding: number[][] }>;
        const [ownAnswer, nativeAnswer] = [own.body as Answer, native.body as Answer];
        assert.deepEqual(
          ownAnswer.map((entry) => [Object.keys(entry), entry.index, entry.embedding.length]),
          nativeAnswer.map((entry) => [Object.keys(entry), entry.index, entry.embedding.length]),
          what,
        );
        ownAnswer.forEach((entry, i) => {
          const theirs = nativeAnswer[i]?.embedding[0] ?? [];
          const ours = entry.embedding[0] ?? [];
          assert.equal(ours.length, theirs.length);
          const scale = Math.max(1e-6, ...theirs.map(Math.abs));
          const worst = Math.max(...ours.map((x, j) => Math.abs(x - (theirs[j] ?? 0)) / scale));
          assert.ok(worst < 1e-4, `${what}: vector ${i} within float error (${worst})`);
        });
      }
      for (const body of [{ content: '' }, {}, { content: [] }]) {
        const { native, own } = await both(server, '/embedding', body, 'inpage-test');
        assert.deepEqual([own.status, native.status], [400, 400], `/embedding ${JSON.stringify(body)}`);
        assert.deepEqual(Object.keys((own.body as { error: Json }).error), ['code', 'message', 'type']);
      }
    } finally {
      await server.stop();
    }
  });
});

describe('/metrics against native llama-server with --metrics', { skip: skip ?? false }, () => {
  test("the token counters move by exactly the tokens the answers reported, as llama-server's do", async () => {
    const server = await startLlamaServer({ args: ['--metrics'] });
    try {
      const [ownBefore, nativeBefore] = [samples(await scrape(null)), samples(await scrape(server))];
      const label = '{model="inpage-test"}';
      const bodies: Json[] = [
        { prompt: 'ab', n_predict: 4, cache_prompt: false },
        { prompt: 'xyz', n_predict: 3, stream: true, cache_prompt: false },
        { prompt: [97, 98, 99], n_predict: 5, cache_prompt: false },
        { prompt: 'hello', n_predict: 2, cache_prompt: false },
      ];
      let [evaluated, predicted] = [0, 0];
      for (const body of bodies) {
        const { native, own, ownText } = await both(server, '/completion', { temperature: 0, ...body }, 'inpage-test');
        assert.deepEqual([own.status, native.status], [200, 200]);
        const last = (body.stream ? frames(ownText).at(-1) : own.body) as Json;
        evaluated += Number(last.tokens_evaluated);
        predicted += Number(last.tokens_predicted);
      }
      // An OpenAI route's request counts too (its usage is what it reported).
      const openai = await fixture.page.evaluate(async () => {
        const response = await fetch('/v1/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'inpage-test', prompt: 'abc', max_tokens: 3, cache_prompt: false }),
        });
        return ((await response.json()) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
      });
      const [ownAfter, nativeAfter] = [samples(await scrape(null)), samples(await scrape(server))];
      const moved = (after: Map<string, number>, before: Map<string, number>, key: string) =>
        (after.get(key) ?? 0) - (before.get(key) ?? 0);
      const ownMoved = (name: string) => moved(ownAfter, ownBefore, `llamacpp:${name}${label}`);
      assert.equal(ownMoved('prompt_tokens_total'), evaluated + openai.prompt_tokens);
      assert.equal(ownMoved('tokens_predicted_total'), predicted + openai.completion_tokens);
      assert.equal(ownMoved('prompt_tokens_cached_total'), 0);
      assert.equal(
        moved(ownAfter, ownBefore, 'llamacpp:requests_total{model="inpage-test",outcome="completed"}'),
        bodies.length + 1,
      );
      assert.ok(ownMoved('prompt_seconds_total') > 0 && ownMoved('tokens_predicted_seconds_total') > 0);
      assert.ok((ownAfter.get(`llamacpp:predicted_tokens_seconds${label}`) ?? 0) > 0, 'decode tok/s');
      assert.ok((ownAfter.get(`llamacpp:prompt_tokens_seconds${label}`) ?? 0) > 0, 'prefill tok/s');
      assert.equal(ownAfter.get(`llamacpp:requests_processing${label}`), 0);
      // llama-server counted the same tokens for the same /completion requests.
      assert.equal(moved(nativeAfter, nativeBefore, 'llamacpp:prompt_tokens_total'), evaluated);
      assert.equal(moved(nativeAfter, nativeBefore, 'llamacpp:tokens_predicted_total'), predicted);
      // The same decodes: a short prompt's one and one per token but the last, each request alone
      // on its slot; the engine's count has the OpenAI request's too.
      assert.equal(moved(nativeAfter, nativeBefore, 'llamacpp:n_decode_total'), predicted);
      assert.equal(ownMoved('n_decode_total'), predicted + openai.completion_tokens);
      assert.equal(nativeAfter.get('llamacpp:n_busy_slots_per_decode'), 1);
      assert.equal(ownAfter.get(`llamacpp:n_busy_slots_per_decode${label}`), 1);
      // Every name here is llama-server's, but requests_total (Prometheus' conventions: llama-server has none).
      const names = (map: Map<string, number>) => new Set([...map.keys()].map((key) => key.split('{')[0]));
      const nativeNames = names(nativeAfter);
      assert.deepEqual(
        [...names(ownAfter)].filter((name) => !nativeNames.has(name)),
        ['llamacpp:requests_total'],
      );
      // The throughput gauges cover what finished since the last scrape, as llama-server's.
      const again = samples(await scrape(null));
      assert.equal(again.get(`llamacpp:predicted_tokens_seconds${label}`), 0);
      const content = await fixture.page.evaluate(() => fetch('/metrics').then((r) => r.headers.get('content-type')));
      assert.equal(content, 'text/plain; version=0.0.4');
    } finally {
      await server.stop();
    }
  });
});

describe('/completion against native llama-server on the same GGUF', { skip: skip ?? false }, () => {
  before(async () => {
    placeModel('inpage-test-qwen3', new Uint8Array(await readFile('dist/models/inpage-test-qwen3.gguf')));
    await fixture.page.evaluate(() => window.inpage.load('/models/inpage-test-qwen3.gguf'));
  });

  test('inpage-test: text, ids and mixed prompts, several prompts, n_probs, stops, return_tokens; errors', async () => {
    const server = await startLlamaServer();
    try {
      await checkCompletion(server, 'inpage-test', [
        { prompt: 'ab', n_predict: 4 },
        { prompt: 'ab', n_predict: 3, return_tokens: true, n_probs: 2 },
        { prompt: [97, 98], n_predict: 2, return_tokens: true },
        { prompt: ['ab', 99], n_predict: 2 },
        { prompt: [97, 'bc'], n_predict: 2, return_tokens: true },
        { prompt: ['ab', 'xy'], n_predict: 2, return_tokens: true },
        { prompt: 'ab', n_predict: 20, stop: ['f'] },
        { prompt: 'ab', max_tokens: 5, top_k: 1, seed: 7 },
      ]);
      await checkErrors(server, 'inpage-test');
    } finally {
      await server.stop();
    }
  });

  test('inpage-test-qwen3: its chain to the end of generation, with candidates and a character across tokens', async () => {
    const server = await startLlamaServer({ model: 'inpage-test-qwen3' });
    try {
      await checkCompletion(server, 'inpage-test-qwen3', [
        { prompt: 'abc', n_predict: 40, return_tokens: true },
        { prompt: 'abc', n_predict: 6, n_probs: 3 },
        { prompt: '<|im_start|>user\nabc<|im_end|>\n', n_predict: 3, return_tokens: true },
        // Ending inside 𝔸 (its bytes span three tokens): llama-server's content ends with U+FFFD.
        { prompt: 'abc', n_predict: 8 },
        { prompt: 'abc', n_predict: 9, return_tokens: true },
        { prompt: 'abc', n_predict: 8, n_probs: 2 },
        // A character across tokens, whole: only its last token has an entry (as every token
        // while the text ends inside a character: none).
        { prompt: 'abc', n_predict: 10, n_probs: 1, return_tokens: true },
        // Stop strings around the split character: llama-server looks for them once it is whole.
        { prompt: 'abc', n_predict: 20, stop: ['𝔸'], return_tokens: true, n_probs: 1 },
        { prompt: 'abc', n_predict: 20, stop: [' 𝔸 c'], n_probs: 1 },
        { prompt: 'abc', n_predict: 20, stop: ['😀 𝔸'], return_tokens: true },
        // A stop string that could begin inside the character, and generation ending there.
        { prompt: 'abc', n_predict: 8, stop: ['𝔸 x'], return_tokens: true, n_probs: 1 },
        { prompt: 'abc', n_predict: 9, stop: [' 𝔸 x', '😀 x'], n_probs: 1 },
        { prompt: 'abc', n_predict: 10, stop: [' 𝔸 x'], return_tokens: true },
      ]);
      const cut = await both(
        server,
        '/completion',
        { prompt: 'abc', n_predict: 8, temperature: 0 },
        'inpage-test-qwen3',
      );
      assert.match(String((cut.own.body as Json).content), /\uFFFD$/u, 'the test ends inside a character');
      // The OpenAI route's text ends as llama-server's does, with the open character as U+FFFD.
      const openai = await both(
        server,
        '/v1/completions',
        { prompt: 'abc', max_tokens: 8, temperature: 0 },
        'inpage-test-qwen3',
      );
      const text = (answer: unknown) => ((answer as Json).choices as Json[])[0]?.text;
      assert.equal(text(openai.own.body), text(openai.native.body));
      assert.match(String(text(openai.own.body)), /\uFFFD$/u);
    } finally {
      await server.stop();
    }
  });
});
