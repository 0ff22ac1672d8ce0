/**
 * `GET /v1/models`' llama-server fields against Debian's native `llama-server` 0.7.0 on the same
 * GGUFs: `meta` (vocabulary type, vocabulary, contexts, width, parameters, bytes and the
 * quantization's name, a guessed one included) and `architecture` (`image` among the inputs of a
 * model with a vision projector; llama-server also lists `video`, which no route here takes); and
 * a model trained on 512 tokens, whose requests' context stops there on both. Part of the llama-server differential: skipped, with what is
 * missing, where the server's chroot cannot be made.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { writeGguf, type GgufFileSpec } from '../../src/builtin-model/gguf-writer';
import { benchModelSpec, buildBenchModel } from '../fixtures/bench-model';
import { buildInpageTestVisionModel, buildInpageTestVisionProjector } from '../fixtures/inpage-test-vision';
import { placeModel, serverSkip, startLlamaServer, startMmprojServer, type LlamaServer } from './llama-server';
import { askBoth, pick, type Json } from './llama-server-compare';
import { usePage } from './page-fixture';

const skip = serverSkip();
if (skip) console.log(`# skipped: ${skip}`);

const DIR = 'dist/test-models-meta';
const fixture = usePage('/?model=inpage-test-vision');
const TINY = { nEmbd: 64, nLayer: 2, nFf: 128, nHead: 2 };

const withoutFileType = (spec: GgufFileSpec) =>
  writeGguf({ ...spec, metadata: spec.metadata.filter((kv) => kv.key !== 'general.file_type') });

/** Our card of `id` and llama-server's one model, from `GET /v1/models`. */
async function both(server: LlamaServer, id: string): Promise<[Json, Json]> {
  const own = (await fixture.page.evaluate(
    async (model) => (await fetch(`/v1/models/${encodeURIComponent(model)}`)).json(),
    id,
  )) as Json;
  const native = ((await (await fetch(`${server.baseURL}/models`)).json()) as { data: Json[] }).data[0] ?? {};
  return [own, native];
}

describe("GET /v1/models' meta and architecture against native llama-server", { skip: skip ?? false }, () => {
  before(() => mkdir(DIR, { recursive: true }));
  after(() => rm(DIR, { recursive: true, force: true }));

  const cases: Array<{ name: string; bytes: () => Promise<Uint8Array> }> = [
    {
      name: 'inpage-test-qwen3',
      bytes: async () => new Uint8Array(await readFile('dist/models/inpage-test-qwen3.gguf')),
    },
    { name: 'tiny-q4_0', bytes: () => Promise.resolve(buildBenchModel(TINY, 'q4_0')) },
    { name: 'tiny-q8_0', bytes: () => Promise.resolve(buildBenchModel(TINY, 'q8_0')) },
    // No general.file_type: llama.cpp guesses it from the type most tensors have.
    { name: 'tiny-q8_0-unnamed', bytes: () => Promise.resolve(withoutFileType(benchModelSpec(TINY, 'q8_0'))) },
  ];
  for (const { name, bytes } of cases) {
    test(`${name}: the same meta, text in and out`, async () => {
      const file = await bytes();
      placeModel(name, file);
      await writeFile(`${DIR}/${name}.gguf`, file);
      const card = await fixture.page.evaluate((url) => window.inpage.load(url), `/test-models-meta/${name}.gguf`);
      // Served under the page's name (`--alias`): llama-server lists it as its id and alias.
      const server = await startLlamaServer({ model: name, args: ['--alias', card.id] });
      try {
        const [own, native] = await both(server, card.id);
        const names = (entry: Json) => [entry.id, entry.aliases, entry.tags];
        assert.deepEqual(names(own), names(native));
        assert.deepEqual(names(own), [card.id, [card.id], []]);
        assert.deepEqual(own.meta, native.meta);
        if (name.endsWith('unnamed')) assert.match(String((own.meta as Json).ftype), /^\(guessed\) /);
        assert.deepEqual(own.architecture, native.architecture);
        assert.deepEqual(own.architecture, { input_modalities: ['text'], output_modalities: ['text'] });
      } finally {
        await server.stop();
      }
    });
  }

  test("a model trained on 512 tokens: a request's context stops there, as llama-server's slots do", async () => {
    const spec = benchModelSpec(TINY, 'f32');
    const file = writeGguf({
      ...spec,
      metadata: spec.metadata.map((kv) =>
        kv.key === 'llama.context_length' ? { key: kv.key, value: { type: 'uint32' as const, value: 512 } } : kv,
      ),
    });
    placeModel('ctx512', file);
    await writeFile(`${DIR}/ctx512.gguf`, file);
    const card = await fixture.page.evaluate((url) => window.inpage.load(url), '/test-models-meta/ctx512.gguf');
    assert.equal(card.context_length, 512);
    const server = await startLlamaServer({ model: 'ctx512' });
    try {
      const [own, native] = await both(server, card.id);
      assert.deepEqual(own.meta, native.meta);
      assert.equal((own.meta as Json).n_ctx, 512);
      const props = await askBoth(fixture.page, server, 'GET', '/props', undefined, card.id);
      const nCtx = (body: unknown) => ((body as Json).default_generation_settings as Json).n_ctx;
      assert.deepEqual([nCtx(props.own.body), nCtx(props.native.body)], [512, 512]);
      // 700 tokens: over the context on both; 500 and 100 more: both stop at the context's end.
      const long = await askBoth(
        fixture.page,
        server,
        'POST',
        '/completion',
        { prompt: 'a'.repeat(700), n_predict: 2 },
        card.id,
      );
      assert.deepEqual([long.own.status, long.native.status], [400, 400]);
      const body = { prompt: 'a'.repeat(500), n_predict: 100, temperature: 0 };
      const end = await askBoth(fixture.page, server, 'POST', '/completion', body, card.id);
      const fields = (answer: unknown) => pick(answer, ['tokens_predicted', 'stop_type', 'truncated']);
      assert.deepEqual(fields(end.own.body), fields(end.native.body));
      assert.deepEqual(fields(end.own.body), { tokens_predicted: 12, stop_type: 'limit', truncated: true });
    } finally {
      await server.stop();
    }
  });

  test("more names (llama-server's --alias id,x-b,x-c): listed as aliases, a request naming one answered under the id", async () => {
    const name = 'tiny-aliased';
    const file = buildBenchModel(TINY, 'q8_0');
    placeModel(name, file);
    await writeFile(`${DIR}/${name}.gguf`, file);
    await fixture.page.evaluate(
      (id) =>
        window.inpage.load({
          id,
          backend: 'llamacpp',
          source: { kind: 'url', url: `${location.origin}/test-models-meta/${id}.gguf` },
          aliases: ['x-c', 'x-b', id],
        }),
      name,
    );
    // llama-server keeps its aliases in a set (sorted) and serves under the first: here the id.
    const server = await startLlamaServer({ model: name, args: ['--alias', `x-c,${name},x-b`] });
    try {
      const [own, native] = await both(server, name);
      const names = (entry: Json) => [entry.id, entry.aliases];
      assert.deepEqual(names(own), names(native));
      assert.deepEqual(names(own), [name, [name, 'x-b', 'x-c']]);
      const body = { model: 'x-c', prompt: 'abc', max_tokens: 3, temperature: 0 };
      const answer = await askBoth(fixture.page, server, 'POST', '/v1/completions', body, 'x-c');
      assert.equal(answer.own.status, 200, answer.ownText);
      const fields = (reply: unknown) => [pick(reply, ['model']), (reply as { choices: Json[] }).choices[0]?.text];
      assert.deepEqual(fields(answer.own.body), fields(answer.native.body));
      assert.deepEqual(fields(answer.own.body)[0], { model: name });
      // A mixed prompt, which the SW has the model's engine tokenize (naming the model by its id).
      const mixed = { prompt: ['ab', 5], n_predict: 2, temperature: 0 };
      const tokenized = await askBoth(fixture.page, server, 'POST', '/completion', mixed, 'x-b');
      assert.equal(tokenized.own.status, 200, tokenized.ownText);
      assert.deepEqual(pick(tokenized.own.body, ['content']), pick(tokenized.native.body, ['content']));
      // llama.cpp's own routes too: its slots, asked by an alias.
      const slots = await fixture.page.evaluate(async () => (await fetch('/slots?model=x-b')).status);
      assert.equal(slots, 200);
    } finally {
      await server.stop();
    }
  });

  test('inpage-test-vision with its projector: the same meta, image among the inputs', async () => {
    const server = await startMmprojServer(
      'inpage-test-vision',
      buildInpageTestVisionModel(),
      buildInpageTestVisionProjector(),
    );
    try {
      const [own, native] = await both(server, 'inpage-test-vision');
      assert.deepEqual(own.meta, native.meta);
      // llama-server 0.7.0 adds `video` with a vision projector; no route here takes video.
      assert.deepEqual(native.architecture, {
        input_modalities: ['text', 'image', 'video'],
        output_modalities: ['text'],
      });
      assert.deepEqual(own.architecture, { input_modalities: ['text', 'image'], output_modalities: ['text'] });
    } finally {
      await server.stop();
    }
  });
});
