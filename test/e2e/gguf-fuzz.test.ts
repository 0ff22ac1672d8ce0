/**
 * The GGUF fuzzer's browser tier: mutants of both test models (test/fixtures/gguf-mutants.ts),
 * served by the test server and loaded by URL through the real runtime, Service Worker and
 * engine. Every mutant the validator accepts (the dangerous ones: they reach llama.cpp) and a
 * sample of refused ones, one per mutation kind. Each: `inpage.load` answers (a card, or a 503
 * with a message), a request for it answers 200 or a 4xx/503 with a message (never a 500), the
 * page stays alive, and the page's good model still answers exactly. Failing cases print the
 * master seed, id and mutation (`GGUF_FUZZ_SEED=<seed>` reproduces the set); the end prints the counts.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { GgufError } from '../../src/gguf/gguf-error';
import { validateGguf } from '../../src/gguf/validate-gguf';
import { ggufMutants, masterSeed, type Mutant } from '../fixtures/gguf-mutants';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';

const DIR = 'dist/test-models/fuzz';
const PER_PAGE = 20;
const seed = masterSeed();

let harness: Harness;
const cases: { mutant: Mutant; accepted: boolean }[] = [];

before(async () => {
  const qwen3 = new Uint8Array(await readFile('dist/models/inpage-test-qwen3.gguf'));
  const mutants = [
    ...ggufMutants('inpage-test', buildInpageTestModel(), seed, 10),
    ...ggufMutants('inpage-test-qwen3', qwen3, seed, 1),
  ];
  const sampled = new Set<string>();
  // Refused files: one per kind of the small model, and each HTML body (the magic check must
  // name it); of the 25 MB qwen3 model, every fifth kind.
  const wanted = (mutant: Mutant, kind: string) =>
    mutant.base === 'inpage-test'
      ? !sampled.has(kind) || (mutant.mutation.includes('HTML') && !sampled.has(mutant.mutation))
      : !sampled.has(kind) && sampled.size % 5 === 0;
  for (const mutant of mutants) {
    const accepted = await validateGguf(mutant.blob()).then(
      () => true,
      (error: unknown) => {
        if (error instanceof GgufError) return false;
        throw error;
      },
    );
    const kind = `${mutant.base} ${mutant.mutation.split(':')[0]}`;
    if (accepted) cases.push({ mutant, accepted });
    else if (wanted(mutant, kind)) {
      sampled.add(kind);
      sampled.add(mutant.mutation);
      cases.push({ mutant, accepted });
    }
  }
  await mkdir(DIR, { recursive: true });
  harness = await startHarness();
});

after(async () => {
  await harness.close();
  await rm(DIR, { recursive: true, force: true });
});

interface LoadResult {
  ok: boolean;
  message: string;
  status: number | null;
  code: string | null;
}

/** `inpage.load(url)` in the page: the card's status, or the error's message, status and code. */
function loadInPage(page: Page, url: string): Promise<LoadResult> {
  return page.evaluate(async (url) => {
    try {
      const card = await window.inpage.load(url);
      return { ok: card.status === 'ready', message: card.error ?? '', status: null, code: card.error_code ?? null };
    } catch (error) {
      const field = (name: string): unknown => (typeof error === 'object' && error ? Reflect.get(error, name) : null);
      const status = field('status');
      const code = field('code');
      return {
        ok: false,
        message: String(field('message') ?? error),
        status: typeof status === 'number' ? status : null,
        code: typeof code === 'string' ? code : null,
      };
    }
  }, url);
}

test('mutated GGUFs through the real endpoint: a clear answer each, the page alive, the good model exact', async () => {
  const counts = new Map<string, number>();
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const started = performance.now();
  for (let from = 0; from < cases.length; from += PER_PAGE) {
    const { page, context } = await harness.openPage('/?model=inpage-test');
    for (const { mutant, accepted } of cases.slice(from, from + PER_PAGE)) {
      const where = `GGUF_FUZZ_SEED=${seed} ${mutant.id} (seed ${mutant.seed}): ${mutant.mutation}`;
      const name = `fuzz-${mutant.id.replace('#', '-')}`;
      await writeFile(`${DIR}/${name}.gguf`, new Uint8Array(await mutant.blob().arrayBuffer()));
      const load = await loadInPage(page, `/test-models/fuzz/${name}.gguf`);
      if (!load.ok) {
        assert.match(load.message, /\w{3}.*\w{3}/, `${where}: load failed without a message`);
        assert.equal(load.status ?? 503, 503, `${where}: ${load.message}`);
        // A header that claims more than the engine holds, served without a length, is refused as too large before the rest arrives.
        if (!accepted)
          assert.ok(
            load.code === 'model_load_failed' || load.code === 'model_too_large',
            `${where}: ${load.code}: ${load.message}`,
          );
        if (mutant.mutation.includes('HTML')) assert.match(load.message, /looks like an HTML page/, where);
      }
      const answer = await postFromPage(page, '/v1/completions', {
        model: name,
        prompt: 'abc',
        max_tokens: 3,
        temperature: 0,
      });
      const error = (answer.body as { error?: { message?: string; code?: string } }).error;
      if (answer.status === 200) assert.ok(load.ok, `${where}: 200 for a model that did not load`);
      else {
        assert.ok(
          (answer.status >= 400 && answer.status < 500) || answer.status === 503,
          `${where}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`,
        );
        assert.ok((error?.message ?? '').length > 10, `${where}: no message`);
        // A file the validator let through must not crash the engine: that is a check missing.
        assert.notEqual(error?.code, 'engine_crashed', `${where}: ${error?.message}`);
      }
      if (accepted && answer.status !== 200)
        console.log(`${where}: accepted, then HTTP ${answer.status}: ${error?.message ?? load.message}`);
      count(
        `${accepted ? 'accepted' : 'refused'} by the validator, ${load.ok ? 'loaded' : 'not loaded'}, HTTP ${answer.status}`,
      );
      const good = await postFromPage(page, '/v1/completions', {
        model: 'inpage-test',
        prompt: 'abc',
        max_tokens: 5,
        temperature: 0,
      });
      assert.equal(good.status, 200, `${where}: the good model then answered ${good.status}`);
      assert.equal((good.body as { choices: { text: string }[] }).choices[0]?.text, 'defgh', where);
      await rm(`${DIR}/${name}.gguf`);
    }
    await context.close();
  }
  const accepted = cases.filter((entry) => entry.accepted).length;
  console.log(
    `GGUF fuzz in the browser (seed ${seed}): ${cases.length} files (${accepted} accepted by the validator) in ${Math.round((performance.now() - started) / 1000)} s`,
    Object.fromEntries(counts),
  );
  assert.ok(accepted > 0 && cases.length > accepted, 'both accepted and refused files were tried');
  assert.ok(
    cases.some(({ mutant }) => mutant.mutation.includes('HTML')),
    'an HTML body was tried',
  );
});
