import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { startFakeHf, type FakeHf } from './fake-hf-server';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';
import { startRangeServer, type RangeServer } from './range-server';
import { splitModel, splitSkip } from './split-model';

// Where a model comes from besides one GGUF URL: a model split by llama-gguf-split, loaded by its
// first part's URL (a part missing is a 503 naming it); Hugging Face ids against a fake hub
// (quant tags, the default tag, a split model, the redirect to its CDN); and a file whose bytes
// do not match its publisher's sha256 (refused, then loaded once the right bytes are served).
const MODEL = buildInpageTestModel();
const skip = splitSkip();
const PARTS = skip === null ? splitModel(MODEL, 7) : [];
/** The model with one byte of its last tensor's data changed. */
const CORRUPT = MODEL.slice();
CORRUPT[CORRUPT.length - 100] = (CORRUPT[CORRUPT.length - 100] ?? 0) ^ 0x40;

let harness: Harness;
let files: RangeServer;
let hub: FakeHf;

const partName = (prefix: string, i: number) => `${prefix}-0000${i + 1}-of-00003.gguf`;

before(async () => {
  harness = await startHarness();
  const served: Record<string, Uint8Array> = { '/single.gguf': MODEL };
  for (const [i, part] of PARTS.entries()) {
    served[`/split/${partName('m', i)}`] = part;
    if (i !== 1) served[`/gap/${partName('m', i)}`] = part;
  }
  files = await startRangeServer({ files: served });
  const split: Record<string, Uint8Array> = {};
  for (const [i, part] of PARTS.entries()) split[`Q4_K_M/${partName('big-Q4_K_M', i)}`] = part;
  hub = await startFakeHf({
    repos: {
      'acme/multi': {
        'multi-Q4_K_M.gguf': MODEL,
        'multi-Q8_0.gguf': MODEL,
        'README.md': new TextEncoder().encode('# multi'),
      },
      'acme/split': split,
      'acme/checked': { 'checked-Q8_0.gguf': MODEL },
    },
  });
});

after(async () => {
  await hub?.close();
  await files?.close();
  await harness?.close();
});

async function open(query: string): Promise<Page> {
  const page = await (await harness.browser.newContext()).newPage();
  await page.goto(`${harness.origin}/?${query}`);
  return page;
}

const outcome = (page: Page) =>
  page.evaluate(() =>
    window.inpage.ready.then(
      () => ({ status: 200, code: 'ready', message: '' }),
      (error: { status?: number; code?: string; message: string }) => ({
        status: error.status ?? 0,
        code: error.code ?? '',
        message: error.message,
      }),
    ),
  );

/** The greedy completion of 'abc' with its top-3 logprobs. */
async function answer(page: Page, model: string): Promise<unknown> {
  const response = await postFromPage(page, '/v1/completions', {
    model,
    prompt: 'abc',
    max_tokens: 5,
    temperature: 0,
    logprobs: 3,
  });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  const choice = (response.body as { choices: Array<{ text: string; logprobs: unknown }> }).choices[0];
  assert.equal(choice?.text, 'defgh');
  return choice?.logprobs;
}

const modelUrl = (path: string) => encodeURIComponent(`${files.url}${path}`);

test(
  'a 3-part split model loads by its first URL and answers exactly as the single file does',
  { skip: skip ?? false },
  async () => {
    assert.equal(PARTS.length, 3);
    const single = await open(`model=${modelUrl('/single.gguf')}`);
    assert.deepEqual(await outcome(single), { status: 200, code: 'ready', message: '' });
    const expected = await answer(single, 'single');
    await single.context().close();
    const page = await open(`model=${modelUrl(`/split/${partName('m', 0)}`)}`);
    assert.deepEqual(await outcome(page), { status: 200, code: 'ready', message: '' });
    assert.deepEqual(await answer(page, 'm-00001-of-00003'), expected);
    for (let i = 0; i < 3; i++) assert.equal(files.bytesSent(`/split/${partName('m', i)}`), PARTS[i]?.length);
    await page.context().close();
  },
);

test('a split model with a part missing is a 503 that names the part', { skip: skip ?? false }, async () => {
  const page = await open(`model=${modelUrl(`/gap/${partName('m', 0)}`)}`);
  const { status, code, message } = await outcome(page);
  assert.equal(status, 503, message);
  assert.equal(code, 'model_download_failed');
  assert.match(message, /m-00002-of-00003\.gguf/);
  await page.context().close();
});

test('hf: ids resolve against the hub: a quant tag in any case, the default tag, through the CDN redirect', async () => {
  const tagged = await open(`model=hf:acme/multi:q8_0&hf_endpoint=${encodeURIComponent(hub.endpoint)}`);
  assert.deepEqual(await outcome(tagged), { status: 200, code: 'ready', message: '' });
  await answer(tagged, 'acme/multi:Q8_0');
  assert.ok(hub.cdn.bytesSent(hub.cdnPath('acme/multi', 'multi-Q8_0.gguf')) >= MODEL.length);
  assert.equal(hub.cdn.bytesSent(hub.cdnPath('acme/multi', 'multi-Q4_K_M.gguf')), 0);
  await tagged.context().close();
  const plain = await open(`model=hf:acme/multi&hf_endpoint=${encodeURIComponent(hub.endpoint)}`);
  assert.deepEqual(await outcome(plain), { status: 200, code: 'ready', message: '' });
  await answer(plain, 'acme/multi');
  assert.ok(hub.cdn.bytesSent(hub.cdnPath('acme/multi', 'multi-Q4_K_M.gguf')) >= MODEL.length, 'Q4_K_M by default');
  await plain.context().close();
});

test('an hf: id of a split model loads its parts', { skip: skip ?? false }, async () => {
  const page = await open(`model=hf:acme/split:Q4_K_M&hf_endpoint=${encodeURIComponent(hub.endpoint)}`);
  assert.deepEqual(await outcome(page), { status: 200, code: 'ready', message: '' });
  await answer(page, 'acme/split:Q4_K_M');
  for (let i = 0; i < 3; i++)
    assert.equal(hub.cdn.bytesSent(hub.cdnPath('acme/split', `Q4_K_M/${partName('big-Q4_K_M', i)}`)), PARTS[i]?.length);
  await page.context().close();
});

test('a corrupted byte is refused with model_integrity_failed naming both hashes; the right file then loads', async () => {
  const path = hub.cdnPath('acme/checked', 'checked-Q8_0.gguf');
  const good = hub.cdn.requests.length;
  hub.cdn.replace(path, CORRUPT);
  const query = `model=hf:acme/checked:Q8_0&hf_endpoint=${encodeURIComponent(hub.endpoint)}`;
  const page = await open(query);
  const { status, code, message } = await outcome(page);
  assert.equal(status, 503, message);
  assert.equal(code, 'model_integrity_failed');
  const hashes = message.match(/[0-9a-f]{64}/g) ?? [];
  assert.equal(new Set(hashes).size, 2, message);
  assert.ok(hub.cdn.requests.length > good);
  hub.cdn.replace(path, MODEL);
  await page.reload();
  assert.deepEqual(await outcome(page), { status: 200, code: 'ready', message: '' });
  await answer(page, 'acme/checked:Q8_0');
  await page.context().close();
});

test('a stored hf: model loads offline from the store, asking the hub and its CDN nothing', async () => {
  const page = await open(`model=hf:acme/multi:Q8_0&hf_endpoint=${encodeURIComponent(hub.endpoint)}`);
  assert.deepEqual(await outcome(page), { status: 200, code: 'ready', message: '' });
  const online = await answer(page, 'acme/multi:Q8_0');
  const asked = hub.hub.requests.length + hub.cdn.requests.length;
  await page.context().setOffline(true);
  await page.reload();
  assert.deepEqual(await outcome(page), { status: 200, code: 'ready', message: '' });
  assert.deepEqual(await answer(page, 'acme/multi:Q8_0'), online);
  assert.equal(hub.hub.requests.length + hub.cdn.requests.length, asked, 'nothing was asked offline');
  const stored = await page.evaluate(() => window.inpage.models.list());
  assert.deepEqual(
    stored.map(({ id, bytes, complete }) => ({ id, bytes, complete })),
    [{ id: 'acme/multi:Q8_0', bytes: MODEL.length, complete: true }],
  );
  await page.context().close();
});
