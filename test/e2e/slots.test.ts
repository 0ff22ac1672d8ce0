/**
 * Slots (issue 35: llama-server's `--parallel`, continuous batching): with `&slots=4` a model
 * runs four requests at once, their tokens decoded in one batch over one KV cache. On a tiny
 * random-weight llama with live attention (where a sequence that saw another's cells would
 * change its output), each of four concurrent requests gets the tokens it gets alone, with
 * log-probabilities within 1e-4, greedy and seeded, and their streams overlap; an aborted one
 * leaves the others exact; each slot has its share of the context (its own cache stream), where a
 * request ends as it does alone, and a prompt longer than the share is a 400.
 * N-gram drafts run per slot: four requests drafting at once each get the output without drafts,
 * and one that ends inside a draft leaves only its own tokens in its slot; a draft model drafts
 * for each slot in a sequence of its own, with the same outputs. `/slots` lists each model's slots (`/props`'s
 * `total_slots` counts them) and a slot action acts on the one it names. `n: 4` reads its prompt
 * once; on the pthreads build a request joining a running batch and the one it joins are exact,
 * and on the memory64 build four requests at once are exact.
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { buildBenchModel } from '../fixtures/bench-model';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';
import { engineFilesFetched, engineWorker } from './engine-worker-helpers';
import { assertSameOutput, type Probability } from './native-probabilities';

const DIR = 'dist/test-slots';
const LIVE_URL = '/test-slots/live-attention.gguf';
/** Wider, so that reading a prompt takes long enough to time (share-prompt spec). */
const WIDE_URL = '/test-slots/wide.gguf';
const fixture = usePage('/?model=inpage-test&slots=4');
let live = '';

interface NativeAnswer {
  content: string;
  tokens: number[];
  tokens_predicted: number;
  stop_type: string;
  completion_probabilities: Probability[];
  tokens_evaluated?: number;
  timings?: { draft_n?: number; draft_n_accepted?: number };
}

const NGRAM = { 'speculative.type': 'ngram-simple' };

before(async () => {
  await mkdir(DIR, { recursive: true });
  await writeFile(`${DIR}/live-attention.gguf`, buildBenchModel({ nEmbd: 64, nLayer: 2, nFf: 128, nHead: 2 }, 'f32'));
  await writeFile(`${DIR}/wide.gguf`, buildBenchModel({ nEmbd: 256, nLayer: 4, nFf: 768, nHead: 4 }, 'f32'));
});

/** Loads the live-attention model once (the page opens in usePage's own hook). */
async function loadLive(): Promise<void> {
  if (!live) live = (await fixture.page.evaluate((url) => window.inpage.load(url), LIVE_URL)).id;
}
after(() => rm(DIR, { recursive: true, force: true }));

const PROMPTS = [
  'one two three four five six seven eight nine ten\n',
  'the quick brown fox jumps over the lazy dog; ',
  'lorem ipsum dolor sit amet, consectetur adipiscing elit ',
  '0123456789 9876543210 0123456789 ',
];

const body = (prompt: string, extra: Record<string, unknown> = {}) => ({
  model: live,
  prompt,
  n_predict: 100,
  temperature: 0,
  n_probs: 2,
  return_tokens: true,
  cache_prompt: false,
  ...extra,
});

/** `/metrics`' decodes of `model` and the slots they held (n_decode_total x n_busy_slots_per_decode). */
async function decodeCounts(model: string): Promise<{ decodes: number; slots: number }> {
  const text = await fixture.page.evaluate(
    async (id) => (await fetch(`/metrics?model=${encodeURIComponent(id)}`)).text(),
    model,
  );
  const value = (name: string) => Number(new RegExp(`^llamacpp:${name}\\{[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1]);
  const decodes = value('n_decode_total');
  return { decodes, slots: decodes * value('n_busy_slots_per_decode') };
}

async function alone(request: Record<string, unknown>): Promise<NativeAnswer> {
  const answer = await postFromPage(fixture.page, '/completion', request);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as NativeAnswer;
}

/**
 * The requests at once, streamed: each one's answer (its final event's fields, the content
 * joined), status, and when its first and last events came (ms); `abortAfter` aborts request
 * `index` after that many events.
 */
function together(requests: Array<Record<string, unknown>>, abortAfter?: { index: number; events: number }) {
  return fixture.page.evaluate(
    async ({ requests, abortAfter }) => {
      const started = performance.now();
      return Promise.all(
        requests.map(async (request, index) => {
          const controller = new AbortController();
          const response = await fetch('/completion', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ ...request, stream: true }),
            signal: controller.signal,
          });
          const events: Array<Record<string, unknown>> = [];
          const times: number[] = [];
          let aborted = false;
          const parser = window.createParser({
            onEvent(event) {
              events.push(JSON.parse(event.data));
              times.push(performance.now() - started);
            },
          });
          if (!response.body) throw new Error(`no body (${response.status})`);
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          try {
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              parser.feed(value);
              if (abortAfter?.index === index && events.length >= abortAfter.events) {
                aborted = true;
                controller.abort();
                break;
              }
            }
          } catch (error) {
            if (!aborted) throw error;
          }
          const last = events.at(-1) ?? {};
          const probabilities = events.flatMap((event) =>
            Array.isArray(event.completion_probabilities) ? event.completion_probabilities : [],
          );
          return {
            status: response.status,
            aborted,
            content: events.map((event) => (typeof event.content === 'string' ? event.content : '')).join(''),
            tokens: events.flatMap((event) => (Array.isArray(event.tokens) ? (event.tokens as number[]) : [])),
            stop_type: last.stop_type,
            tokens_predicted: last.tokens_predicted,
            timings: last.timings as { draft_n?: number; draft_n_accepted?: number } | undefined,
            completion_probabilities: probabilities,
            first: times[0] ?? Infinity,
            last: times.at(-1) ?? -Infinity,
          };
        }),
      );
    },
    { requests, abortAfter },
  );
}

/** Each batched answer is its request's answer alone: text, tokens, stop, logprobs within 1e-4. */
function assertAsAlone(batched: Awaited<ReturnType<typeof together>>, solo: NativeAnswer[], label: string): void {
  batched.forEach((answer, i) => {
    const want = solo[i];
    assert.ok(want);
    assert.equal(answer.status, 200);
    assertSameOutput({ ...answer, stop_type: String(answer.stop_type) }, want, `${label}, request ${i}`);
  });
}

test('four requests at once: each gets its solo tokens and logprobs, greedy and seeded, and they run together', async () => {
  await loadLive();
  for (const sampling of [{ temperature: 0 }, { temperature: 1, seed: 11, top_k: 0 }]) {
    const requests = PROMPTS.map((prompt) => body(prompt, sampling));
    const solo: NativeAnswer[] = [];
    for (const request of requests) solo.push(await alone(request));
    const worker = await engineWorker(fixture.page);
    const decodesBefore = await decodeCounts(live);
    // Each prompt step held 200 ms (test-slow-step.ts): all four requests are in before the first
    // prompt is read, on a loaded machine too, so the steps after the prompts hold all four.
    await worker.evaluate(() => {
      Reflect.set(globalThis, '__inpageTestStepSizes', []);
      Reflect.set(globalThis, '__inpageTestSlowStepMs', 200);
    });
    const batched = await together(requests).finally(() =>
      worker.evaluate(() => Reflect.deleteProperty(globalThis, '__inpageTestSlowStepMs')),
    );
    const sizes = (await worker.evaluate(() => Reflect.get(globalThis, '__inpageTestStepSizes'))) as number[];
    await worker.evaluate(() => Reflect.deleteProperty(globalThis, '__inpageTestStepSizes'));
    assertAsAlone(batched, solo, JSON.stringify(sampling));
    // One decode step for the four: most steps hold a token of each (test-step-sizes.ts). Greedy
    // runs all 100 tokens (the model never writes EOS greedily: bench-model.ts).
    const full = sizes.filter((size) => size === 4).length;
    if (sampling.temperature === 0) assert.ok(full >= 90, `${full} of ${sizes.length} steps held all four tokens`);
    // /metrics says so: the slots per decode over these requests (n_busy_slots_per_decode's average).
    const decodesAfter = await decodeCounts(live);
    const decodes = decodesAfter.decodes - decodesBefore.decodes;
    const perDecode = (decodesAfter.slots - decodesBefore.slots) / decodes;
    if (sampling.temperature === 0) assert.ok(perDecode > 3, `${perDecode} slots per decode over ${decodes} decodes`);
    // Batched, not queued: every stream began before any ended.
    const lastFirst = Math.max(...batched.map((answer) => answer.first));
    const firstLast = Math.min(...batched.map((answer) => answer.last));
    assert.ok(lastFirst < firstLast, `first events by ${lastFirst} ms, first end at ${firstLast} ms`);
  }
});

test('on the memory64 build, four requests at once each get their solo tokens and logprobs', async () => {
  const worker = await engineWorker(fixture.page);
  await worker.evaluate(() => Reflect.set(globalThis, '__inpageTestMemory64', true));
  let id = '';
  try {
    id = (
      await fixture.page.evaluate(
        (url) =>
          window.inpage.load({
            id: 'live-m64',
            backend: 'llamacpp',
            source: { kind: 'url', url: new URL(url, location.href).href },
          }),
        LIVE_URL,
      )
    ).id;
  } finally {
    await worker.evaluate(() => Reflect.deleteProperty(globalThis, '__inpageTestMemory64'));
  }
  const wasms = (await engineFilesFetched(worker)).filter((url) => /llama-engine[^/]*-m64[^/]*\.wasm/.test(url));
  assert.ok(wasms.length > 0, 'the memory64 build was fetched');
  const requests = PROMPTS.map((prompt) => ({ ...body(prompt), model: id }));
  const solo: NativeAnswer[] = [];
  for (const request of requests) solo.push(await alone(request));
  const batched = await together(requests);
  assertAsAlone(batched, solo, 'memory64');
});

test('a request aborted in a batch ends alone: the others and the next request are exact', async () => {
  await loadLive();
  const requests = PROMPTS.map((prompt) => body(prompt));
  const solo: NativeAnswer[] = [];
  for (const request of requests) solo.push(await alone(request));
  const batched = await together(requests, { index: 1, events: 5 });
  assert.ok(batched[1]?.aborted);
  batched.forEach((answer, i) => {
    if (i === 1) return;
    assert.equal(answer.content, solo[i]?.content, `request ${i}`);
    assert.deepEqual(answer.tokens, solo[i]?.tokens);
  });
  const next = await alone(requests[1] ?? {});
  assert.equal(next.content, solo[1]?.content);
  assert.deepEqual(next.tokens, solo[1]?.tokens);
});

test("each slot has its share of the context (n_ctx / slots, llama-server's n_ctx_slot): a request ends at its slot's end as alone; a longer prompt is a 400", async () => {
  await loadLive();
  const shared = await fixture.page.evaluate(
    (url) =>
      window.inpage.load({
        id: 'live-attention-1024',
        backend: 'llamacpp',
        source: { kind: 'url', url: new URL(url, location.href).href },
        contextLength: 1024,
      }),
    LIVE_URL,
  );
  assert.equal(shared.context_length, 256);
  const props = await fixture.page.evaluate(async (model) => (await fetch(`/props?model=${model}`)).json(), shared.id);
  assert.equal((props as { default_generation_settings: { n_ctx: number } }).default_generation_settings.n_ctx, 256);
  const requests = PROMPTS.map((prompt) => body(prompt, { model: shared.id, n_predict: 400, n_probs: 0 }));
  const solo: NativeAnswer[] = [];
  for (const request of requests) solo.push(await alone(request));
  solo.forEach((answer, i) => {
    assert.equal(answer.stop_type, 'limit');
    assert.equal(answer.tokens_predicted, 256 - new TextEncoder().encode(PROMPTS[i]).length, `request ${i}`);
  });
  const batched = await together(requests);
  batched.forEach((answer, i) => {
    assert.equal(answer.status, 200);
    assert.equal(answer.stop_type, 'limit', `request ${i}`);
    assert.deepEqual(answer.tokens, solo[i]?.tokens, `request ${i}`);
  });
  const long = await postFromPage(fixture.page, '/completion', body('x'.repeat(300), { model: shared.id }));
  assert.equal(long.status, 400, JSON.stringify(long.body));
});

/** Draft tokens checked and taken in `answers` (their final events' timings). */
function draftCounts(answers: ReadonlyArray<{ timings?: NativeAnswer['timings'] }>) {
  return answers.reduce(
    (sum, answer) => ({
      drafted: sum.drafted + (answer.timings?.draft_n ?? 0),
      accepted: sum.accepted + (answer.timings?.draft_n_accepted ?? 0),
    }),
    { drafted: 0, accepted: 0 },
  );
}

test('n-gram drafts with slots: four requests at once, each checking its own drafts, each the output without drafts', async () => {
  await loadLive();
  // Repeated lines: n-gram drafts are found (ngram_size_n 1), and checked on live attention.
  const prompts = PROMPTS.map((prompt) => prompt.repeat(6));
  for (const sampling of [{ temperature: 0 }, { temperature: 1, seed: 11, top_k: 0 }]) {
    const requests = prompts.map((prompt) => body(prompt, { ...sampling, n_predict: 120 }));
    const solo: NativeAnswer[] = [];
    for (const request of requests) solo.push(await alone(request));
    const drafting = requests.map((request) => ({ ...request, ...NGRAM, 'speculative.ngram_size_n': 1 }));
    const batched = await together(drafting);
    assertAsAlone(batched, solo, `drafts, ${JSON.stringify(sampling)}`);
    // Random weights rarely continue the lines as drafted: checked, seldom taken (the alphabet below takes them).
    assert.ok(draftCounts(batched).drafted > 0, JSON.stringify(draftCounts(batched)));
  }
  // The alphabet loop: every draft is taken, in each of the four slots at once.
  const abc = Array.from({ length: 4 }, () => ({ ...body('abc', { model: 'inpage-test', n_predict: 200 }), ...NGRAM }));
  const plain = await alone({ ...abc[0], 'speculative.type': 'none' });
  const looped = await together(abc);
  assertAsAlone(looped, [plain, plain, plain, plain], 'the alphabet loop');
  looped.forEach((answer, i) => {
    const { drafted, accepted } = draftCounts([answer]);
    assert.ok(drafted >= 100 && accepted === drafted, `request ${i}: ${accepted} of ${drafted} taken`);
  });
  // A model without a draft model: draft-simple is a 400 naming the field.
  const refused = await postFromPage(fixture.page, '/completion', {
    model: live,
    prompt: 'abc',
    'speculative.type': 'draft-simple',
  });
  assert.equal(refused.status, 400, JSON.stringify(refused.body));
  assert.match(JSON.stringify(refused.body), /speculative\.type/);
});

test('a draft model with slots: four requests at once, each drafting in its own sequence, each the output without drafts', async () => {
  await loadLive();
  // The live model as its own draft, loaded with the page's four slots: its greedy drafts are all taken.
  const model = (
    await fixture.page.evaluate((url) => {
      const href = new URL(url, location.href).href;
      return window.inpage.load({
        id: 'live-self',
        backend: 'llamacpp',
        source: { kind: 'url', url: href },
        draft: { id: 'live-draft', source: { kind: 'url', url: href } },
      });
    }, LIVE_URL)
  ).id;
  const requests = PROMPTS.map((prompt) => body(prompt, { model, n_predict: 60 }));
  const solo: NativeAnswer[] = [];
  for (const request of requests) solo.push(await alone({ ...request, 'speculative.type': 'none' }));
  const batched = await together(requests);
  assertAsAlone(batched, solo, 'a draft model');
  batched.forEach((answer, i) => {
    const { drafted, accepted } = draftCounts([answer]);
    assert.ok(drafted >= 30 && accepted === drafted, `request ${i}: ${accepted} of ${drafted} taken`);
  });
  // GET /slots: a model with a draft model speculates in each slot (llama-server's can_speculate()).
  const slots = (await fixture.page.evaluate(async () => (await fetch('/slots')).json())) as Array<{
    model: string;
    speculative: boolean;
  }>;
  const speculating = (id: string) => slots.filter((slot) => slot.model === id).map((slot) => slot.speculative);
  assert.deepEqual(speculating(model), [true, true, true, true]);
  assert.deepEqual(speculating(live), [false, false, false, false]);
});

test('with slots, a choice that ends inside a draft leaves only its own tokens in its slot', async () => {
  const model = (
    await fixture.page.evaluate(() =>
      window.inpage.load({ id: 'inpage-test-drafts', backend: 'llamacpp', source: { kind: 'builtin' } }),
    )
  ).id;
  // Three laps of the alphabet: the first token after them starts a draft; the stop ends the choice inside one.
  const laps = 'abcdefghijklmnopqrstuvwxyz'.repeat(3);
  const first = await alone({ ...body(laps, { model, n_predict: 200, stop: ['pqr'], n_probs: 0 }), ...NGRAM });
  assert.equal(first.stop_type, 'word');
  const ids = (
    (await fixture.page.evaluate(async () => (await fetch('/slots')).json())) as Array<{ id: number; model: string }>
  )
    .filter((slot) => slot.model === model)
    .map((slot) => slot.id);
  assert.equal(ids.length, 4);
  const saved: number[] = [];
  for (const id of ids) {
    const answer = await postFromPage(fixture.page, `/slots/${id}?action=save`, { filename: `drafts-${id}.bin` });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    saved.push((answer.body as { n_saved: number }).n_saved);
  }
  // Its prompt and each token it generated but the last (never decoded), as without drafts.
  const own = (first.tokens_evaluated ?? 0) + first.tokens_predicted - 1;
  assert.deepEqual(
    saved.filter((n) => n > 0),
    [own],
    `slots hold ${JSON.stringify(saved)} tokens`,
  );
  // The next request that reuses it is exact.
  const next = `${laps}${first.content}`;
  const reused = await alone({ ...body(next, { model, n_predict: 30, n_probs: 0 }), cache_prompt: true });
  const cold = await alone(body(next, { model, n_predict: 30, n_probs: 0 }));
  assert.deepEqual(reused.tokens, cold.tokens);
});

test("/slots lists each model's slots; a slot action names its slot", async () => {
  await loadLive();
  const slots = await fixture.page.evaluate(async () => (await fetch('/slots')).json());
  assert.ok(Array.isArray(slots));
  const ofLive = (slots as Array<{ id: number; model: string; n_ctx: number }>).filter((slot) => slot.model === live);
  assert.equal(ofLive.length, 4);
  const id = ofLive[3]?.id ?? -1;
  const erased = await postFromPage(fixture.page, `/slots/${id}?action=erase`, {});
  assert.equal(erased.status, 200, JSON.stringify(erased.body));
  assert.equal((erased.body as { id_slot: number }).id_slot, id);
  const props = await fixture.page.evaluate(async (model) => (await fetch(`/props?model=${model}`)).json(), live);
  assert.equal((props as { total_slots: number }).total_slots, 4);
  const total = (slots as unknown[]).length;
  const bad = await postFromPage(fixture.page, `/slots/${total}?action=erase`, {});
  assert.equal(bad.status, 400);
  // The slot a request ran on lists it last (llama-server's per-task fields), and holds nothing once erased.
  type Task = { id: number; model: string; id_task?: number; n_prompt_tokens?: number; params?: { n_predict: number } };
  const tasks = async () =>
    ((await fixture.page.evaluate(async () => (await fetch('/slots')).json())) as Task[]).filter(
      (slot) => slot.model === live && slot.id_task !== undefined,
    );
  const ran = await alone(body(PROMPTS[1] ?? '', { n_predict: 4 }));
  const newest = (await tasks()).sort((a, b) => (b.id_task ?? 0) - (a.id_task ?? 0))[0];
  assert.ok(newest, 'a slot lists the request');
  assert.deepEqual(
    [newest.n_prompt_tokens, newest.params?.n_predict],
    [(ran.tokens_evaluated ?? 0) + 3, 4],
    JSON.stringify(newest),
  );
  assert.equal((await postFromPage(fixture.page, `/slots/${newest.id}?action=erase`, {})).status, 200);
  assert.equal((await tasks()).find((slot) => slot.id === newest.id)?.n_prompt_tokens, 0);
});

test("?model= as llama-server's router mode has it: that model's slots from 0, its own slot ids for actions, its metrics", async () => {
  await loadLive();
  type Listed = { id: number; model: string };
  const get = (path: string) =>
    fixture.page.evaluate(async (url) => {
      const response = await fetch(url);
      return { status: response.status, text: await response.text() };
    }, path);
  const all = JSON.parse((await get('/slots')).text) as Listed[];
  const own = JSON.parse((await get(`/slots?model=${encodeURIComponent(live)}`)).text) as Listed[];
  assert.deepEqual(
    own.map((slot) => [slot.id, slot.model]),
    [0, 1, 2, 3].map((id) => [id, live]),
  );
  assert.ok(all.length > own.length, 'without ?model= every model is listed');
  // Slot 3 of the model (not of the whole list), by the body's model or ?model=; slot 4 is not its.
  const erase = (path: string, body: unknown) => postFromPage(fixture.page, path, body);
  const byBody = await erase('/slots/3?action=erase', { model: live });
  assert.deepEqual([byBody.status, byBody.body], [200, { id_slot: 3, n_erased: 0 }]);
  assert.equal((await erase(`/slots/3?action=erase&model=${encodeURIComponent(live)}`, {})).status, 200);
  const past = await erase('/slots/4?action=erase', { model: live });
  assert.deepEqual(
    [past.status, (past.body as { error: { message: string } }).error.message],
    [400, 'Invalid slot ID'],
  );
  // Both models counted; the live one's asked for.
  await alone({ model: 'inpage-test', prompt: 'abc', n_predict: 2 });
  await alone(body('abc', { n_predict: 2 }));
  assert.match((await get('/metrics')).text, /model="inpage-test"/);
  const metrics = await get(`/metrics?model=${encodeURIComponent(live)}`);
  assert.equal(metrics.status, 200);
  assert.match(metrics.text, new RegExp(`llamacpp:tokens_predicted_total\\{model="${live}"\\} \\d+`));
  assert.doesNotMatch(metrics.text, /model="inpage-test"/);
  for (const path of ['/slots?model=nope', '/metrics?model=nope']) assert.equal((await get(path)).status, 404, path);
});

test("id_slot pins a request to the model's slot (wrapped around its slots, as llama-server); the answer's id_slot is the slot it ran on", async () => {
  await loadLive();
  type Listed = { id: number; id_task?: number };
  const newest = async () => {
    const slots = (await fixture.page.evaluate(
      async (model) => (await fetch(`/slots?model=${encodeURIComponent(model)}`)).json(),
      live,
    )) as Listed[];
    return slots.sort((a, b) => (b.id_task ?? -1) - (a.id_task ?? -1))[0]?.id;
  };
  for (const [asked, ran] of [
    [2, 2],
    [6, 2],
    [1, 1],
    [0, 0],
  ]) {
    const answer = await alone(body(PROMPTS[0] ?? '', { n_predict: 3, id_slot: asked }));
    assert.equal((answer as unknown as { id_slot: number }).id_slot, ran, `id_slot ${asked}`);
    assert.equal(await newest(), ran, `/slots after id_slot ${asked}`);
  }
  // Not pinned: the answer names the slot it took. On the OpenAI routes too (no id_slot in their answers).
  const free = (await alone(body(PROMPTS[1] ?? '', { n_predict: 3 }))) as unknown as { id_slot: number };
  assert.equal(await newest(), free.id_slot);
  for (const [path, extra] of [
    ['/v1/completions', { prompt: 'abc', max_tokens: 2 }],
    ['/v1/chat/completions', { messages: [{ role: 'user', content: 'abc' }], max_tokens: 2 }],
  ] as const) {
    const answer = await postFromPage(fixture.page, path, { model: live, id_slot: 3, ...extra });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(await newest(), 3, path);
  }
  const bad = await postFromPage(fixture.page, '/completion', body('abc', { id_slot: -2 }));
  assert.equal(bad.status, 400);
});

/**
 * Streams `body` from the page and polls `GET /slots` meanwhile: the slots of `model` seen
 * processing while the stream ran (at most one at a time: one stream), and those still processing
 * 2 s after it ended (none).
 */
function slotsDuringStream(page: Page, model: string, body: Record<string, unknown>) {
  return page.evaluate(
    async ({ model, body }) => {
      type Slot = { id: number; model: string; is_processing: boolean };
      const busy = async () =>
        ((await (await fetch('/slots')).json()) as Slot[])
          .filter((slot) => slot.model === model && slot.is_processing)
          .map((slot) => slot.id);
      const response = await fetch('/completion', { method: 'POST', body: JSON.stringify({ ...body, stream: true }) });
      if (!response.body) throw new Error(`no body (${response.status})`);
      const reader = response.body.getReader();
      let ended = false;
      const drained = (async () => {
        while (!(await reader.read()).done);
        ended = true;
      })();
      const seen: number[][] = [];
      while (!ended) {
        const ids = await busy();
        if (!ended) seen.push(ids);
      }
      await drained;
      let after = await busy();
      for (const deadline = performance.now() + 2000; after.length > 0 && performance.now() < deadline;)
        after = await busy();
      return { seen, after };
    },
    { model, body },
  );
}

test('GET /slots says is_processing for the slot a stream runs on, then not, with four slots and with one', async () => {
  await loadLive();
  const request = { prompt: PROMPTS[0], n_predict: 3000, temperature: 0, ignore_eos: true };
  const four = await slotsDuringStream(fixture.page, live, { ...request, model: live });
  assert.ok(
    four.seen.some((ids) => ids.length === 1),
    `a slot seen processing: ${JSON.stringify(four.seen.slice(0, 5))}`,
  );
  assert.ok(
    four.seen.every((ids) => ids.length <= 1),
    'one stream, one slot',
  );
  assert.deepEqual(four.after, []);
  const { context, page } = await fixture.harness.openPage('/?model=inpage-test');
  try {
    const model = (await page.evaluate((url) => window.inpage.load(url), LIVE_URL)).id;
    const one = await slotsDuringStream(page, model, { ...request, model });
    assert.ok(
      one.seen.some((ids) => ids.length === 1 && ids[0] !== undefined),
      `the one slot seen processing: ${JSON.stringify(one.seen.slice(0, 5))}`,
    );
    assert.deepEqual(one.after, []);
  } finally {
    await context.close();
  }
});

test('n: 4 runs its choices at once on four slots, each equal to a single request with its seed', async () => {
  await loadLive();
  const request = {
    model: live,
    prompt: PROMPTS[1],
    max_tokens: 60,
    temperature: 1,
    top_p: 0.9,
    seed: 5,
    logprobs: 2,
  };
  type Choice = { index: number; text: string; logprobs: { token_logprobs: number[]; tokens: string[] } };
  const singles: Choice[] = [];
  for (let j = 0; j < 4; j++) {
    const answer = await postFromPage(fixture.page, '/v1/completions', { ...request, seed: 5 + j });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const [choice] = (answer.body as { choices: Choice[] }).choices;
    assert.ok(choice);
    singles.push(choice);
  }
  const together = await postFromPage(fixture.page, '/v1/completions', { ...request, n: 4 });
  assert.equal(together.status, 200, JSON.stringify(together.body));
  const { choices, usage } = together.body as { choices: Choice[]; usage: { prompt_tokens: number } };
  assert.deepEqual(
    choices.map((choice) => choice.index),
    [0, 1, 2, 3],
  );
  choices.forEach((choice, j) => {
    const single = singles[j];
    assert.ok(single);
    assert.equal(choice.text, single.text, `choice ${j}`);
    assert.deepEqual(choice.logprobs.tokens, single.logprobs.tokens);
    choice.logprobs.token_logprobs.forEach((logprob, i) =>
      assert.ok(Math.abs(logprob - (single.logprobs.token_logprobs[i] ?? NaN)) < 1e-4, `choice ${j}, token ${i}`),
    );
  });
  assert.ok(usage.prompt_tokens > 0);
  // Streamed: the choices' chunks interleave (choice 3 speaks before choice 0 ends).
  const order = await fixture.page.evaluate(async (body) => {
    const response = await fetch('/v1/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, n: 4, stream: true, logprobs: null }),
    });
    const seen: Array<[number, boolean]> = [];
    const parser = window.createParser({
      onEvent(event) {
        if (event.data === '[DONE]') return;
        const chunk = JSON.parse(event.data) as { choices: Array<{ index: number; finish_reason: string | null }> };
        for (const choice of chunk.choices) seen.push([choice.index, choice.finish_reason !== null]);
      },
    });
    if (!response.body) throw new Error(`no body (${response.status})`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
    return seen;
  }, request);
  const firstOfLast = order.findIndex(([index]) => index === 3);
  const endOfFirst = order.findIndex(([index, end]) => index === 0 && end);
  assert.ok(firstOfLast >= 0 && endOfFirst >= 0 && firstOfLast < endOfFirst, JSON.stringify(order.slice(0, 12)));
});

test("n: 4 reads its prompt once: the other choices copy the first one's cells (llama-server's n_cmpl children)", async () => {
  const wide = (await fixture.page.evaluate((url) => window.inpage.load(url), WIDE_URL)).id;
  // 800 prompt tokens (of a slot's 1,024) and one generated: the time is the prompts' reading.
  const prompt = (tag: string) => `${tag} ${'abcdefgh '.repeat(88)}`.slice(0, 800);
  const timed = (request: Record<string, unknown>) =>
    fixture.page.evaluate(async (request) => {
      const started = performance.now();
      const response = await fetch('/v1/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      });
      const body = (await response.json()) as { choices?: Array<{ text: string }> };
      return { ms: performance.now() - started, texts: body.choices?.map((c) => c.text) ?? [JSON.stringify(body)] };
    }, request);
  const request = { model: wide, max_tokens: 1, temperature: 0, n: 4 };
  const shared: number[] = [];
  const apart: number[] = [];
  for (const round of ['a', 'b']) {
    // A prompt no slot holds yet, each time: the first choice reads it, the others copy it.
    const once = await timed({ ...request, prompt: prompt(`${round}1`) });
    // The same without the cache: each choice reads the prompt itself.
    const each = await timed({ ...request, prompt: prompt(`${round}2`), cache_prompt: false });
    assert.equal(new Set(once.texts).size, 1, JSON.stringify(once.texts));
    assert.equal(new Set(each.texts).size, 1, JSON.stringify(each.texts));
    shared.push(once.ms);
    apart.push(each.ms);
  }
  const ratio = Math.min(...shared) / Math.min(...apart);
  console.log(
    `# n: 4, 800-token prompt: read once ${Math.min(...shared).toFixed(0)} ms, four times ${Math.min(...apart).toFixed(0)} ms (${ratio.toFixed(2)})`,
  );
  assert.ok(ratio < 0.6, `reading the prompt once took ${ratio.toFixed(2)} of reading it four times`);
});

test('on the pthreads build (&threads=2&slots=4), a request that joins a running batch and the one it joins each get their solo tokens', async () => {
  const { page, context } = await fixture.harness.openPage('/?model=inpage-test&slots=4&threads=2');
  try {
    const model = (await page.evaluate((url) => window.inpage.load(url), LIVE_URL)).id;
    const card = await page.evaluate(async (id) => {
      const models = (await (await fetch('/v1/models')).json()) as { data: Array<{ id: string; threads?: unknown }> };
      return models.data.find((entry) => entry.id === id);
    }, model);
    assert.deepEqual(card?.threads, { prefill: 2, decode: 2 }, 'the pthreads build');
    const requests = [PROMPTS[0], PROMPTS[2]].map((prompt) => ({ ...body(prompt ?? ''), model }));
    const solo: NativeAnswer[] = [];
    for (const request of requests) {
      const answer = await postFromPage(page, '/completion', request);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      solo.push(answer.body as NativeAnswer);
    }
    // The second starts once the first has streamed 20 tokens: it joins a batch already running.
    const joined = await page.evaluate(async (requests) => {
      const stream = async (request: Record<string, unknown>, onEvent: (count: number) => void) => {
        const response = await fetch('/completion', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...request, stream: true }),
        });
        const tokens: number[] = [];
        let count = 0;
        const parser = window.createParser({
          onEvent(event) {
            const data = JSON.parse(event.data) as { tokens?: number[] };
            tokens.push(...(data.tokens ?? []));
            onEvent(++count);
          },
        });
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
        return { tokens, count };
      };
      let second: Promise<{ tokens: number[]; count: number }> | null = null;
      let joinedAt = 0;
      const first = await stream(requests[0]!, (count) => {
        if (count === 20 && !second) {
          joinedAt = count;
          second = stream(requests[1]!, () => undefined);
        }
      });
      return { first, second: await second!, joinedAt };
    }, requests);
    assert.equal(joined.joinedAt, 20);
    assert.ok(joined.first.count > 40, `the first streamed ${joined.first.count} events`);
    assert.deepEqual(joined.first.tokens, solo[0]?.tokens);
    assert.deepEqual(joined.second.tokens, solo[1]?.tokens);
  } finally {
    await context.close();
  }
});
