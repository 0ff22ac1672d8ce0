/**
 * The models `npm run bench` measures: generated random-weight llama GGUFs, written once into
 * .bench/ (gitignored) and hard-linked into dist/bench-models/ so the preview server serves them.
 * `BENCH_MODELS` picks some, e.g. `small-q4_0,large-f32`, or `all`. The default leaves out
 * large-q8_0 and large-q4_0: the previous engine (wllama), measured beside the engine as the
 * baseline, runs their quantized matmuls with scalar kernels, and each would take about 10
 * minutes of a 15-minute run on 2 cores.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { link, mkdir, rename, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ggufParts, type GgufFileSpec } from '../src/builtin-model/gguf-writer';
import { benchModelSpec, type BenchShapeName } from '../test/fixtures/bench-model';
import type { GgmlType } from '../src/builtin-model/quantize';

/** One generated model: its id in the page (the file name) and where it lives. */
export interface BenchModel {
  readonly id: string;
  readonly shape: BenchShapeName;
  readonly type: GgmlType;
  readonly file: string;
  readonly url: string;
  readonly bytes: number;
}

const ALL = [
  'small-f32',
  'small-q8_0',
  'small-q4_0',
  'small-q4_K',
  'small-q6_K',
  'large-f32',
  'large-q8_0',
  'large-q4_0',
];
const DEFAULT = ALL.slice(0, 6);
const SERVED = resolve('dist/bench-models');

export function parseBenchModelName(name: string): { shape: BenchShapeName; type: GgmlType } {
  const [shape, type] = name.split('-');
  if (
    (shape !== 'small' && shape !== 'large' && shape !== 'qwen05' && shape !== 'qwen15') ||
    (type !== 'f32' && type !== 'f16' && type !== 'q8_0' && type !== 'q4_0' && type !== 'q4_K' && type !== 'q6_K')
  ) {
    throw new Error(`unknown bench model '${name}' (use small|large|qwen05|qwen15 - f32|f16|q8_0|q4_0|q4_K|q6_K)`);
  }
  return { shape, type };
}

/**
 * Writes a model as it is made. The 1.5B shape repeats its first layer's weights in every layer
 * (the same work per token, one layer's memory and time to make: 5.7 GB of F32 otherwise).
 */
async function writeModel(file: string, shape: BenchShapeName, type: GgmlType): Promise<void> {
  await writeSpec(file, benchModelSpec(shape, type, undefined, shape === 'qwen15'));
}

/** Writes a GGUF as it is made, then renames it into place. */
async function writeSpec(file: string, spec: GgufFileSpec): Promise<void> {
  const out = createWriteStream(`${file}.part`);
  for (const part of ggufParts(spec))
    if (!out.write(part)) await new Promise<void>((done) => out.once('drain', () => done()));
  await new Promise<void>((done, fail) => out.end((error?: Error | null) => (error ? fail(error) : done())));
  await rename(`${file}.part`, file);
}

/** Writes the chosen models when missing and serves them; returns them in order. */
export async function ensureBenchModels(chosen = process.env.BENCH_MODELS): Promise<BenchModel[]> {
  const names = chosen === 'all' ? ALL : (chosen?.split(',') ?? DEFAULT);
  await mkdir('.bench', { recursive: true });
  await mkdir(SERVED, { recursive: true });
  const models: BenchModel[] = [];
  for (const name of names.map((n) => n.trim()).filter(Boolean)) {
    const { shape, type } = parseBenchModelName(name);
    const id = `bench-${shape}-${type}`;
    const file = resolve('.bench', `${id}.gguf`);
    if (!existsSync(file)) {
      console.log(`writing ${file} ...`);
      await writeModel(file, shape, type);
    }
    const served = resolve(SERVED, `${id}.gguf`);
    await rm(served, { force: true });
    await link(file, served);
    models.push({ id, shape, type, file, url: `/bench-models/${id}.gguf`, bytes: (await stat(file)).size });
  }
  return models;
}

/** A generated GGUF under `id` (written into .bench/ when missing, from `make`), served as the bench models are. */
export async function ensureGeneratedModel(
  id: string,
  make: () => GgufFileSpec,
): Promise<{ id: string; file: string; url: string; bytes: number }> {
  await mkdir('.bench', { recursive: true });
  await mkdir(SERVED, { recursive: true });
  const file = resolve('.bench', `${id}.gguf`);
  if (!existsSync(file)) {
    console.log(`writing ${file} ...`);
    await writeSpec(file, make());
  }
  const served = resolve(SERVED, `${id}.gguf`);
  await rm(served, { force: true });
  await link(file, served);
  return { id, file, url: `/bench-models/${id}.gguf`, bytes: (await stat(file)).size };
}
