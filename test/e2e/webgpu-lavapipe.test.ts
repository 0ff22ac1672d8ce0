/**
 * The stock WebGPU engine (`llama-engine-webgpu`, its f16 shaders as shipped) on an adapter with
 * `shader-f16`, without a GPU (issue 36): Mesa's lavapipe, a conformant software Vulkan driver, in
 * a sid chroot, under Dawn's Node binding (scripts/engine/webgpu/lavapipe.sh: the packed check a
 * lent GPU runs, through the device call's own command and the GPU host's path in
 * run-node-engine.sh, lavapipe standing in for NVIDIA's driver in a throwaway overlay). Chromium's own adapters here are SwiftShader's, without f16, and Chromium does
 * not offer lavapipe to a page (docs/webgpu.md, "lavapipe"), so this runs in Node.
 *
 * Each model is answered greedily by the `simd` CPU engine, then by the WebGPU engine following
 * the CPU's tokens, with every layer on lavapipe (`webgpu`), and with the last layer and the output
 * there, the rest on the CPU in the same engine (`webgpu@2`, llama.cpp's -ngl 2): the test models
 * must give the CPU's tokens (`inpage-test-lora`: with its two LoRA adapters, placed with the
 * layers they adapt), and the vision pair's projector runs on the GPU too (its F16 patch kernel
 * and flash attention). wllama 3.13 runs beside them on lavapipe (the baseline the device
 * check reports), and must give the CPU's tokens on the test model too.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { NodeEngineReport, ReportAnswer } from '../webgpu/node-engine-report';

function lavapipe(out: string): Promise<{ code: number | null; log: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['scripts/engine/webgpu/lavapipe.sh', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, log }));
  });
}

test('the WebGPU engine on lavapipe (shader-f16) gives the CPU engine’s tokens', { timeout: 900_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'inpage-lavapipe-'));
  try {
    const { code, log } = await lavapipe(out);
    assert.equal(code, 0, log.slice(-4000));
    const report = JSON.parse(readFileSync(join(out, 'node-engine.json'), 'utf8')) as NodeEngineReport;
    assert.equal(report.adapter?.f16, true, `lavapipe offers shader-f16: ${JSON.stringify(report.adapter)}`);
    assert.match(report.adapter?.description ?? '', /llvmpipe/);
    assert.deepEqual(report.failures, []);
    assert.equal(report.complete, true, 'the report of a run that finished says so');
    const webgpu = (name: string, engine: string): ReportAnswer => {
      const answer = report.models[name]?.answers[engine];
      assert.ok(answer && !answer.error, `${name}, ${engine}: ${JSON.stringify(answer)}`);
      assert.equal(answer.gpuDevices, 1, `${name}, ${engine}: lavapipe's device`);
      return answer;
    };
    for (const engine of ['webgpu', 'webgpu@2']) {
      // The test models: the CPU's tokens at every position, logprobs close (measured: 0 for the
      // text model, 1.1e-3 for the vision pair, whose image embedding passes through f16).
      for (const [name, tolerance] of [
        ['inpage-test', 1e-3],
        ['inpage-test-lora', 1e-3],
        ['inpage-test-vision', 5e-3],
      ] as const) {
        const answer = webgpu(name, engine);
        assert.equal(answer.sameTokens, true, `${name}, ${engine}`);
        assert.ok((answer.logprobGap ?? Infinity) <= tolerance, `${name}, ${engine}: logprob gap ${answer.logprobGap}`);
      }
      assert.equal(webgpu('inpage-test-vision', engine).projectorOnGpu, true, `${engine}: the projector on lavapipe`);
      // The adapters change the answer (the CPU's with them is not the CPU's without), and the GPU
      // applies them as the CPU does (above): with every layer there, and with only the adapted
      // output layer there (webgpu@2: the first block's adapter stays on the CPU).
      const plain = report.models['inpage-test']?.answers.simd;
      const adapted = report.models['inpage-test-lora']?.answers.simd;
      assert.notDeepEqual(adapted?.tokens, plain?.tokens, 'the LoRA adapters change the greedy answer');
      // The bench models' random weights make near-ties: another token only where the CPU's margin
      // is within the tolerance (node-engine.ts fails otherwise), logprobs within 0.05.
      for (const name of ['small-q4_0', 'small-q8_0']) {
        const answer = webgpu(name, engine);
        assert.ok((answer.logprobGap ?? Infinity) <= 0.05, `${name}, ${engine}: logprob gap ${answer.logprobGap}`);
        for (const flip of answer.flips ?? [])
          assert.ok(flip.margin <= 0.1, `${name}, ${engine}: ${JSON.stringify(flip)}`);
      }
    }
    // Every layer offloaded: the weights live in the GPU's buffers, and the heap keeps no copy of
    // them (heap-choice.ts's hostShare counts on it); with two layers, some of them.
    const q8 = report.models['small-q8_0'];
    const [cpu, all, two] = ['simd', 'webgpu', 'webgpu@2'].map((engine) => q8?.answers[engine]);
    assert.ok(q8?.bytes && cpu?.heapBytes && all?.heapBytes && two?.gpuBufferBytes, JSON.stringify(q8));
    assert.ok((all.gpuBufferBytes ?? 0) >= q8.bytes, `GPU buffers ${all.gpuBufferBytes} for a ${q8.bytes}-byte model`);
    assert.ok(cpu.heapBytes - all.heapBytes >= q8.bytes, `heap ${all.heapBytes} against the CPU's ${cpu.heapBytes}`);
    assert.ok(two.gpuBufferBytes < (all.gpuBufferBytes ?? 0), 'two layers take less of the GPU than all');
    // The browser peer on the same device (wllama 3.13's own ggml-webgpu, run in Node as the
    // device check runs it): the CPU engine's tokens on the test model. It proves the baseline's
    // harness (wllama-node.ts) before a GPU session relies on it.
    const wllama = report.models['inpage-test']?.baselines?.wllama;
    assert.ok(wllama && !wllama.error, `wllama on lavapipe: ${JSON.stringify(wllama)}`);
    assert.equal(wllama.sameTokens, true, 'wllama gives the CPU engine’s tokens on inpage-test');
    assert.ok((wllama.logprobGap ?? Infinity) <= 1e-3, `wllama: logprob gap ${wllama.logprobGap}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
