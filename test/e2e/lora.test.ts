/**
 * LoRA adapters (llama-server's `--lora`, `/lora-adapters`, a request's `lora`) against Debian's
 * native `llama-server -m inpage-test.gguf --lora back.gguf --lora-scaled attn.gguf:0.5` on the
 * generated adapters of test/fixtures/inpage-test-lora.ts: `back` adapts the output layer (the
 * alphabet backwards at scale 1, in closed form), `attn` the first block's V and output
 * projections (its output then depends on the context, and its cached V entries on its scale).
 * `/lora-adapters` lists the same adapters; `/completion` and `/v1/chat/completions` at the
 * model's scales and at a request's own give llama-server's tokens, logprobs within 1e-4; scales
 * changed between requests on the same prompt give what a fresh decode gives (a KV cache kept
 * across them would not); `POST /lora-adapters` changes the model's scales on both; bad scales are
 * 400s naming the field. With two slots, requests at other scales sent at once each get their
 * own answer. Part of the llama-server differential: skipped, with what is missing, where the
 * server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright';
import { buildInpageTestLoraAttn, buildInpageTestLoraBack } from '../fixtures/inpage-test-lora';
import { placeFile, serverSkip, startLlamaServer, type LlamaServer } from './llama-server';
import { engineWorker } from './engine-worker-helpers';
import { askBoth, type Json } from './llama-server-compare';
import { assertSameOutput, type NativeOutput } from './native-probabilities';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';
import { loadSdk } from './sdk-scripts';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const MODEL = 'inpage-test-lora';
const single = usePage('/?model=inpage-test', (page) => loadSdk(page, 'openai'));
const slotted = usePage('/?model=inpage-test&slots=2');
let native: LlamaServer | undefined;

/** The model with both adapters, as `startInpage({ lora })` would put it: `back` at 1, `attn` at 0.5. */
async function loadWithAdapters(page: Page): Promise<void> {
  await page.evaluate(async (id) => {
    const url = (name: string) => ({ kind: 'url' as const, url: `${location.origin}/models/${name}.gguf` });
    await window.inpage.load({
      id,
      backend: 'llamacpp',
      source: { kind: 'builtin' },
      lora: [
        { id: 'inpage-test-lora-back', source: url('inpage-test-lora-back'), scale: 1 },
        { id: 'inpage-test-lora-attn', source: url('inpage-test-lora-attn'), scale: 0.5 },
      ],
    });
  }, MODEL);
}

const completion = (prompt: string, extra: Json = {}): Json => ({
  prompt,
  n_predict: 8,
  temperature: 0,
  n_probs: 2,
  return_tokens: true,
  ...extra,
});

/** The page's `/completion` and llama-server's: the same tokens, logprobs within 1e-4. */
async function sameCompletion(page: Page, body: Json, label: string): Promise<NativeOutput> {
  if (!native) throw new Error('llama-server starts in before()');
  const answer = await askBoth(page, native, 'POST', '/completion', { ...body, model: MODEL });
  assert.equal(answer.own.status, 200, `${label}: ${answer.ownText.slice(0, 300)}`);
  assert.equal(answer.native.status, 200, `${label}: ${answer.nativeText.slice(0, 300)}`);
  const own = answer.own.body as NativeOutput;
  assertSameOutput(own, answer.native.body as NativeOutput, label);
  return own;
}

/** A request to the page's endpoint with `?model=`: status and parsed body. */
async function pageFetch(page: Page, method: 'GET' | 'POST', path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const init = body === undefined ? { method } : { method, body: JSON.stringify(body) };
      const response = await fetch(path, init);
      return { status: response.status, body: (await response.json()) as unknown };
    },
    { method, path: `${path}?model=${MODEL}`, body },
  );
}

describe('LoRA adapters against native llama-server --lora', { skip: skip ?? false }, () => {
  before(async () => {
    const back = placeFile('inpage-test-lora-back.gguf', buildInpageTestLoraBack());
    const attn = placeFile('inpage-test-lora-attn.gguf', buildInpageTestLoraAttn());
    // One slot, the F32 KV cache and attention the page's engine gives this model (native/attention.cpp).
    // No host-memory prompt cache (`--cache-ram 0`): llama-server restores a state saved at other
    // scales for a prompt it saw (the first logprob after POST /lora-adapters was 0.01 off).
    const args = ['-np', '1', '-c', '4096', '-ctk', 'f32', '-ctv', 'f32', '--flash-attn', 'off', '--cache-ram', '0'];
    native = await startLlamaServer({ args: [...args, '--lora', back, '--lora-scaled', `${attn}:0.5`] });
    await loadWithAdapters(single.page);
  });
  after(async () => {
    await native?.stop();
  });

  test('GET /lora-adapters lists the adapters as llama-server does (path: where each came from)', async () => {
    if (!native) throw new Error('llama-server starts in before()');
    const answer = await askBoth(single.page, native, 'GET', '/lora-adapters', undefined, MODEL);
    assert.equal(answer.own.status, 200, answer.ownText);
    const strip = (list: unknown) =>
      (list as Json[]).map(({ path, ...rest }) => ({ ...rest, file: String(path).split('/').pop() }));
    assert.deepEqual(strip(answer.own.body), strip(answer.native.body));
    assert.deepEqual(
      (answer.own.body as Json[]).map(({ task_name, prompt_prefix, scale }) => ({ task_name, prompt_prefix, scale })),
      [
        { task_name: 'backwards', prompt_prefix: 'Backwards: ', scale: 1 },
        { task_name: 'attention', prompt_prefix: '', scale: 0.5 },
      ],
    );
    const none = await single.page.evaluate(async () => (await fetch('/lora-adapters?model=inpage-test')).json());
    assert.deepEqual(none, []);
  });

  test("/completion at the model's scales and at a request's own: llama-server's tokens and logprobs", async () => {
    const cases: Array<[string, Json]> = [
      ["the model's (back 1, attn 0.5)", {}],
      ['back at 0.25 (attn 0)', { lora: [{ id: 0, scale: 0.25 }] }],
      ['attn at 1 (back 0)', { lora: [{ id: 1, scale: 1 }] }],
      [
        'back 1, attn -0.5',
        {
          lora: [
            { id: 0, scale: 1 },
            { id: 1, scale: -0.5 },
          ],
        },
      ],
      ['both off', { lora: [{ id: 0, scale: 0 }] }],
    ];
    for (const [label, extra] of cases) await sameCompletion(single.page, completion('Hello abcd', extra), label);
  });

  test('the backwards adapter writes the alphabet backwards at scale 1, forwards at 0.25 (closed form)', async () => {
    const at = async (scale: number) =>
      (
        await sameCompletion(
          single.page,
          completion('abcd', { n_predict: 6, lora: [{ id: 0, scale }] }),
          `back ${scale}`,
        )
      ).content;
    assert.equal(await at(1), 'cbazyx');
    assert.equal(await at(0.25), 'efghij');
  });

  test('scales changed between requests on one prompt: each answer is a fresh decode at its scales', async () => {
    const prompt = 'The cat sat on the mat. abc';
    for (const scale of [0, 1, 0, 0.5, 0.5])
      await sameCompletion(single.page, completion(prompt, { lora: [{ id: 1, scale }] }), `attn ${scale}`);
  });

  test("/v1/chat/completions through the OpenAI SDK with `lora` (an extra body field): llama-server's answer", async () => {
    if (!native) throw new Error('llama-server starts in before()');
    const request = {
      model: MODEL,
      messages: [{ role: 'user', content: 'xyz abc' }],
      max_tokens: 6,
      temperature: 0,
      lora: [{ id: 0, scale: 1 }],
    };
    const own = await single.page.evaluate(async (body) => {
      const client = new window.OpenAI({
        baseURL: `${location.origin}/v1`,
        apiKey: 'x',
        dangerouslyAllowBrowser: true,
      });
      const answer = await client.chat.completions.create(
        body as unknown as Parameters<typeof client.chat.completions.create>[0],
      );
      return 'choices' in answer ? answer.choices[0]?.message.content : null;
    }, request);
    const theirs = (await (
      await fetch(`${native.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify(request) })
    ).json()) as { choices: Array<{ message: { content: string } }> };
    assert.equal(own, theirs.choices[0]?.message.content);
    assert.equal(own, 'bazyxw');
  });

  test("POST /lora-adapters sets the model's scales on both (the others 0); GET says so", async () => {
    if (!native) throw new Error('llama-server starts in before()');
    const post = async (body: unknown) => {
      const theirs = await fetch(`http://127.0.0.1:${native?.port}/lora-adapters`, {
        method: 'POST',
        body: JSON.stringify(body),
      });
      assert.equal(theirs.status, 200);
      const own = await pageFetch(single.page, 'POST', '/lora-adapters', body);
      assert.equal(own.status, 200, JSON.stringify(own.body));
      assert.deepEqual(own.body, await theirs.json());
    };
    try {
      await post([{ id: 1, scale: 1 }]);
      const listed = await pageFetch(single.page, 'GET', '/lora-adapters');
      assert.deepEqual(
        (listed.body as Json[]).map((adapter) => adapter.scale),
        [0, 1],
      );
      const now = await sameCompletion(single.page, completion('Hello abcd'), 'after POST: attn 1');
      const asked = await sameCompletion(
        single.page,
        completion('Hello abcd', { lora: [{ id: 1, scale: 1 }] }),
        'asked',
      );
      assert.deepEqual(now.completion_probabilities, asked.completion_probabilities);
    } finally {
      await post([
        { id: 0, scale: 1 },
        { id: 1, scale: 0.5 },
      ]);
    }
  });

  test('POSTed scales outlive a crash: the restarted engine loads the model at them (as llama-server keeps them)', async () => {
    const { page } = single;
    const asked = await sameCompletion(page, completion('Hello abcd', { lora: [{ id: 1, scale: 1 }] }), 'asked');
    // Both sides at the new scales: llama-server keeps them until it stops.
    const set = async (body: unknown) => {
      const theirs = await fetch(`http://127.0.0.1:${native?.port}/lora-adapters`, {
        method: 'POST',
        body: JSON.stringify(body),
      });
      assert.equal(theirs.status, 200);
      return pageFetch(page, 'POST', '/lora-adapters', body);
    };
    try {
      assert.equal((await set([{ id: 1, scale: 1 }])).status, 200);
      // The GET goes once the page saw the crash, while the new engine loads the models again:
      // the SW holds it for the model that is reloading (it was a 404 then).
      type Listed = { status: number; body: unknown };
      await page.evaluate((model) => {
        const { inpage } = window;
        const restarted = new Promise((resolve) => inpage.addEventListener('restart', resolve, { once: true }));
        const crashed = new Promise((resolve) => inpage.addEventListener('crash', resolve, { once: true }));
        const during = crashed.then(async (): Promise<Listed> => {
          // The SW may take the GET before the page's word of the crash: it then went to the
          // dead worker, and ends with a 503 ("The engine crashed ...: send the request again").
          for (let tries = 1; ; tries++) {
            const response = await fetch(`/lora-adapters?model=${model}`);
            const body: unknown = await response.json();
            if (response.status === 503 && JSON.stringify(body).includes('engine crashed') && tries < 5) continue;
            await restarted;
            return { status: response.status, body };
          }
        });
        Reflect.set(window, 'loraDuringRestart', during);
      }, MODEL);
      const before = await engineWorker(page);
      await before.evaluate(() => setTimeout(() => self.close(), 0));
      const listed = await page.evaluate(() => Reflect.get(window, 'loraDuringRestart') as Promise<Listed>);
      assert.notEqual(await engineWorker(page), before, 'a new engine worker serves');
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(
        (listed.body as Json[]).map((adapter) => adapter.scale),
        [0, 1],
      );
      const now = await sameCompletion(page, completion('Hello abcd'), 'after the restart: attn 1');
      assert.deepEqual(now.completion_probabilities, asked.completion_probabilities);
    } finally {
      await set([
        { id: 0, scale: 1 },
        { id: 1, scale: 0.5 },
      ]);
    }
  });

  test('bad scales are 400s naming the field; a model without adapters refuses them', async () => {
    // llama-server's error JSON has no `param`: the message names it.
    const refused = async (model: string, body: Json, param: string) => {
      const answer = await postFromPage(single.page, '/completion', { model, prompt: 'abc', n_predict: 1, ...body });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.match(
        String(((answer.body as Json).error as Json).message),
        new RegExp(`'${param}`),
        JSON.stringify(answer.body),
      );
    };
    await refused(MODEL, { lora: [{ id: 2, scale: 1 }] }, 'lora');
    await refused(MODEL, { lora: { id: 0, scale: 1 } }, 'lora');
    await refused(MODEL, { lora: [{ id: 0 }] }, 'lora');
    await refused(MODEL, { lora: [{ id: -1, scale: 1 }] }, 'lora');
    await refused('inpage-test', { lora: [{ id: 0, scale: 1 }] }, 'lora');
    const chat = await postFromPage(single.page, '/v1/chat/completions', {
      model: MODEL,
      messages: [{ role: 'user', content: 'a' }],
      lora: [{ id: 9, scale: 1 }],
    });
    assert.equal(chat.status, 400);
    assert.equal(((chat.body as Json).error as Json).param, 'lora');
    const notArray = await pageFetch(single.page, 'POST', '/lora-adapters', { id: 0, scale: 1 });
    assert.equal(notArray.status, 400);
    assert.equal(((notArray.body as Json).error as Json).message, 'Request body must be an array');
    const unknown = await pageFetch(single.page, 'POST', '/lora-adapters', [{ id: 7, scale: 1 }]);
    assert.equal(unknown.status, 400);
    assert.match(String(((unknown.body as Json).error as Json).message), /^'id' names LoRA adapter 7/);
    // Still the model's scales after the refusals. Without llama-server's cache: its slot keeps the
    // cells of the last request (at other scales) for a request that names none (4e-4 off here).
    await sameCompletion(single.page, completion('Hello abcd', { cache_prompt: false }), 'after the 400s');
  });

  test('two slots: requests at other scales sent at once each get their own answer', async () => {
    await loadWithAdapters(slotted.page);
    const bodies = [
      completion('Hello abcd', { lora: [{ id: 0, scale: 1 }] }),
      completion('Hello abcd', { lora: [{ id: 1, scale: 1 }] }),
      completion('Hello abcd'),
      completion('Hello abcd', { lora: [{ id: 0, scale: 1 }] }),
    ].map((body) => ({ ...body, model: MODEL }));
    const alone: NativeOutput[] = [];
    for (const body of bodies) alone.push((await postFromPage(slotted.page, '/completion', body)).body as NativeOutput);
    const together = await Promise.all(bodies.map((body) => postFromPage(slotted.page, '/completion', body)));
    together.forEach((answer, i) => {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assertSameOutput(answer.body as NativeOutput, alone[i] as NativeOutput, `request ${i}`);
    });
    assert.equal(alone[0]?.content.slice(0, 3), 'cba');
    assert.notEqual(alone[1]?.content, alone[0]?.content);
  });
});

describe('LoRA adapters that do not fit', () => {
  /** The load's error message, or null where it loaded. */
  const loadError = (model: { id: string; url: string }, adapter: string) =>
    single.page.evaluate(
      async ({ model, adapter }) => {
        try {
          await window.inpage.load({
            id: model.id,
            backend: 'llamacpp',
            source: { kind: 'url', url: `${location.origin}${model.url}` },
            lora: [
              { id: adapter, source: { kind: 'url', url: `${location.origin}/models/${adapter}.gguf` }, scale: 1 },
            ],
          });
          return null;
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        }
      },
      { model, adapter },
    );

  test('a file that is not an adapter, and an adapter for another model: the load fails, naming both, with the reason', async () => {
    const qwen3 = { id: 'qwen3-with-lora', url: '/models/inpage-test-qwen3.gguf' };
    assert.match(
      String(await loadError(qwen3, 'inpage-test-bert')),
      /The LoRA adapter 'inpage-test-bert' cannot be loaded for 'qwen3-with-lora': it is not an adapter: its general.type is/,
    );
    assert.match(
      String(await loadError(qwen3, 'inpage-test-lora-back')),
      /The LoRA adapter 'inpage-test-lora-back' cannot be loaded for 'qwen3-with-lora': model arch and LoRA arch mismatch/,
    );
    // The page's engine goes on: the built-in model still answers.
    const answer = await postFromPage(single.page, '/v1/completions', {
      model: 'inpage-test',
      prompt: 'abc',
      max_tokens: 3,
    });
    assert.equal(answer.status, 200);
  });
});
