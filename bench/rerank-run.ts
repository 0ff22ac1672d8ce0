/**
 * `npm run bench:rerank`: one rerank request of BENCH_RERANK_DOCS (16) documents through the
 * endpoint (`/v1/rerank`), against native `llama-server --reranking -np 1 -t 1` on the same file,
 * in BENCH_ROUNDS (3) interleaved rounds (llama-server with the KV cache the engine gives this model:
 * F32, flash attention off). The model is Qwen3-Reranker's layout at the bench's
 * `small` shape (width 512, 8 layers, F32, byte vocabulary) with Qwen3-Reranker's own `rerank`
 * template, so every document's prompt opens with the same ~300 tokens (the template's head and
 * the query). Prints the medians (ms per request, documents per second) and their ratio.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { BENCH_SHAPES } from '../test/fixtures/bench-model';
import { buildInpageTestRerankModel } from '../test/fixtures/inpage-test-rerank';
import { startHarness } from '../test/e2e/harness';
import { placeModel, serverSkip, startLlamaServer } from '../test/e2e/llama-server';
import { fmt, median } from './stats';

/** Qwen3-Reranker's template, as llama.cpp's converter writes it (`tokenizer.chat_template.rerank`). */
const QWEN3_RERANK_TEMPLATE =
  '<|im_start|>system\nJudge whether the Document meets the requirements based on the Query and the Instruct provided. ' +
  'Note that the answer can only be "yes" or "no".<|im_end|>\n<|im_start|>user\n<Instruct>: Given a web search query, ' +
  'retrieve relevant passages that answer the query\n<Query>: {query}\n<Document>: {document}<|im_end|>\n' +
  '<|im_start|>assistant\n<think>\n\n</think>\n\n';

const ID = 'bench-rerank-small';
const docs = Number(process.env.BENCH_RERANK_DOCS ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const query = 'which passage says how the engine answers requests inside the page?';
const documents = Array.from(
  { length: docs },
  (_, i) =>
    `Passage ${i}: the service worker intercepts the request, checks it, and hands it to the engine's worker, ` +
    `which runs the model and streams the answer back (variant ${i * 7}).`,
);

const skip = serverSkip();
if (skip) throw new Error(skip);
const bytes = buildInpageTestRerankModel(false, BENCH_SHAPES.small, QWEN3_RERANK_TEMPLATE, ID);
mkdirSync('dist/bench-models', { recursive: true });
writeFileSync(`dist/bench-models/${ID}.gguf`, bytes);
placeModel(ID, bytes);
const native = await startLlamaServer({
  model: ID,
  args: [
    '--reranking',
    '-np',
    '1',
    '-c',
    '4096',
    '--cache-type-k',
    'f32',
    '--cache-type-v',
    'f32',
    '--flash-attn',
    'off',
  ],
});
const harness = await startHarness();
try {
  const { page } = await harness.openPage();
  await page.evaluate((id) => window.inpage.load(`/bench-models/${id}.gguf`), ID);
  const body = { model: ID, query, documents };
  const ask = async (url: string | null) => {
    const started = performance.now();
    const answer =
      url === null
        ? await page.evaluate(async (body) => {
            const response = await fetch('/v1/rerank', { method: 'POST', body: JSON.stringify(body) });
            return (await response.json()) as { usage: { prompt_tokens: number } };
          }, body)
        : ((await (await fetch(url, { method: 'POST', body: JSON.stringify(body) })).json()) as {
            usage: { prompt_tokens: number };
          });
    return { ms: performance.now() - started, tokens: answer.usage.prompt_tokens };
  };
  await ask(null);
  await ask(`http://127.0.0.1:${native.port}/v1/rerank`);
  const own: number[] = [];
  const theirs: number[] = [];
  let tokens = 0;
  for (let round = 0; round < rounds; round++) {
    const a = await ask(null);
    const b = await ask(`http://127.0.0.1:${native.port}/v1/rerank`);
    own.push(a.ms);
    theirs.push(b.ms);
    tokens = a.tokens;
  }
  const [pageMs, nativeMs] = [median(own), median(theirs)];
  console.log(
    `| model | documents | prompt tokens | page ms | native ms (1 thread) | page docs/s | native docs/s | page / native |`,
  );
  console.log(`| --- | --- | --- | --- | --- | --- | --- | --- |`);
  console.log(
    `| ${ID} | ${docs} | ${tokens} | ${fmt(pageMs)} | ${fmt(nativeMs)} | ${fmt((docs * 1000) / pageMs, 2)} | ` +
      `${fmt((docs * 1000) / nativeMs, 2)} | ${fmt(nativeMs / pageMs, 2)}x speed |`,
  );
  console.log(`rounds: page ${own.map(fmt).join(', ')}; native ${theirs.map(fmt).join(', ')}`);
} finally {
  await harness.close();
  await native.stop();
}
