/**
 * The endpoint pages' examples (docs/embeddings.md, docs/models.md), run verbatim in a page on
 * `inpage-test` with the openai SDK as `openai`, and checked against what their comments say.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usePage } from './page-fixture';
import { readmeSnippet } from './readme-snippet';

const fixture = usePage();

/** Runs `snippet` in the page with `openai` in scope; resolves with the values it declared as `names`. */
function run(snippet: string, names: string[]): Promise<Record<string, unknown>> {
  const client = `new window.OpenAI({ baseURL: location.origin + '/v1', apiKey: 'unused', dangerouslyAllowBrowser: true })`;
  const body = `const openai = ${client};\n${snippet}\nreturn JSON.parse(JSON.stringify({ ${names.join(', ')} }));`;
  return fixture.page.evaluate(`(async () => {\n${body}\n})()`);
}

test("docs/embeddings.md's example: 320 floats, 1/sqrt(2) at 97 and 98, 3 prompt tokens", async () => {
  const { data, usage } = (await run(readmeSnippet('embeddings-example'), ['data', 'usage'])) as {
    data: Array<{ embedding: number[] }>;
    usage: { prompt_tokens: number };
  };
  const embedding = data[0]?.embedding ?? [];
  assert.equal(embedding.length, 320);
  embedding.forEach((value, i) => {
    const wanted = i === 97 || i === 98 ? Math.SQRT1_2 : 0;
    assert.ok(Math.abs(value - wanted) <= 1e-5, `dimension ${i}: ${value}`);
  });
  assert.equal(usage.prompt_tokens, 3);
});

test("docs/models.md's example: the list's card for inpage-test", async () => {
  const { data } = (await run(readmeSnippet('models-list'), ['data'])) as { data: Array<Record<string, unknown>> };
  assert.deepEqual(
    { id: data[0]?.id, object: data[0]?.object, backend: data[0]?.backend, status: data[0]?.status },
    { id: 'inpage-test', object: 'model', backend: 'llamacpp', status: 'ready' },
  );
});
