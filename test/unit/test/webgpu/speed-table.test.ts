/**
 * test/webgpu/speed-table.ts on a real report (the lavapipe run of 2026-12-06, its token lists
 * dropped): the table docs/speed.md takes, and the verdict a GPU session acts on. The same report
 * with a hardware adapter's name allows both switches; each way a run can fall short keeps one off.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NodeEngineReport, ReportAnswer } from '../../../webgpu/node-engine-report';
import { runLine, speedTable, verdict } from '../../../webgpu/speed-table';

const FIXTURE = resolve(import.meta.dirname, '../../../fixtures/node-engine-lavapipe.json');
const lavapipe = (): NodeEngineReport => JSON.parse(readFileSync(FIXTURE, 'utf8')) as NodeEngineReport;

/** The lavapipe report as if an NVIDIA adapter had given it. */
function onGpu(): NodeEngineReport {
  const report = lavapipe();
  report.adapter = { vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA H100 80GB HBM3', f16: true };
  return report;
}

/** `report` with `change` made to `model`'s answer by `run` (which the fixture must hold). */
function changed(
  report: NodeEngineReport,
  model: string,
  run: string,
  change: Partial<ReportAnswer>,
): NodeEngineReport {
  const answer = report.models[model]?.answers[run];
  if (!answer) throw new Error(`the fixture has no answer of ${run} to ${model}`);
  Object.assign(answer, change);
  return report;
}

describe('speedTable', () => {
  it('writes one row per engine and baseline, with ratios to the CPU engine and to wllama', () => {
    const table = speedTable(lavapipe()).split('\n');
    expect(table[0]).toBe(
      '| model | run | GPU devices | prefill tok/s | decode tok/s | decode / simd | decode / wllama | wasm heap MiB | GPU buffers MiB | tokens | largest logprob gap |',
    );
    expect(table[1]).toBe('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |');
    expect(table).toContain("| inpage-test | webgpu | 1 | 245.5 | 36.6 | 0.03 | 0.84 | 64 | 19 | the CPU's | 0 |");
    expect(table).toContain(
      "| small-q4_0 | webgpu | 1 | 51.8 | 8.7 | 0.06 | 0.77 | 64 | 84 | the CPU's but at 1 (margin 0.0028) | 0.027 |",
    );
    expect(table).toContain(
      "| small-q4_0 | wllama (baseline) | - | 53.3 | 11.3 | 0.07 | 1 | - | - | the CPU's first 1, free-running | 0.013 |",
    );
    expect(table).toContain(
      "| inpage-test-vision | webgpu@2 | 1 (and the projector) | 262.8 | 225.1 | 0.09 | - | 192 | 6 | the CPU's | 0.00083 |",
    );
    expect(table).toHaveLength(2 + 15);
  });

  it('says where an engine failed, in the tokens column', () => {
    const report = changed(lavapipe(), 'small-q8_0', 'webgpu', { error: 'RuntimeError: unreachable' });
    expect(speedTable(report)).toContain(
      '| small-q8_0 | webgpu | - | - | - | - | - | - | - | failed: RuntimeError: unreachable | - |',
    );
  });

  it('sums up more than three near-ties', () => {
    const flips = [0.001, 0.019, 0.002, 0.0001].map((margin, at) => ({ at, margin }));
    const report = changed(lavapipe(), 'small-q4_0', 'webgpu', { flips });
    expect(speedTable(report)).toContain("| the CPU's but at 4 near-ties (CPU margins up to 0.019) | 0.027 |");
  });

  it('names the adapter and the settings', () => {
    expect(runLine(lavapipe())).toBe(
      'Adapter: llvmpipe: Mesa 26.2.6-1 (LLVM 22.1.8) (mesa, software), shader-f16 yes; Node v24.22.3, 32 tokens after a 128-token prompt, tolerance 0.05.',
    );
  });
});

describe('verdict', () => {
  it('keeps both switches off on a software renderer', () => {
    const { engineBuilt, projectorOnGpu } = verdict(lavapipe());
    expect(engineBuilt.ok).toBe(false);
    expect(engineBuilt.why).toEqual(['llvmpipe: Mesa 26.2.6-1 (LLVM 22.1.8) is a software renderer, not a GPU']);
    expect(projectorOnGpu.ok).toBe(false);
  });

  it('allows both on a GPU that passed', () => {
    expect(verdict(onGpu())).toEqual({ engineBuilt: { ok: true, why: [] }, projectorOnGpu: { ok: true, why: [] } });
  });

  it('keeps the engine off without shader-f16, after a failure, or where a run found no device', () => {
    const noF16 = onGpu();
    if (noF16.adapter) noF16.adapter.f16 = false;
    expect(verdict(noF16).engineBuilt.why).toEqual(['the adapter has no shader-f16']);
    const failed = onGpu();
    failed.failures = ['small-q8_0, webgpu: logprob gap 0.2'];
    expect(verdict(failed).engineBuilt.ok).toBe(false);
    expect(verdict(failed).projectorOnGpu.ok).toBe(true);
    const cpu = changed(onGpu(), 'small-q8_0', 'webgpu@2', { gpuDevices: 0 });
    expect(verdict(cpu).engineBuilt.why).toEqual(['small-q8_0, webgpu@2: no GPU device']);
  });

  it('keeps the engine off where the test model flipped a token, even at a near-tie', () => {
    const report = changed(onGpu(), 'inpage-test', 'webgpu', { sameTokens: false });
    expect(verdict(report).engineBuilt.why).toEqual(["inpage-test, webgpu: not the CPU's tokens"]);
  });

  it('keeps both off where the run was stopped before its end', () => {
    const report = onGpu();
    delete report.complete;
    expect(verdict(report).engineBuilt.why).toEqual(['the run stopped before its end']);
    expect(verdict(report).projectorOnGpu.why).toEqual(['the run stopped before its end']);
  });

  it('keeps the projector off where it ran on the CPU or answered otherwise', () => {
    const cpu = changed(onGpu(), 'inpage-test-vision', 'webgpu', { projectorOnGpu: false });
    expect(verdict(cpu).projectorOnGpu.why).toEqual(['webgpu: the projector ran on the CPU']);
    expect(verdict(cpu).engineBuilt.ok).toBe(true);
    const none = onGpu();
    delete none.models['inpage-test-vision'];
    expect(verdict(none).projectorOnGpu.why).toEqual(['the vision pair was not run']);
  });
});
