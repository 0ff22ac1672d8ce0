/**
 * What an engine serves outlives the tab that ran it, as a llama-server keeps its models and the
 * scales `POST /lora-adapters` set until it stops: three tabs start `inpage-test` with the two
 * generated adapters (`back` and `attn` of test/fixtures/inpage-test-lora.ts, both at 1); the
 * leader's engine is POSTed `attn` alone, and loads `inpage-test-bert` (`inpage.load()`); the
 * leader closes, and the follower opened before (told then) takes over with both models at those
 * scales; it closes, and the one opened after (it asked) takes over with them too. Each new
 * leader's `GET /lora-adapters` and `/completion` say so (its answer is the one a request at those
 * scales got from the first engine, which differs from the answer at the startup scales), and an
 * embedding of the other model, asked as soon as the tab that served it has closed, waits for the
 * new leader and is the first engine's.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';

const PATH = '/?model=inpage-test&lora=/models/inpage-test-lora-back.gguf&lora=/models/inpage-test-lora-attn.gguf';
const COMPLETION = { model: 'inpage-test', prompt: 'Hello abcd', n_predict: 8, temperature: 0, n_probs: 2 };
/** What the POST sets: `attn` alone (`back` at 0), llama-server's reading of a partial list. */
const ATTN_ONLY = [{ id: 1, scale: 1 }];

type Answer = { status: number; body: unknown };
let harness: Harness;

before(async () => {
  harness = await startHarness();
});

after(() => harness.close());

/** A request from `page`, sent again while the handover refuses it (a 503 in the moment the old tab goes). */
function ask(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
  return page.evaluate(
    async ({ method, path, body }) => {
      for (let tries = 1; ; tries++) {
        const init = body === undefined ? { method } : { method, body: JSON.stringify(body) };
        const response = await fetch(path, init);
        const answer = { status: response.status, body: (await response.json()) as unknown };
        if (response.status !== 503 || tries === 20) return answer;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    { method, path, body },
  );
}

/** The scales `GET /lora-adapters` lists and the `/completion` answer, from `page`. */
async function state(page: Page): Promise<{ scales: unknown; completion: unknown }> {
  const listed = await ask(page, 'GET', '/lora-adapters');
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  const completion = await ask(page, 'POST', '/completion', COMPLETION);
  assert.equal(completion.status, 200, JSON.stringify(completion.body));
  const { content, completion_probabilities } = completion.body as Record<string, unknown>;
  return {
    scales: (listed.body as Array<{ scale: number }>).map((adapter) => adapter.scale),
    completion: { content, completion_probabilities },
  };
}

/** `inpage-test-bert`'s embedding of a word, from `page` (a 200 expected). */
async function embedding(page: Page): Promise<unknown> {
  const answer = await ask(page, 'POST', '/v1/embeddings', { model: 'inpage-test-bert', input: 'xyz' });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return (answer.body as { data: Array<{ embedding: number[] }> }).data[0]?.embedding;
}

test('the leader tab goes: the tab that takes over loads the models it served, at the POSTed LoRA scales', async () => {
  const { context, page: first } = await harness.openPage(PATH);
  const opened = async () => {
    const page = await context.newPage();
    await page.goto(harness.origin + PATH);
    await page.evaluate(() => window.inpage.ready);
    return page;
  };
  const told = await opened();
  assert.deepEqual(await Promise.all([first, told].map((page) => page.evaluate(() => window.inpage.role))), [
    'leader',
    'follower',
  ]);
  const startup = await state(first);
  assert.deepEqual(startup.scales, [1, 1]);
  const asked = await postFromPage(first, '/completion', { ...COMPLETION, lora: ATTN_ONLY });
  assert.equal(asked.status, 200, JSON.stringify(asked.body));
  const { content, completion_probabilities } = asked.body as Record<string, unknown>;
  const attnOnly = { content, completion_probabilities };
  assert.notDeepEqual(attnOnly, startup.completion, 'the scales change the answer');

  const posted = await ask(first, 'POST', '/lora-adapters', ATTN_ONLY);
  assert.equal(posted.status, 200, JSON.stringify(posted.body));
  assert.deepEqual(await state(first), { scales: [0, 1], completion: attnOnly });
  await first.evaluate(() => window.inpage.load('/models/inpage-test-bert.gguf'));
  const vector = await embedding(first);
  const late = await opened();

  for (const [going, next, label] of [
    [first, told, 'the tab told'],
    [told, late, 'the tab that asked'],
  ] as const) {
    await going.close();
    // Sent while the next tab starts its engine: held through the handover (it stands by for the model).
    assert.deepEqual(await embedding(next), vector, `${label}: the other model's embedding`);
    assert.deepEqual(await state(next), { scales: [0, 1], completion: attnOnly }, `${label}: the scales`);
    assert.equal(await next.evaluate(() => window.inpage.role), 'leader');
  }
  await context.close();
});
