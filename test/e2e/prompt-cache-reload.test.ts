/**
 * The prompt cache across page loads (issue 35, item 3): after a request, the context's state
 * is saved to the origin's OPFS (`inpage-prompt-cache`), and after a reload a prompt sharing
 * its prefix starts from the restored state: `timings.cache_n` counts the restored tokens, and
 * the text and log-probabilities are a cold prefill's, within 1e-4. The model is a tiny
 * random-weight llama whose attention is live (the built-in test models' attention output is
 * zero, so a wrong cache would not show there). A reload's load restores the state used last; a
 * prompt that another saved state holds more of restores that one. `cache_prompt: false` neither
 * writes nor reads it. With slots, each slot's sequence is saved and restored on its own.
 * Each test opens its own browser context: its own, empty OPFS.
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright';
import { buildBenchModel } from '../fixtures/bench-model';
import { buildInpageTestLoraAttn } from '../fixtures/inpage-test-lora';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';
import { assertSameProbabilities, type Probability } from './native-probabilities';

const DIR = 'dist/test-prompt-cache';
const MODEL_URL = '/test-prompt-cache/live-attention.gguf';
/** A LoRA adapter of that model's first block (test/fixtures/inpage-test-lora.ts's attention adapter). */
const LORA_URL = '/test-prompt-cache/live-attention-lora.gguf';
/** 540 bytes: 540 prompt tokens on the byte vocabulary (no BOS). */
const PREFIX = Array.from({ length: 60 }, (_, i) => `line ${String(i).padStart(3, '0')}\n`).join('');
const TAIL = 'and what follows';
/** Another conversation's prefix: nothing in common with PREFIX. */
const UNRELATED = Array.from({ length: 40 }, (_, i) => `${i} bottles of beer;\n`).join('');

interface NativeAnswer {
  content: string;
  tokens_evaluated: number;
  timings: { cache_n: number };
  completion_probabilities: Probability[];
}
interface SavedEntry {
  key: string;
  tokens: number[];
  usedAt: number;
}

let harness: Harness;

before(async () => {
  await mkdir(DIR, { recursive: true });
  await writeFile(`${DIR}/live-attention.gguf`, buildBenchModel({ nEmbd: 64, nLayer: 2, nFf: 128, nHead: 2 }, 'f32'));
  await writeFile(`${DIR}/live-attention-lora.gguf`, buildInpageTestLoraAttn(64));
  harness = await startHarness();
});
after(async () => {
  await harness?.close();
  await rm(DIR, { recursive: true, force: true });
});

/** Loads the model on the (re)loaded page; its id. */
async function loadModel(page: Page): Promise<string> {
  await page.evaluate(() => window.inpage.ready);
  const card = await page.evaluate((url) => window.inpage.load(url), MODEL_URL);
  return card.id;
}

async function complete(page: Page, model: string, prompt: string, extra: Record<string, unknown> = {}) {
  const answer = await postFromPage(page, '/completion', {
    model,
    prompt,
    n_predict: 6,
    temperature: 0,
    n_probs: 3,
    ...extra,
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as NativeAnswer;
}

/** The prompt cache's index as the page reads it from OPFS (empty: none written). */
function savedEntries(page: Page): Promise<SavedEntry[]> {
  // Under the cache's own lock, shared: a read while the engine rewrites the index would fail.
  return page.evaluate(() =>
    navigator.locks.request('inpage-prompt-cache', { mode: 'shared' }, async () => {
      const root = await navigator.storage.getDirectory();
      try {
        const dir = await root.getDirectoryHandle('inpage-prompt-cache');
        const file = await (await dir.getFileHandle('index.json')).getFile();
        return JSON.parse(await file.text()) as SavedEntry[];
      } catch {
        return [];
      }
    }),
  );
}

/** Waits until the index lists a state that holds `prompt` (ids are bytes); saves run after the answer. */
async function savedWith(page: Page, prompt: string): Promise<SavedEntry[]> {
  const ids = [...new TextEncoder().encode(prompt)];
  const holds = (entry: SavedEntry) => ids.every((id, i) => entry.tokens[i] === id);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const entries = await savedEntries(page);
    if (entries.some(holds)) return entries;
    if (Date.now() > deadline) throw new Error(`no saved state holds ${JSON.stringify(prompt.slice(0, 40))}...`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function reload(page: Page): Promise<string> {
  await page.reload();
  return loadModel(page);
}

describe('the prompt cache across page loads', () => {
  test('after a reload a prompt sharing a saved prefix starts from it, with a cold prefill’s logits', async () => {
    const { page } = await harness.openPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    let model = await loadModel(page);
    const first = await complete(page, model, PREFIX);
    assert.equal(first.timings.cache_n, 0);
    // The reference: the longer prompt read cold, past every cache.
    const cold = await complete(page, model, PREFIX + TAIL, { cache_prompt: false });
    assert.equal(cold.timings.cache_n, 0);
    // The check has power: another prefix before the same tail moves the log-probabilities far more than 1e-4.
    const other = await complete(page, model, PREFIX.replaceAll('line', 'LINE') + TAIL, { cache_prompt: false });
    const moved = Math.abs(
      (other.completion_probabilities[0]?.logprob ?? 0) - (cold.completion_probabilities[0]?.logprob ?? 0),
    );
    assert.ok(moved > 1e-3, `the prefix moved the first token's log-probability by ${moved}`);
    await savedWith(page, PREFIX);
    // Saved last, so the reload's load restores this one: the prompt below must find its own.
    await complete(page, model, UNRELATED);
    await savedWith(page, UNRELATED);
    assert.equal((await savedEntries(page)).length, 2);

    model = await reload(page);
    const restored = await complete(page, model, PREFIX + TAIL);
    assert.ok(
      restored.timings.cache_n >= PREFIX.length,
      `${restored.timings.cache_n} of ${restored.tokens_evaluated} tokens came from the saved state; the page warned: ${JSON.stringify(warnings)}`,
    );
    console.log(`# restored ${restored.timings.cache_n} of ${restored.tokens_evaluated}; moved ${moved}`);
    assert.equal(restored.content, cold.content);
    assertSameProbabilities(restored.completion_probabilities, cold.completion_probabilities);

    // The context now holds the restored prefix and more: that state is saved too (it holds
    // the first one's prompt, which it supersedes), and the second reload's load restores it.
    await savedWith(page, PREFIX + TAIL);
    model = await reload(page);
    const again = await complete(page, model, PREFIX + TAIL);
    assert.ok(again.timings.cache_n >= PREFIX.length + TAIL.length - 1, String(again.timings.cache_n));
    assertSameProbabilities(again.completion_probabilities, cold.completion_probabilities);
    await page.context().close();
  });

  test("with four slots each slot's context is saved, and after a reload each prompt starts from its own", async () => {
    const { page } = await harness.openPage('/?model=inpage-test&slots=4');
    let model = await loadModel(page);
    const colds = [];
    for (const prefix of [PREFIX, UNRELATED])
      colds.push(await complete(page, model, prefix + TAIL, { cache_prompt: false }));
    // Both at once, on two slots; each slot's state is saved after its request.
    await Promise.all([complete(page, model, PREFIX), complete(page, model, UNRELATED)]);
    await savedWith(page, PREFIX);
    await savedWith(page, UNRELATED);
    model = await reload(page);
    for (const [i, prefix] of [PREFIX, UNRELATED].entries()) {
      const restored = await complete(page, model, prefix + TAIL);
      assert.ok(restored.timings.cache_n >= prefix.length - 1, `prompt ${i}: ${restored.timings.cache_n} restored`);
      assert.equal(restored.content, colds[i]?.content);
      assertSameProbabilities(restored.completion_probabilities, colds[i]?.completion_probabilities ?? []);
    }
    await page.context().close();
  });

  test("with a LoRA adapter: states are saved and restored at the load's scales only", async () => {
    const { page } = await harness.openPage();
    const load = () =>
      page.evaluate(
        async ({ model, adapter }) => {
          await window.inpage.ready;
          const url = (path: string) => ({ kind: 'url' as const, url: `${location.origin}${path}` });
          const card = await window.inpage.load({
            id: 'live-attention-lora',
            backend: 'llamacpp',
            source: url(model),
            lora: [{ id: 'attn', source: url(adapter), scale: 1 }],
          });
          return card.id;
        },
        { model: MODEL_URL, adapter: LORA_URL },
      );
    const OFF = { lora: [{ id: 0, scale: 0 }] };
    let model = await load();
    const cold = await complete(page, model, PREFIX + TAIL, { cache_prompt: false });
    const coldOff = await complete(page, model, PREFIX + TAIL, { ...OFF, cache_prompt: false });
    // The adapter moves the answer: a state used at the other scales would show.
    const moved = Math.abs(
      (cold.completion_probabilities[0]?.logprob ?? 0) - (coldOff.completion_probabilities[0]?.logprob ?? 0),
    );
    assert.ok(moved > 1e-3, `the adapter moved the first token's log-probability by ${moved}`);
    await complete(page, model, PREFIX);
    await savedWith(page, PREFIX);
    // At other scales: not saved.
    await complete(page, model, UNRELATED, OFF);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal((await savedEntries(page)).length, 1);

    await page.reload();
    model = await load();
    // The load restored the state at the load's scales; a request at others reads its prompt cold.
    const off = await complete(page, model, PREFIX + TAIL, OFF);
    assert.equal(off.timings.cache_n, 0);
    assertSameProbabilities(off.completion_probabilities, coldOff.completion_probabilities);
    const restored = await complete(page, model, PREFIX + TAIL);
    assert.ok(restored.timings.cache_n >= PREFIX.length - 1, String(restored.timings.cache_n));
    assert.equal(restored.content, cold.content);
    assertSameProbabilities(restored.completion_probabilities, cold.completion_probabilities);
    await page.context().close();
  });

  test('cache_prompt: false neither saves the context nor reads a saved state', async () => {
    const { page } = await harness.openPage();
    let model = await loadModel(page);
    await complete(page, model, PREFIX, { cache_prompt: false });
    // A save would be listed by now: the same request with the cache saves within this wait.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual(await savedEntries(page), []);
    await complete(page, model, PREFIX);
    const saved = await savedWith(page, PREFIX);

    // The load restores the state used last (and marks it used); a request without the cache
    // does not read it, nor the one in the context.
    model = await reload(page);
    const deadline = Date.now() + 15_000;
    let loaded = await savedEntries(page);
    while ((loaded[0]?.usedAt ?? 0) <= (saved[0]?.usedAt ?? 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      loaded = await savedEntries(page);
    }
    assert.ok((loaded[0]?.usedAt ?? 0) > (saved[0]?.usedAt ?? 0), 'the load restored the saved state');
    const uncached = await complete(page, model, PREFIX, { cache_prompt: false });
    assert.equal(uncached.timings.cache_n, 0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(await savedEntries(page), loaded, 'not read (a read marks the entry used), not rewritten');
    const cached = await complete(page, model, PREFIX);
    assert.ok(cached.timings.cache_n >= PREFIX.length - 1, String(cached.timings.cache_n));
    await page.context().close();
  });
});
