/**
 * Speculative decoding with a draft model (issue 50, item 4: llama-server's `--model-draft`,
 * llama.cpp's draft-simple): a model loaded with a draft model (the playground's `&draft_model=`,
 * `startInpage({ draftModel })`, a spec's `draft`) drafts with it by default, and its output is
 * the model's own, token for token with log-probabilities within 1e-4, greedy and seeded, against
 * the same requests with `speculative.type: none`. The model itself as its draft has every draft
 * taken; `inpage-test` drafting for a random-weight model with live attention mostly misses. A
 * draft model of another vocabulary fails the load, naming both.
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { buildBenchModel } from '../fixtures/bench-model';
import { modelInChroot, placeModel, serverSkip, startLlamaServer } from './llama-server';
import { usePage } from './page-fixture';
import { completeFromPage, postFromPage } from './page-helpers';
import { assertSameOutput, assertSameProbabilities, type Probability } from './native-probabilities';

const DIR = 'dist/test-draft';
const LIVE_URL = '/test-draft/live.gguf';
const OFF = { 'speculative.type': 'none' };

const LIVE = buildBenchModel({ nEmbd: 64, nLayer: 2, nFf: 128, nHead: 2 }, 'f32');
const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

before(async () => {
  await mkdir(DIR, { recursive: true });
  await writeFile(`${DIR}/live.gguf`, LIVE);
});
after(() => rm(DIR, { recursive: true, force: true }));

// The page's model is the live-attention one, with the built-in `inpage-test` as its draft model.
const fixture = usePage(`/?model=${LIVE_URL}&draft_model=inpage-test`);

interface NativeAnswer {
  content: string;
  tokens: number[];
  stop_type: string;
  timings: { draft_n?: number; draft_n_accepted?: number };
  completion_probabilities: Probability[];
}

const DEFAULTS = { model: 'live', temperature: 0, n_probs: 2, return_tokens: true, cache_prompt: false };
const complete = (body: Record<string, unknown>) =>
  completeFromPage<NativeAnswer>(fixture.page, { ...DEFAULTS, ...body });

const PROMPT = 'one two three four five six seven eight nine ten\n'.repeat(3);

describe('a draft model', () => {
  test("drafts by default, and the output is the model's own (greedy and seeded)", async () => {
    for (const sampling of [{ temperature: 0 }, { temperature: 1, seed: 7, top_k: 0 }]) {
      const body = { prompt: PROMPT, n_predict: 100, ...sampling };
      const plain = await complete({ ...body, ...OFF });
      const drafted = await complete(body);
      assertSameOutput(drafted, plain);
      assert.equal(plain.timings.draft_n, undefined, 'no draft counts with speculative.type none');
      const { draft_n: n = 0, draft_n_accepted: accepted = 0 } = drafted.timings;
      assert.ok(n > 0, `${JSON.stringify(sampling)}: drafted ${n}`);
      assert.ok(accepted < n, `${JSON.stringify(sampling)}: inpage-test's drafts mostly miss (${accepted} of ${n})`);
    }
  });

  test(
    'llama-server --model-draft on the same files gives the same tokens (and logprobs where it reports them)',
    { skip: skip ?? false },
    async () => {
      placeModel('draft-live', LIVE);
      const server = await startLlamaServer({
        model: 'draft-live',
        args: ['-np', '1', '-c', '4096', '--spec-type', 'draft-simple', '-md', modelInChroot('inpage-test')],
      });
      try {
        const body = {
          prompt: PROMPT,
          n_predict: 100,
          temperature: 0,
          n_probs: 2,
          return_tokens: true,
          cache_prompt: false,
        };
        const response = await fetch(`http://127.0.0.1:${server.port}/completion`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const native = (await response.json()) as NativeAnswer;
        const ours = await complete(body);
        assert.equal(ours.content, native.content);
        assert.deepEqual(ours.tokens, native.tokens);
        assert.equal(ours.stop_type, native.stop_type);
        // llama-server 0.7.0 gives a token sampled in a draft's check no probabilities (logprob 0,
        // no candidates); where it gives them, they are ours. Ours are always the ones without
        // drafts (the first test).
        const given = (answer: NativeAnswer) =>
          answer.completion_probabilities.filter(
            (_, i) => (native.completion_probabilities[i]?.top_logprobs.length ?? 0) > 0,
          );
        const counted = given(native).length;
        assert.ok(counted > 0 && counted < native.completion_probabilities.length, `${counted} with probabilities`);
        assertSameProbabilities(given(ours), given(native));
        assert.ok((native.timings.draft_n ?? 0) > 0, 'llama-server drafted');
        assert.ok((ours.timings.draft_n ?? 0) > 0, 'the page drafted');
      } finally {
        await server.stop();
      }
    },
  );

  test('the model as its own draft: every draft is taken, n_max and p_min apply', async () => {
    const card = await fixture.page.evaluate((url) => {
      const href = new URL(url, location.href).href;
      return window.inpage.load({
        id: 'live-self',
        backend: 'llamacpp',
        source: { kind: 'url', url: href },
        draft: { id: 'live-draft', source: { kind: 'url', url: href } },
      });
    }, LIVE_URL);
    assert.equal((card as { draft_model?: string }).draft_model, 'live-draft');
    const body = { model: 'live-self', prompt: PROMPT, n_predict: 90 };
    const plain = await complete({ ...body, ...OFF });
    for (const fields of [{}, { 'speculative.n_max': 8 }]) {
      const drafted = await complete({ ...body, ...fields });
      assertSameOutput(drafted, plain);
      const { draft_n: n = 0, draft_n_accepted: accepted = 0 } = drafted.timings;
      assert.ok(n >= 60, `${JSON.stringify(fields)}: drafted ${n}`);
      assert.equal(accepted, n, `${JSON.stringify(fields)}: the model's own greedy tokens`);
    }
    // No token of a random model has all of its top 10's probability: p_min 1 drafts nothing.
    const none = await complete({ ...body, 'speculative.p_min': 1 });
    assertSameOutput(none, plain);
    assert.equal(none.timings.draft_n ?? 0, 0, 'no draft_n where nothing was drafted, as llama-server');
    // n-gram drafts on a model with a draft model, when asked.
    const ngram = await complete({ ...body, 'speculative.type': 'ngram-simple', 'speculative.ngram_size_n': 1 });
    assertSameOutput(ngram, plain);
  });

  test("/metrics counts the drafts as llama-server's spec_decode counters", async () => {
    const scrape = async () => {
      const text = await fixture.page.evaluate(() => fetch('/metrics').then((r) => r.text()));
      const value = (name: string) =>
        Number(new RegExp(`^llamacpp:${name}\\{model="live"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
      const perPos = [
        ...text.matchAll(
          /^llamacpp:spec_decode_num_accepted_tokens_per_pos_total\{model="live",position="(\d+)"\} (\S+)$/gm,
        ),
      ].map(([, position, n]) => [Number(position), Number(n)]);
      return {
        drafted: value('spec_decode_num_draft_tokens_total'),
        accepted: value('spec_decode_num_accepted_tokens_total'),
        checks: value('spec_decode_num_drafts_total'),
        perPos: perPos.map(([, n]) => n ?? NaN),
        positions: perPos.map(([position]) => position),
      };
    };
    const before = await scrape();
    const answer = await complete({ prompt: PROMPT, n_predict: 60 });
    const after = await scrape();
    const { draft_n: n = 0, draft_n_accepted: accepted = 0 } = answer.timings;
    assert.ok(n > 0);
    assert.equal(after.drafted - before.drafted, n);
    assert.equal(after.accepted - before.accepted, accepted);
    const checks = after.checks - before.checks;
    assert.ok(checks > 0 && checks <= n, `${checks} checks of ${n} draft tokens`);
    // llama-server's per-position counter: a sample a position up to the largest n_max asked (a
    // draft model's default is 3), each draft's kept tokens counted at their positions, so they add
    // up to the accepted ones and never grow with the position.
    assert.ok(after.positions.length >= 3);
    assert.deepEqual(after.positions, [...Array(after.positions.length).keys()]);
    const kept = after.perPos.map((count, i) => count - (before.perPos[i] ?? 0));
    assert.equal(
      kept.reduce((sum, count) => sum + count, 0),
      accepted,
    );
    for (let i = 1; i < kept.length; i++) assert.ok((kept[i] ?? 0) <= (kept[i - 1] ?? 0), JSON.stringify(kept));
  });

  test('streamed chat with a draft model is the chat without it', async () => {
    const ask = (extra: Record<string, unknown>) =>
      postFromPage(fixture.page, '/v1/chat/completions', {
        model: 'live-self',
        messages: [{ role: 'user', content: PROMPT }],
        max_tokens: 60,
        temperature: 0,
        stream: true,
        ...extra,
      });
    const text = (raw: unknown) =>
      String(raw)
        .split('\n')
        .filter((line) => line.startsWith('data: {'))
        .map(
          (line) =>
            (JSON.parse(line.slice(6)) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta
              .content ?? '',
        )
        .join('');
    const [plain, drafted] = [await ask(OFF), await ask({})];
    assert.equal(drafted.status, 200);
    assert.ok(text(plain.body).length > 0);
    assert.equal(text(drafted.body), text(plain.body));
  });

  test('a draft model of another vocabulary fails the load, naming both', async () => {
    const failure = await fixture.page.evaluate(async () => {
      try {
        await window.inpage.load({
          id: 'qwen3-with-byte-draft',
          backend: 'llamacpp',
          source: { kind: 'url', url: new URL('/models/inpage-test-qwen3.gguf', location.href).href },
          draft: { id: 'inpage-test', source: { kind: 'builtin' } },
        });
        return null;
      } catch (error) {
        return { message: String((error as Error).message), code: (error as { code?: string }).code ?? null };
      }
    });
    assert.ok(failure, 'the load failed');
    assert.equal(failure.code, 'model_load_failed');
    assert.match(failure.message, /draft model 'inpage-test' cannot draft for 'qwen3-with-byte-draft'.*vocabulary/);
    // The page's model still answers.
    const answer = await complete({ prompt: 'abc', n_predict: 4 });
    assert.equal(answer.tokens.length, 4);
  });
});
