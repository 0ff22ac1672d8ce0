/**
 * memory64 against wasm32, the same engine otherwise (scripts/engine/engine-config.sh's -m64
 * variants): prefill of a 256-token prompt and decode of 64 tokens on the page's one thread,
 * from llama-server's `/completion` timings, each round a page of its own whose engine worker is
 * told which heap to use (the test builds' `__inpageTestMemory64`, test-memory.ts) before the
 * model loads. Rounds alternate the order. And a model past wasm32's 4 GiB heap (an F32 model
 * of 4.9 GB whose layers share their weights, bench-model.ts), which only memory64 holds: it
 * must load and answer.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { link, mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright';
import { ggufParts } from '../src/builtin-model/gguf-writer';
import { engineWorker } from '../test/e2e/engine-worker-helpers';
import { CHROMIUM_ARGS, type Harness } from '../test/e2e/harness';
import { benchModelSpec, type BenchShape } from '../test/fixtures/bench-model';
import type { BenchModel } from './bench-models';
import { ASCII_ONLY, benchPrompt } from './prompts';
import { fmt, median } from './stats';

export interface Memory64Result {
  model: string;
  prefill: { wasm32: number[]; memory64: number[] };
  decode: { wasm32: number[]; memory64: number[] };
}

interface Timings {
  prompt_per_second: number;
  predicted_per_second: number;
}

async function complete(page: Page, body: Record<string, unknown>): Promise<{ content: string; timings: Timings }> {
  return page.evaluate(async (body) => {
    const response = await fetch('/completion', { method: 'POST', body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`/completion answered ${response.status}: ${await response.text()}`);
    const answer = (await response.json()) as { content: string; timings: Timings };
    if (typeof answer.content !== 'string')
      throw new Error(`/completion answered ${JSON.stringify(answer).slice(0, 1500)}`);
    return answer;
  }, body);
}

/** Gives `page`'s engine the heap asked for and loads `model` from `url`; resolves with the load's seconds. */
async function load(page: Page, origin: string, id: string, url: string, memory64: boolean): Promise<number> {
  const worker = await engineWorker(page);
  await worker.evaluate((m64) => Reflect.set(globalThis, '__inpageTestMemory64', m64), memory64);
  const started = Date.now();
  await page.evaluate(({ id, url }) => window.inpage.load({ id, backend: 'llamacpp', source: { kind: 'url', url } }), {
    id,
    url: new URL(url, origin).href,
  });
  return (Date.now() - started) / 1000;
}

export async function benchMemory64(harness: Harness, model: BenchModel, rounds: number): Promise<Memory64Result> {
  const result: Memory64Result = {
    model: model.id,
    prefill: { wasm32: [], memory64: [] },
    decode: { wasm32: [], memory64: [] },
  };
  const prompt = benchPrompt(256);
  for (let round = 0; round < rounds; round++) {
    for (const memory64 of round % 2 === 0 ? [false, true] : [true, false]) {
      const { context, page } = await harness.openPage();
      try {
        await load(page, harness.origin, model.id, model.url, memory64);
        const body = {
          model: model.id,
          prompt,
          n_predict: 64,
          temperature: 0,
          logit_bias: ASCII_ONLY,
          cache_prompt: false,
        };
        await complete(page, { ...body, n_predict: 4 });
        const { timings } = await complete(page, body);
        const heap = memory64 ? 'memory64' : 'wasm32';
        result.prefill[heap].push(timings.prompt_per_second);
        result.decode[heap].push(timings.predicted_per_second);
      } finally {
        await context.close();
      }
    }
  }
  return result;
}

export function memory64Table(results: Memory64Result[]): string {
  const lines = ['model       | prefill wasm32 | prefill m64 | ratio | decode wasm32 | decode m64 | ratio'];
  for (const r of results) {
    const p32 = median(r.prefill.wasm32);
    const p64 = median(r.prefill.memory64);
    const d32 = median(r.decode.wasm32);
    const d64 = median(r.decode.memory64);
    lines.push(
      `${r.model.padEnd(11)} | ${fmt(p32).padStart(14)} | ${fmt(p64).padStart(11)} | ${(p64 / p32).toFixed(2)}x | ` +
        `${fmt(d32).padStart(13)} | ${fmt(d64).padStart(10)} | ${(d64 / d32).toFixed(2)}x`,
    );
  }
  return lines.join('\n');
}

/** 4.9 GB in F32: 24 layers of n_embd 2048, ff 5632. */
const BIG: BenchShape = { nEmbd: 2048, nLayer: 24, nFf: 5632, nHead: 16 };

/** Writes the model past 4 GiB once (.bench/, gitignored) and serves it beside the bench models. */
export async function ensureBigModel(): Promise<BenchModel> {
  const id = 'bench-big-f32';
  const file = resolve('.bench', `${id}.gguf`);
  await mkdir('.bench', { recursive: true });
  if (!existsSync(file)) {
    console.log(`writing ${file} ...`);
    const out = createWriteStream(`${file}.part`);
    for (const part of ggufParts(benchModelSpec(BIG, 'f32', 0xbe7c4, true)))
      if (!out.write(part)) await new Promise<void>((done) => out.once('drain', () => done()));
    await new Promise<void>((done, fail) => out.end((error?: Error | null) => (error ? fail(error) : done())));
    await rename(`${file}.part`, file);
  }
  const served = resolve('dist/bench-models', `${id}.gguf`);
  await mkdir(resolve('dist/bench-models'), { recursive: true });
  await rm(served, { force: true });
  await link(file, served);
  return { id, shape: 'large', type: 'f32', file, url: `/bench-models/${id}.gguf`, bytes: (await stat(file)).size };
}

/**
 * Loads the model past 4 GiB (no hook: its size picks memory64) and asks it for 8 tokens, in a
 * browser profile on disk: an off-the-record context (the harness's) keeps OPFS in memory, where
 * Chromium could not read the stored 4.6 GiB file back ("The requested file could not be read").
 */
export async function runBigModel(harness: Harness, model: BenchModel): Promise<string> {
  const profile = await mkdtemp(join(tmpdir(), 'inpage-m64-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    await context.addInitScript('globalThis.__name = (fn) => fn;');
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
    });
    await page.goto(`${harness.origin}/?model=inpage-test`);
    await page.evaluate(() => window.inpage.ready);
    const loadSeconds = await load(page, harness.origin, model.id, model.url, false);
    const builds = await (
      await engineWorker(page)
    ).evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name.replace(/^.*\//, ''))
        .filter((name) => name.includes('llama-engine')),
    );
    page.on('crash', () => errors.push('the page crashed'));
    const { content, timings } = await complete(page, {
      model: model.id,
      prompt: 'The quick brown fox',
      n_predict: 8,
      temperature: 0,
      logit_bias: ASCII_ONLY,
    }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${errors.join('\n')}`);
    });
    if (typeof content !== 'string' || content.length === 0)
      throw new Error(
        `${model.id} answered ${JSON.stringify({ content, timings }).slice(0, 2000)}: ${errors.join('\n')}`,
      );
    return (
      `${model.id} (${(model.bytes / 2 ** 30).toFixed(2)} GiB): loaded in ${loadSeconds.toFixed(1)} s with ` +
      `${builds.join(', ')}; answered ${JSON.stringify(content)} (prefill ${fmt(timings.prompt_per_second)} tok/s, ` +
      `decode ${fmt(timings.predicted_per_second)} tok/s)`
    );
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}
