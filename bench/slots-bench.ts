/**
 * Slots (docs/slots.md): total decode tok/s of N concurrent greedy streams, through the page
 * (`&slots=N`, N streams of `/completion` at once) and through Debian's `llama-server -np N` (a KV
 * cache stream per slot, as the page's) on the same GGUF and threads, each against its own one
 * stream in the same run; and native llama.cpp's `llama-batched-bench` on the same (bench/batched-bench.ts:
 * the kernels alone, no server or sampling around them).
 * A stream is a short distinct prompt and a fixed number of tokens (`ignore_eos`, ASCII only);
 * its rate is the tokens of all streams over the wall time from the first request to the last
 * answer (the prompts are a dozen tokens: prefill is a small part of it). Rounds alternate page
 * and server. Every page stream must give the tokens it gives alone: a difference is reported.
 */
import type { Page } from 'playwright';
import type { Harness } from '../test/e2e/harness';
import type { LlamaServer } from '../test/e2e/llama-server';
import type { BenchModel } from './bench-models';
import { nativeBatched } from './batched-bench';
import { ASCII_ONLY, benchPrompt, WARM_TOKENS } from './prompts';
import { fmt, median } from './stats';

const STARTS = [
  'Once upon a time',
  'In the beginning',
  'It was a dark and',
  'The year was 1984,',
  'Dear diary, today',
  'Step one: take the',
  'Call me Ishmael. ',
  'All happy families',
];

export interface SlotsRow {
  model: string;
  threads: number;
  streams: number;
  page: number[];
  server: number[];
  /** llama-batched-bench's total decode tok/s of as many sequences (bench/batched-bench.ts). */
  batched: number;
  /** Streams whose batched tokens differed from the same request alone (must be 0). */
  differing: number;
}

interface Answer {
  tokens: number[];
  tokens_predicted: number;
}

const body = (model: string, stream: number, tokens: number, speculative: string | null) => ({
  ...(speculative ? { 'speculative.type': speculative } : {}),
  model,
  prompt: STARTS[stream % STARTS.length],
  n_predict: tokens,
  ignore_eos: true,
  temperature: 0,
  logit_bias: ASCII_ONLY,
  cache_prompt: false,
  return_tokens: true,
});

/** N requests at once from the page; total tokens per second and each answer. */
function inPage(page: Page, bodies: Array<Record<string, unknown>>): Promise<{ perSecond: number; answers: Answer[] }> {
  return page.evaluate(async (bodies) => {
    const started = performance.now();
    const answers = await Promise.all(
      bodies.map(async (body) => {
        const response = await fetch('/completion', { method: 'POST', body: JSON.stringify(body) });
        if (!response.ok) throw new Error(`/completion answered ${response.status}: ${await response.text()}`);
        return (await response.json()) as Answer;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { perSecond: answers.reduce((sum, a) => sum + a.tokens_predicted, 0) / seconds, answers };
  }, bodies);
}

/** The same from Node against llama-server. */
async function onServer(server: LlamaServer, bodies: Array<Record<string, unknown>>): Promise<number> {
  const base = server.baseURL.replace(/\/v1$/, '');
  const started = performance.now();
  const answers = await Promise.all(
    bodies.map(async (body) => {
      const response = await fetch(`${base}/completion`, { method: 'POST', body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`llama-server answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as Answer;
    }),
  );
  return answers.reduce((sum, a) => sum + a.tokens_predicted, 0) / ((performance.now() - started) / 1000);
}

/**
 * One model at `threads` (1, or 2 as `&threads=2/2`): for each N of `streams`, a page with
 * `&slots=N` and a llama-server with `-np N` (started by `startServer`), `rounds` rounds each.
 */
export async function benchSlots(
  harness: Harness,
  model: BenchModel,
  startServer: (streams: number) => Promise<LlamaServer>,
  {
    streams,
    rounds,
    tokens,
    threads,
    speculative = null,
  }: {
    streams: number[];
    rounds: number;
    tokens: number;
    threads: number;
    /** A `speculative.type` each page request asks for (the server is started with its `--spec-type`). */
    speculative?: string | null;
  },
): Promise<SlotsRow[]> {
  const rows: SlotsRow[] = [];
  const batched = await nativeBatched(model.id, threads, streams, tokens);
  for (const n of streams) {
    const row: SlotsRow = {
      model: model.id,
      threads,
      streams: n,
      page: [],
      server: [],
      batched: batched.get(n) ?? NaN,
      differing: 0,
    };
    const query = `&slots=${n}${threads > 1 ? `&threads=${threads}/${threads}` : ''}`;
    const { context, page } = await harness.openPage(`/?model=${model.url}${query}`);
    const server = await startServer(n);
    try {
      const bodies = Array.from({ length: n }, (_, i) => body(model.id, i, tokens, speculative));
      // Past V8's tier-up (prompts.ts), and each stream's tokens alone, to compare with the batch's.
      // The warm-up in prompts that fit a slot's share of the page's 4,096-token context.
      const chunk = Math.min(WARM_TOKENS, Math.floor(4096 / n) - 8);
      for (let read = 0; read < WARM_TOKENS; read += chunk)
        await inPage(page, [{ model: model.id, prompt: benchPrompt(chunk), n_predict: 1, cache_prompt: false }]);
      const alone: Answer[] = [];
      for (const request of bodies) alone.push(...(await inPage(page, [request])).answers);
      await onServer(server, bodies);
      for (let round = 0; round < rounds; round++) {
        const batched = await inPage(page, bodies);
        row.page.push(batched.perSecond);
        batched.answers.forEach((answer, i) => {
          if (JSON.stringify(answer.tokens) !== JSON.stringify(alone[i]?.tokens)) row.differing += 1;
        });
        row.server.push(await onServer(server, bodies));
      }
    } finally {
      await server.stop();
      await context.close();
    }
    rows.push(row);
  }
  return rows;
}

export function slotsTable(rows: readonly SlotsRow[]): string {
  const one = (row: SlotsRow) =>
    rows.find((r) => r.model === row.model && r.threads === row.threads && r.streams === 1);
  const lines = rows.map((row) => {
    const base = one(row);
    const page = median(row.page);
    const server = median(row.server);
    const pageRatio = base ? page / median(base.page) : NaN;
    const serverRatio = base ? server / median(base.server) : NaN;
    const batchedRatio = base ? row.batched / base.batched : NaN;
    return `| ${row.model} | ${row.threads} | ${row.streams} | ${fmt(page, 1)} | ${fmt(pageRatio, 2)}x | ${fmt(server, 1)} | ${fmt(serverRatio, 2)}x | ${fmt(pageRatio / serverRatio, 2)} | ${fmt(row.batched, 1)} | ${fmt(batchedRatio, 2)}x | ${row.differing === 0 ? 'yes' : `NO (${row.differing})`} |`;
  });
  return [
    '**Slots: total decode tok/s of N concurrent streams (page `&slots=N`; llama-server `-np N`; llama-batched-bench `-npl N`)**',
    '',
    '| model | threads | streams | page tok/s | / 1 stream | llama-server tok/s | / 1 stream | page ratio / server ratio | llama-batched-bench tok/s | / 1 sequence | same tokens as alone |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...lines,
  ].join('\n');
}
