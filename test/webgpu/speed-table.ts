/**
 * node-engine.json (the device check's report) as docs/speed.md's table, and what it decides, so
 * that a GPU session writes its figures and flips its switches in one step:
 * - `WEBGPU_ENGINE_BUILT` (src/core/domain/engine-build.ts): pages take the WebGPU engine where
 *   the adapter has `shader-f16`; true once every WebGPU run of the text models found a GPU device
 *   and passed the check (the test model's tokens all the CPU's), on a hardware adapter (not
 *   lavapipe or SwiftShader) with `shader-f16`;
 * - `PROJECTOR_ON_GPU` (worker/engine/backends/llamacpp/backend.ts): true once the vision pair's
 *   projector ran on that GPU and its answer is the CPU's at every position.
 *   usage: npx tsx test/webgpu/speed-table.ts node-engine.json
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { NodeEngineReport, ReportAnswer, ReportBaseline } from './node-engine-report';

/** What the report allows, and each reason it does not. */
export interface Verdict {
  engineBuilt: { ok: boolean; why: string[] };
  projectorOnGpu: { ok: boolean; why: string[] };
}

const VISION = /^inpage-test-vision/;
const GPU_ENGINE = /^webgpu(@\d+)?$/;
/** Adapters that run on the CPU (lavapipe, SwiftShader): they check shaders, not a GPU. */
const SOFTWARE = /llvmpipe|lavapipe|swiftshader|software/i;

function fixed(value: number | undefined, digits: number): string {
  return value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(digits);
}

function mib(bytes: number | undefined): string {
  return fixed(bytes === undefined ? undefined : bytes / 2 ** 20, 0);
}

function gap(value: number | undefined): string {
  return value === undefined ? '-' : value === 0 ? '0' : value.toPrecision(2);
}

function answerTokens(engine: string, answer: ReportAnswer): string {
  if (engine === 'simd') return '(the reference)';
  if (answer.sameTokens) return "the CPU's";
  const flips = answer.flips ?? [];
  if (flips.length > 3) {
    const widest = Math.max(...flips.map((flip) => flip.margin));
    return `the CPU's but at ${flips.length} near-ties (CPU margins up to ${widest.toPrecision(2)})`;
  }
  return `the CPU's but at ${flips.map((flip) => `${flip.at} (margin ${flip.margin.toPrecision(2)})`).join(', ')}`;
}

function baselineTokens(baseline: ReportBaseline): string {
  return baseline.sameTokens
    ? "the CPU's, free-running"
    : `the CPU's first ${baseline.commonTokens ?? 0}, free-running`;
}

const COLUMNS = [
  'model',
  'run',
  'GPU devices',
  'prefill tok/s',
  'decode tok/s',
  'decode / simd',
  'decode / wllama',
  'wasm heap MiB',
  'GPU buffers MiB',
  'tokens',
  'largest logprob gap',
];
/** Left-aligned: the names and the tokens; the figures to the right. */
const TEXT = new Set(['model', 'run', 'tokens']);

const row = (cells: string[]): string => `| ${cells.join(' | ')} |`;
const failed = (name: string, run: string, error: string): string =>
  row([name, run, ...Array<string>(COLUMNS.length - 4).fill('-'), `failed: ${error.slice(0, 80)}`, '-']);

/** The report as a markdown table: one row per model and engine, then its baselines. */
export function speedTable(report: NodeEngineReport): string {
  const rows = [row(COLUMNS), row(COLUMNS.map((column) => (TEXT.has(column) ? '---' : '---:')))];
  for (const [name, { answers, baselines = {} }] of Object.entries(report.models)) {
    const simd = answers.simd?.decodeTokS;
    const wllama = baselines.wllama?.error ? undefined : baselines.wllama?.decodeTokS;
    const ratio = (decode: number | undefined, to: number | undefined) =>
      fixed(decode !== undefined && to ? decode / to : undefined, 2);
    for (const [engine, answer] of Object.entries(answers)) {
      if (answer.error) {
        rows.push(failed(name, engine, answer.error));
        continue;
      }
      const decode = answer.decodeTokS;
      rows.push(
        row([
          name,
          engine,
          `${answer.gpuDevices}${answer.projectorOnGpu ? ' (and the projector)' : ''}`,
          fixed(answer.prefillTokS, 1),
          fixed(decode, 1),
          engine === 'simd' ? '1' : ratio(decode, simd),
          ratio(decode, wllama),
          mib(answer.heapBytes),
          mib(answer.gpuBufferBytes),
          answerTokens(engine, answer),
          gap(answer.logprobGap),
        ]),
      );
    }
    for (const [spec, baseline] of Object.entries(baselines)) {
      if (baseline.error) {
        rows.push(failed(name, `${spec} (baseline)`, baseline.error));
        continue;
      }
      const decode = baseline.decodeTokS;
      rows.push(
        row([
          name,
          `${spec} (baseline)`,
          '-',
          fixed(baseline.prefillTokS, 1),
          fixed(decode, 1),
          ratio(decode, simd),
          spec === 'wllama' ? '1' : '-',
          '-',
          '-',
          baselineTokens(baseline),
          gap(baseline.logprobGap),
        ]),
      );
    }
  }
  return rows.join('\n');
}

/** One line on the run: the adapter and what was asked. */
export function runLine(report: NodeEngineReport): string {
  const adapter = report.adapter
    ? `${report.adapter.description} (${report.adapter.vendor ?? '?'}, ${report.adapter.architecture ?? '?'}), shader-f16 ${report.adapter.f16 ? 'yes' : 'no'}`
    : 'no adapter';
  const asked = report.settings
    ? `, ${report.settings.tokens} tokens after a ${report.settings.promptTokens}-token prompt, tolerance ${report.settings.tolerance}`
    : '';
  const stopped = report.complete ? '' : ' The run stopped before its end: the models below are those it finished.';
  return `Adapter: ${adapter}; Node ${report.node ?? '?'}${asked}.${stopped}`;
}

/** Whether the report allows each switch to be flipped, and why not. */
export function verdict(report: NodeEngineReport): Verdict {
  const engine: string[] = [];
  const projector: string[] = [];
  /** A reason that keeps both switches off. */
  const both = (why: string) => (engine.push(why), projector.push(why));
  const adapter = report.adapter;
  if (!adapter?.f16) both('the adapter has no shader-f16');
  if (adapter && SOFTWARE.test(`${adapter.description} ${adapter.architecture ?? ''}`))
    both(`${adapter.description} is a software renderer, not a GPU`);
  if (!report.complete) both('the run stopped before its end');
  if (report.failures.length > 0) engine.push(`the check failed: ${report.failures.join('; ')}`);
  const text = Object.keys(report.models).filter((name) => !VISION.test(name));
  if (!text.includes('inpage-test')) engine.push('inpage-test was not run');
  let gpuRuns = 0;
  for (const name of text)
    for (const [run, answer] of Object.entries(report.models[name]?.answers ?? {})) {
      if (!GPU_ENGINE.test(run)) continue;
      gpuRuns++;
      if (answer.error) engine.push(`${name}, ${run}: ${answer.error}`);
      else if (answer.gpuDevices < 1) engine.push(`${name}, ${run}: no GPU device`);
      else if (name === 'inpage-test' && !answer.sameTokens) engine.push(`${name}, ${run}: not the CPU's tokens`);
    }
  if (gpuRuns === 0) engine.push('no WebGPU engine was run on a text model');
  const vision = Object.keys(report.models).find((name) => VISION.test(name));
  const tolerance = report.settings?.tolerance ?? 0.05;
  if (!vision) projector.push('the vision pair was not run');
  for (const [run, answer] of Object.entries((vision && report.models[vision]?.answers) || {})) {
    if (!GPU_ENGINE.test(run)) continue;
    if (answer.error) projector.push(`${run}: ${answer.error}`);
    else if (!answer.projectorOnGpu) projector.push(`${run}: the projector ran on the CPU`);
    else if (!answer.sameTokens) projector.push(`${run}: not the CPU's tokens`);
    else if (!((answer.logprobGap ?? Infinity) <= tolerance))
      projector.push(`${run}: logprob gap ${answer.logprobGap}`);
  }
  return {
    engineBuilt: { ok: engine.length === 0, why: engine },
    projectorOnGpu: { ok: projector.length === 0, why: projector },
  };
}

function verdictLines({ engineBuilt, projectorOnGpu }: Verdict): string {
  const line = (name: string, { ok, why }: { ok: boolean; why: string[] }) =>
    ok ? `${name}: may be true` : `${name}: stays false (${why.join('; ')})`;
  return [line('WEBGPU_ENGINE_BUILT', engineBuilt), line('PROJECTOR_ON_GPU', projectorOnGpu)].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: npx tsx test/webgpu/speed-table.ts node-engine.json');
  const report = JSON.parse(readFileSync(file, 'utf8')) as NodeEngineReport;
  console.log(`${runLine(report)}\n\n${speedTable(report)}\n\n${verdictLines(verdict(report))}`);
}
