/**
 * A model with a recurrent state through the page's `/completion`: `inpage-test-mamba` (llama.cpp's
 * `mamba`), against Debian's llama-server 0.7.0 on the same file (its RAM prompt cache off). The
 * same prompt again goes back to the context checkpoint saved 4 tokens before its end
 * (native/checkpoints.cpp): `timings.cache_n` is llama-server's, and so are the tokens. With
 * `speculative.type` on, the model drafts nothing (a draft cannot be taken back from its state)
 * and answers as without it; an edit in the answer goes back to the same checkpoint. `n: 3`
 * choices each answer as a single request, the prompt kept but its last 4 tokens.
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { buildInpageTestMambaModel } from '../fixtures/inpage-test-mamba';
import { placeModel, serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { assertSameOutput, type NativeOutput } from './native-probabilities';
import { usePage } from './page-fixture';
import { completeFromPage, postFromPage } from './page-helpers';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const DIR = 'dist/test-recurrent';
const MODEL_URL = '/test-recurrent/inpage-test-mamba.gguf';
const MODEL = buildInpageTestMambaModel();
before(async () => {
  await mkdir(DIR, { recursive: true });
  await writeFile(`${DIR}/inpage-test-mamba.gguf`, MODEL);
});
after(() => rm(DIR, { recursive: true, force: true }));

// The page's model is the Mamba one (its id: the file's name).
const fixture = usePage(`/?model=${MODEL_URL}`);
const id = 'inpage-test-mamba';

interface Answer extends NativeOutput {
  timings: { cache_n: number; draft_n?: number };
}

let server: LlamaServer | undefined;
before(async () => {
  if (skip) return;
  placeModel('recurrent-page', MODEL);
  server = await startLlamaServer({ model: 'recurrent-page', args: ['--cache-ram', '0'] });
});
after(() => server?.stop());

/** `n` lowercase letters' byte ids, a pattern of its own per `step` (the model's vocabulary is bytes). */
const letters = (n: number, step: number) => Array.from({ length: n }, (_, i) => 97 + ((i * step + 7) % 26));
const PROMPT = letters(300, 3);
const SAMPLING = { temperature: 0, n_predict: 8, n_probs: 1, return_tokens: true };

const inPage = (body: Record<string, unknown>) =>
  completeFromPage<Answer>(fixture.page, { model: id, ...SAMPLING, ...body });

async function native(body: Record<string, unknown>): Promise<Answer> {
  const base = server?.baseURL.replace(/\/v1$/, '') ?? '';
  const response = await fetch(`${base}/completion`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...SAMPLING, id_slot: 0, ...body }),
  });
  const answer = (await response.json()) as Answer;
  assert.equal(response.status, 200, JSON.stringify(answer));
  return answer;
}

/** llama-server's tokens and text, logprobs within 1e-3 (another build of the same kernels), and its `cache_n`. */
function assertAsNative(ours: Answer, theirs: Answer, label: string): void {
  assert.equal(ours.content, theirs.content, label);
  assert.deepEqual(ours.tokens, theirs.tokens, label);
  ours.completion_probabilities.forEach((p, i) => {
    const want = theirs.completion_probabilities[i]?.logprob ?? NaN;
    assert.ok(Math.abs(p.logprob - want) < 1e-3, `${label}, token ${i}: ${p.logprob} vs ${want}`);
  });
  assert.equal(ours.timings.cache_n, theirs.timings.cache_n, `${label}: tokens kept`);
}

test(
  'the same prompt again goes back to the checkpoint 4 tokens before its end, as llama-server does',
  { skip: skip ?? false },
  async () => {
    const first = await inPage({ prompt: PROMPT });
    assertAsNative(first, await native({ prompt: PROMPT }), 'first');
    assert.equal(first.timings.cache_n, 0);
    const again = await inPage({ prompt: PROMPT });
    assertAsNative(again, await native({ prompt: PROMPT }), 'again');
    assert.equal(again.timings.cache_n, PROMPT.length - 4);
    const edit = [...PROMPT, ...first.tokens.slice(0, 4), ...letters(6, 5)];
    const edited = await inPage({ prompt: edit });
    assertAsNative(edited, await native({ prompt: edit }), 'an edit in the answer');
    assert.equal(edited.timings.cache_n, PROMPT.length - 4);
  },
);

test('with speculative.type on it drafts nothing and answers as without it', async () => {
  const prompt = letters(200, 7);
  const plain = await inPage({ prompt, n_predict: 40, cache_prompt: false });
  const drafted = await inPage({ prompt, n_predict: 40, cache_prompt: false, 'speculative.type': 'ngram-simple' });
  assertSameOutput(drafted, plain);
  assert.equal(drafted.timings.draft_n ?? 0, 0, 'no draft on a recurrent state');
});

test('n: 3 choices each answer as a single request (each after the first goes back to the checkpoint)', async () => {
  const prompt = letters(120, 5);
  const ask = (n: number) =>
    postFromPage(fixture.page, '/v1/completions', { model: id, prompt, n, max_tokens: 8, temperature: 0 });
  const one = await ask(1);
  const three = await ask(3);
  assert.equal(three.status, 200, JSON.stringify(three.body));
  const text = (body: unknown) => (body as { choices: Array<{ text: string }> }).choices.map((choice) => choice.text);
  const [single] = text(one.body);
  assert.deepEqual(text(three.body), [single, single, single]);
  const usage = (three.body as { usage: { prompt_tokens_details?: { cached_tokens?: number } } }).usage;
  assert.ok((usage.prompt_tokens_details?.cached_tokens ?? 0) >= prompt.length - 4, JSON.stringify(usage));
});
