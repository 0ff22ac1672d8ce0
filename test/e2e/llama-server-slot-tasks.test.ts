/**
 * `GET /slots`' per-task fields against Debian's native `llama-server` 0.7.0 on `inpage-test`:
 * after the same completion, slot 0 has the same keys (ours adds `model`), the same token count
 * and next-token state, and `params` with llama-server's values for every key it has (float32
 * as llama.cpp keeps them; llama-server started with this engine's sampling defaults); while a long streamed completion runs, each says it is processing
 * with its prompt's counts, `n_remain` + `n_decoded` = `max_tokens` and the slot's tokens the
 * prompt's and those generated (but the last, where the next step has not read it yet); once the stream is cut, the counts are cleared and
 * `has_next_token` stays true (it was cut, not ended). With two slots, `id_slot` picks the same
 * slot on both (wrapped around the slots). Part of the llama-server differential:
 * skipped, with what is missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright';
import { serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { type Json } from './llama-server-compare';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const fixture = usePage();
let server: LlamaServer | undefined;
const nativeUrl = (path: string) => {
  if (!server) throw new Error('llama-server starts in before()');
  return `http://127.0.0.1:${server.port}${path}`;
};

interface Slot extends Json {
  is_processing: boolean;
  /** Absent on a slot that ran no task yet. */
  id_task?: number;
  n_prompt_tokens: number;
  n_prompt_tokens_processed: number;
  n_prompt_tokens_cache: number;
  params: Json;
  next_token: Array<{ has_next_token: boolean; has_new_line: boolean; n_remain: number; n_decoded: number }>;
}

const ownSlots = (page: Page) =>
  page.evaluate(async () => (await (await fetch('/slots')).json()) as unknown) as Promise<Slot[]>;
const nativeSlots = async () => (await (await fetch(nativeUrl('/slots'))).json()) as Slot[];

const PARAMS = [
  'seed',
  'temperature',
  'dynatemp_range',
  'dynatemp_exponent',
  'top_k',
  'top_p',
  'min_p',
  'top_n_sigma',
  'xtc_probability',
  'xtc_threshold',
  'typical_p',
  'repeat_last_n',
  'repeat_penalty',
  'presence_penalty',
  'frequency_penalty',
  'dry_multiplier',
  'dry_base',
  'dry_allowed_length',
  'dry_penalty_last_n',
  'mirostat',
  'mirostat_tau',
  'mirostat_eta',
  'adaptive_target',
  'adaptive_decay',
  'max_tokens',
  'n_predict',
  'ignore_eos',
  'stream',
  'n_probs',
  'min_keep',
  'samplers',
  'lora',
];

/** The same keys, but `model`; `params`' keys ours has all llama-server's values (as float32). */
function assertSameShape(own: Slot, native: Slot, label: string) {
  assert.deepEqual(
    Object.keys(own).filter((key) => key !== 'model'),
    Object.keys(native),
    label,
  );
  for (const [key, value] of Object.entries(own.params)) {
    assert.ok(key in native.params, `${label}: params.${key} is llama-server's`);
    const theirs = native.params[key];
    if (typeof value === 'number') assert.equal(Math.fround(value), Math.fround(Number(theirs)), `${label}: ${key}`);
    else assert.deepEqual(value, theirs, `${label}: ${key}`);
  }
  // llama-server's keys, in its order, but those naming what is not here (n_keep, chat_format, ...).
  assert.deepEqual(Object.keys(own.params), PARAMS, label);
  assert.deepEqual(
    Object.keys(native.params).filter((key) => key in own.params),
    PARAMS,
    `${label}: llama-server's order`,
  );
}

/** The fields of a task that do not depend on the servers' own task numbering. */
const state = ({
  is_processing,
  n_prompt_tokens,
  n_prompt_tokens_processed,
  n_prompt_tokens_cache,
  next_token,
}: Slot) => ({
  is_processing,
  n_prompt_tokens,
  n_prompt_tokens_processed,
  n_prompt_tokens_cache,
  next_token,
});

/** Polls `read` until slot 0 is idle (a cut stream ends on the next token), at most 10 s. */
async function idle(read: () => Promise<Slot[]>): Promise<Slot> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [slot] = await read();
    if (slot && !slot.is_processing) return slot;
    if (Date.now() > deadline) throw new Error(`slot 0 still processing: ${JSON.stringify(slot)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const LONG = { prompt: 'abc', max_tokens: 3000, temperature: 0, stream: true, stop: ['zz'] };
/** Frames read before `/slots` is asked. */
const FRAMES = 40;

describe("GET /slots' per-task fields against native llama-server", { skip: skip ?? false }, () => {
  before(async () => {
    // Started with this engine's defaults where llama-server's differ (docs/llama-server-endpoints.md).
    server = await startLlamaServer({ args: ['--top-k', '0', '--top-p', '1', '--min-p', '0'] });
  });
  after(() => server?.stop());

  test('after a completion: the same keys, counts, next-token state and params', async () => {
    const body = { prompt: 'abc', n_predict: 5, temperature: 0 };
    const answer = await fetch(nativeUrl('/completion'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, id_slot: 0 }),
    });
    assert.equal(answer.status, 200);
    const own = await postFromPage(fixture.page, '/completion', body);
    assert.equal(own.status, 200, JSON.stringify(own.body));
    const [[ours], [theirs]] = await Promise.all([ownSlots(fixture.page), nativeSlots()]);
    assert.ok(ours && theirs);
    assertSameShape(ours, theirs, 'after /completion');
    assert.deepEqual(state(ours), state(theirs));
    // 'abc' and 'defgh': the last token sampled is never read into the slot.
    assert.equal(ours.n_prompt_tokens, 7);
    assert.deepEqual(ours.next_token, [{ has_next_token: false, has_new_line: false, n_remain: -1, n_decoded: 0 }]);
    assert.deepEqual([ours.params.n_predict, ours.params.stream, ours.params.temperature], [5, false, 0]);
    assert.equal(typeof ours.id_task, 'number');
  });

  test('during a streamed completion, and after it is cut', async () => {
    // llama-server's: read FRAMES frames, ask /slots, cut the stream.
    const controller = new AbortController();
    const stream = await fetch(nativeUrl('/v1/completions'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'x', ...LONG, id_slot: 0 }),
      signal: controller.signal,
    });
    const reader = stream.body?.getReader();
    for (let n = 0; n < FRAMES && reader; n++) if ((await reader.read()).done) break;
    const [theirs] = await nativeSlots();
    controller.abort();
    const theirsAfter = await idle(nativeSlots);

    const [ours, before] = await fixture.page.evaluate(
      async ({ body, frames }) => {
        const lastTask = ((await (await fetch('/slots')).json()) as Array<{ id_task: number }>)[0]?.id_task ?? -1;
        const cut = new AbortController();
        const response = await fetch('/v1/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'inpage-test', ...body }),
          signal: cut.signal,
        });
        const read = response.body?.getReader();
        for (let n = 0; n < frames && read; n++) if ((await read.read()).done) break;
        const slots = (await (await fetch('/slots')).json()) as unknown[];
        cut.abort();
        return [slots[0], lastTask] as const;
      },
      { body: LONG, frames: FRAMES },
    );
    const oursAfter = await idle(() => ownSlots(fixture.page));
    assert.ok(theirs && ours);
    const running = ours as Slot;
    assertSameShape(running, theirs, 'during');
    for (const slot of [running, theirs]) {
      const [next] = slot.next_token;
      const label = JSON.stringify(slot);
      assert.equal(slot.is_processing, true, label);
      assert.ok(next && next.has_next_token && next.n_decoded > 0, label);
      assert.equal(next.n_remain + next.n_decoded, 3000, label);
      // The token sampled last is in the slot once the next step reads it (llama-server is seen either side of it).
      assert.ok([2, 3].includes(slot.n_prompt_tokens - next.n_decoded), label);
      assert.deepEqual([slot.params.max_tokens, slot.params.stream], [3000, true], label);
    }
    // The same prompt as the slot's last: its tokens but the last kept, as llama-server keeps them.
    assert.deepEqual(
      [running.n_prompt_tokens_processed, running.n_prompt_tokens_cache],
      [theirs.n_prompt_tokens_processed, theirs.n_prompt_tokens_cache],
    );
    assert.ok((running.id_task ?? -1) > before, `a new task: ${running.id_task} after ${before}`);
    // Cut: counts cleared, has_next_token as it was (true), the task still listed.
    for (const slot of [oursAfter, theirsAfter]) {
      assert.deepEqual(
        pick(slot),
        {
          n_prompt_tokens_processed: 0,
          n_prompt_tokens_cache: 0,
          next_token: [{ has_next_token: true, has_new_line: false, n_remain: -1, n_decoded: 0 }],
        },
        JSON.stringify(slot),
      );
    }
    assert.equal(oursAfter.id_task, running.id_task);
  });

  test('id_slot: the same slot as llama-server with two slots (wrapped around), in the answer and in /slots', async () => {
    const { context, page } = await fixture.harness.openPage('/?model=inpage-test&slots=2');
    try {
      for (const asked of [1, 3, 0, 2]) {
        const body = { prompt: 'abc', n_predict: 2, temperature: 0, id_slot: asked };
        const native = await fetch(nativeUrl('/completion'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const own = await postFromPage(page, '/completion', body);
        const ids = [(own.body as Json).id_slot, ((await native.json()) as Json).id_slot];
        assert.deepEqual(ids, [asked % 2, asked % 2], `id_slot ${asked}`);
        const newest = (slots: Slot[]) => [...slots].sort((a, b) => (b.id_task ?? -1) - (a.id_task ?? -1))[0]?.id;
        assert.deepEqual([newest(await ownSlots(page)), newest(await nativeSlots())], ids, `/slots after ${asked}`);
      }
    } finally {
      await context.close();
    }
  });
});

const pick = ({ n_prompt_tokens_processed, n_prompt_tokens_cache, next_token }: Slot) => ({
  n_prompt_tokens_processed,
  n_prompt_tokens_cache,
  next_token,
});
