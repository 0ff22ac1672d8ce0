/**
 * `npm run bench:embeddings`: `/v1/embeddings` on a BERT embedder of bge-small's shape (width 384,
 * 12 layers, F32, a WordPiece vocabulary: test/fixtures/inpage-test-bert.ts), one request of
 * BENCH_EMBED_SHORT (32) short inputs (~22 tokens) and one of BENCH_EMBED_LONG (4) long ones (~320
 * tokens), against native `llama-server --embedding -t 1` on the same file at one slot (each input
 * decoded alone) and at 16 (several in one batch), in BENCH_ROUNDS (3) interleaved rounds. An
 * encoder's inputs go several to a decode here (input-batches.ts). Prints the medians (ms per
 * request) and the page's speed against each.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildInpageTestBertModel } from '../test/fixtures/inpage-test-bert';
import { startHarness } from '../test/e2e/harness';
import { placeModel, serverSkip, startLlamaServer } from '../test/e2e/llama-server';
import { fmt, median } from './stats';

const ID = 'bench-bert-small';
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const WORDS = 'the cat is blue what does the sky eat meat food cats'.split(' ');
const text = (i: number, words: number) =>
  Array.from({ length: words }, (_, k) => WORDS[(i + k) % WORDS.length]).join(' ');
const requests = {
  short: Array.from({ length: Number(process.env.BENCH_EMBED_SHORT ?? 32) }, (_, i) => text(i, 20)),
  long: Array.from({ length: Number(process.env.BENCH_EMBED_LONG ?? 4) }, (_, i) => text(i, 320)),
};

const skip = serverSkip();
if (skip) throw new Error(skip);
const bytes = buildInpageTestBertModel(false, { nEmbd: 384, nLayer: 12, nFf: 1536, nHead: 12 });
mkdirSync('dist/bench-models', { recursive: true });
writeFileSync(`dist/bench-models/${ID}.gguf`, bytes);
placeModel(ID, bytes);
// 512 tokens per slot (BERT's positions), F32 attention as the page's engine has it for this model.
const server = (slots: number) =>
  startLlamaServer({
    model: ID,
    args: [
      '--embedding',
      '-np',
      String(slots),
      '-c',
      String(512 * slots),
      '--flash-attn',
      'off',
      '-ub',
      '512',
      '-b',
      '512',
    ],
  });
const natives = { 'native -np 1': await server(1), 'native -np 16': await server(16) };
const harness = await startHarness();
try {
  const { page } = await harness.openPage();
  const card = await page.evaluate((id) => window.inpage.load(`/bench-models/${id}.gguf`), ID);
  console.log(`page: threads ${JSON.stringify(card.threads)}; native: -t 1`);
  const ask = async (url: string | null, input: string[]) => {
    const body = { model: ID, input };
    const started = performance.now();
    const tokens =
      url === null
        ? await page.evaluate(async (body) => {
            const response = await fetch('/v1/embeddings', { method: 'POST', body: JSON.stringify(body) });
            return ((await response.json()) as { usage: { prompt_tokens: number } }).usage.prompt_tokens;
          }, body)
        : (
            (await (await fetch(url, { method: 'POST', body: JSON.stringify(body) })).json()) as {
              usage: { prompt_tokens: number };
            }
          ).usage.prompt_tokens;
    return { ms: performance.now() - started, tokens };
  };
  console.log(
    '| request | inputs | tokens | page ms | native -np 1 ms | native -np 16 ms | page / -np 1 | page / -np 16 |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, input] of Object.entries(requests)) {
    const times: Record<string, number[]> = { page: [] };
    let tokens = 0;
    await ask(null, input);
    for (let round = 0; round < rounds; round++) {
      const own = await ask(null, input);
      times.page?.push(own.ms);
      tokens = own.tokens;
      for (const [label, native] of Object.entries(natives)) {
        const theirs = await ask(`http://127.0.0.1:${native.port}/v1/embeddings`, input);
        (times[label] ??= []).push(theirs.ms);
      }
    }
    const [page = NaN, one = NaN, sixteen = NaN] = ['page', 'native -np 1', 'native -np 16'].map((label) =>
      median(times[label] ?? []),
    );
    console.log(
      `| ${name} | ${input.length} | ${tokens} | ${fmt(page)} | ${fmt(one)} | ${fmt(sixteen)} | ` +
        `${fmt(one / page, 2)}x speed | ${fmt(sixteen / page, 2)}x speed |`,
    );
  }
} finally {
  await harness.close();
  await Promise.all(Object.values(natives).map((native) => native.stop()));
}
