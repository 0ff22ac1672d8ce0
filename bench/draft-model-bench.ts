/**
 * Speculative decoding with a draft model (`draftModel`, llama-server's `--model-draft`): decode
 * tok/s of one greedy generation with the draft model on and off (`speculative.type: none`), on
 * one thread, through `/completion` (its `timings`), beside Debian's llama-server on the same
 * files (`--spec-type draft-simple -md`, and without `-md` for off; `-t 1 -td 1`).
 *
 * A random-weight draft model would agree with a random-weight model on almost no token, so the
 * models are inert (test/fixtures/bench-model.ts): the model does all of its shape's work per
 * token, and its next token depends only on the last one through an embedding and a head that
 * the draft shares. The `agreeing` draft (one block, FFN 256, the model's head) drafts the
 * model's own tokens: the ceiling a well-matched draft model reaches. The `other` draft (the
 * same, with a head of another seed) almost never agrees: the cost of a useless draft model. A
 * real pair (a 0.5B drafting for a 7B) lies between. Both runs must give the same tokens.
 */
import type { Page } from 'playwright';
import type { Harness } from '../test/e2e/harness';
import { modelInChroot, placeModel, startLlamaServer, type LlamaServer } from '../test/e2e/llama-server';
import { BENCH_SHAPES, benchModelSpec, type BenchShapeName } from '../test/fixtures/bench-model';
import type { GgmlType } from '../src/builtin-model/quantize';
import { ensureGeneratedModel } from './bench-models';
import { ASCII_ONLY } from './prompts';
import { fmt, median } from './stats';
import { complete, offAndOn } from './speculative-bench';
import { readFile } from 'node:fs/promises';

const PROMPT = 'The quick brown fox';
const SEED = 0xbe7c4;

export interface DraftRow {
  model: string;
  bytes: number;
  draft: 'agreeing' | 'other';
  draftBytes: number;
  offPerSecond: number[];
  onPerSecond: number[];
  drafted: number;
  accepted: number;
  differing: number;
  serverOff: number[];
  serverOn: number[];
  serverDrafted: number;
  serverAccepted: number;
}

interface Timed {
  tokens?: number[];
  timings: { predicted_per_second: number; draft_n?: number; draft_n_accepted?: number };
}

async function post(base: string, body: Record<string, unknown>): Promise<Timed> {
  const response = await fetch(`${base}/completion`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`/completion answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Timed;
}

const inPage = (page: Page, body: Record<string, unknown>) => complete<Timed>(page, body);

/** The inert model of `shape` and its two drafts, written and served (and placed for llama-server). */
async function models(shape: BenchShapeName, type: GgmlType) {
  const { nEmbd, nHead } = BENCH_SHAPES[shape];
  const draftShape = { nEmbd, nLayer: 1, nFf: 256, nHead };
  const target = await ensureGeneratedModel(`draft-target-${shape}-${type}`, () =>
    benchModelSpec(shape, type, SEED, shape === 'qwen15', true),
  );
  const agreeing = await ensureGeneratedModel(`draft-agreeing-${shape}-${type}`, () =>
    benchModelSpec(draftShape, type, SEED, false, true),
  );
  const other = await ensureGeneratedModel(`draft-other-${shape}-${type}`, () =>
    benchModelSpec(draftShape, type, SEED + 1, false, true),
  );
  for (const model of [target, agreeing, other]) placeModel(model.id, await readFile(model.file));
  return { target, drafts: { agreeing, other } };
}

export async function benchDraftModel(
  harness: Harness,
  shape: BenchShapeName,
  type: GgmlType,
  { rounds, tokens, nMax }: { rounds: number; tokens: number; nMax: number },
): Promise<DraftRow[]> {
  const { target, drafts } = await models(shape, type);
  const body = {
    model: target.id,
    prompt: PROMPT,
    n_predict: tokens,
    temperature: 0,
    logit_bias: ASCII_ONLY,
    cache_prompt: false,
    ignore_eos: true,
    'speculative.n_max': nMax,
  };
  const serverArgs = ['-np', '1', '-c', '4096', '-t', '1', '-tb', '1'];
  const timed = async (server: LlamaServer, into: number[], row?: DraftRow) => {
    const base = server.baseURL.replace(/\/v1$/, '');
    await post(base, { ...body, n_predict: 8 });
    for (let round = 0; round < rounds; round++) {
      const answer = await post(base, body);
      into.push(answer.timings.predicted_per_second);
      if (row) {
        row.serverDrafted += answer.timings.draft_n ?? 0;
        row.serverAccepted += answer.timings.draft_n_accepted ?? 0;
      }
    }
  };
  const serverOff: number[] = [];
  const plain = await startLlamaServer({ model: target.id, args: serverArgs });
  try {
    await timed(plain, serverOff);
  } finally {
    await plain.stop();
  }
  const rows: DraftRow[] = [];
  for (const [name, draft] of Object.entries(drafts) as Array<['agreeing' | 'other', typeof drafts.other]>) {
    const row: DraftRow = {
      model: target.id,
      bytes: target.bytes,
      draft: name,
      draftBytes: draft.bytes,
      offPerSecond: [],
      onPerSecond: [],
      drafted: 0,
      accepted: 0,
      differing: 0,
      serverOff,
      serverOn: [],
      serverDrafted: 0,
      serverAccepted: 0,
    };
    const { context, page } = await harness.openPage(`/?model=${target.url}&draft_model=${draft.url}`);
    try {
      await inPage(page, { ...body, n_predict: 8 });
      await offAndOn(page, rounds, { ...body, 'speculative.type': 'none' }, body, row);
    } finally {
      await context.close();
    }
    const server = await startLlamaServer({
      model: target.id,
      args: [
        ...serverArgs,
        '--spec-type',
        'draft-simple',
        '-md',
        modelInChroot(draft.id),
        '-td',
        '1',
        '-tbd',
        '1',
        '--spec-draft-n-max',
        String(nMax),
      ],
    });
    try {
      await timed(server, row.serverOn, row);
    } finally {
      await server.stop();
    }
    rows.push(row);
  }
  return rows;
}

export function draftTable(rows: readonly DraftRow[], nMax: number): string {
  const mb = (bytes: number) => `${fmt(bytes / 1e6, bytes < 1e7 ? 1 : 0)} MB`;
  const rate = (accepted: number, drafted: number) => (drafted > 0 ? `${fmt((100 * accepted) / drafted, 1)}%` : '-');
  const lines = rows.map((r) => {
    const off = median(r.offPerSecond);
    const on = median(r.onPerSecond);
    const serverOff = median(r.serverOff);
    const serverOn = median(r.serverOn);
    return `| ${r.model} (${mb(r.bytes)}) | ${r.draft} (${mb(r.draftBytes)}) | ${fmt(off, 1)} | ${fmt(on, 1)} | ${fmt(on / off, 2)}x | ${rate(r.accepted, r.drafted)} | ${fmt(serverOff, 1)} | ${fmt(serverOn, 1)} | ${fmt(serverOn / serverOff, 2)}x | ${rate(r.serverAccepted, r.serverDrafted)} | ${r.differing === 0 ? 'yes' : `NO (${r.differing} rounds differ)`} |`;
  });
  return [
    `**A draft model (draft-simple, n_max ${nMax}), 1 thread: decode tok/s off and on, page and llama-server**`,
    '',
    '| model | draft | page off | page on | on / off | accepted | llama-server off | on | on / off | accepted | same tokens |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...lines,
  ].join('\n');
}
