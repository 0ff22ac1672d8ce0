import { describe, expect, it } from 'vitest';
import { MAX_GPU_LAYERS } from '#core/domain/accelerator';
import {
  chooseEngine,
  placementAfterFailure,
  placementAfterLoad,
  type EngineNeeds,
} from '../../../../../../worker/engine/backends/llamacpp/engine-choice';

const cpu: EngineNeeds['placement'] = { accelerator: 'cpu', reason: 'no shader-f16' };
const gpu: EngineNeeds['placement'] = { accelerator: 'webgpu' };
const threads = { prefill: 2, decode: 2, pthreads: true };
const base: EngineNeeds = { placement: cpu, gpuLayers: 'all', threads, memory64: false, relaxed: true };

describe('chooseEngine', () => {
  it('takes the CPU build for the SIMD, threads and heap where the model runs on the CPU, with 0 GPU layers', () => {
    expect(chooseEngine(base)).toEqual({
      build: { relaxed: true, pthreads: true, memory64: false },
      threads,
      gpuLayers: 0,
    });
    expect(chooseEngine({ ...base, memory64: true, relaxed: false }).build).toEqual({
      relaxed: false,
      pthreads: true,
      memory64: true,
    });
  });

  it('takes the WebGPU build on one thread where the model runs on the GPU, with the layers asked for', () => {
    const one = { prefill: 1, decode: 1, pthreads: false };
    expect(chooseEngine({ ...base, placement: gpu })).toEqual({
      build: { webgpu: true },
      threads: one,
      gpuLayers: MAX_GPU_LAYERS,
    });
    expect(chooseEngine({ ...base, placement: gpu, gpuLayers: 7 }).gpuLayers).toBe(7);
  });

  it('follows the placement for a model that needs memory64 on the CPU: its CPU share fits the wasm32 WebGPU build', () => {
    // fitWasm32Heap placed it on the GPU with what stays on the CPU (heap-choice.ts's hostShare).
    expect(chooseEngine({ ...base, placement: gpu, memory64: true }).build).toEqual({ webgpu: true });
    const fellBack = { accelerator: 'cpu', reason: 'no WebGPU device' } as const;
    expect(chooseEngine({ ...base, placement: fellBack, memory64: true }).build).toEqual({
      relaxed: true,
      pthreads: true,
      memory64: true,
    });
  });

  it('keeps a model that needs memory64 on the CPU build where only a test forced the WebGPU build', () => {
    expect(chooseEngine({ ...base, forceWebGpu: true, memory64: true }).build).toEqual({
      relaxed: true,
      pthreads: true,
      memory64: true,
    });
  });

  it('takes the WebGPU build where a test asks for it, whatever the placement', () => {
    expect(chooseEngine({ ...base, forceWebGpu: true }).build).toEqual({ webgpu: true });
  });

  it('falls back to the CPU where the WebGPU build, placed on the GPU, got no device', () => {
    const needs = { ...base, placement: gpu };
    const choice = chooseEngine(needs);
    expect(placementAfterLoad(needs, choice, 0)).toEqual({ accelerator: 'cpu', reason: 'no WebGPU device' });
    expect(placementAfterLoad(needs, choice, 1)).toBeNull();
    expect(chooseEngine({ ...needs, placement: { accelerator: 'cpu', reason: 'no WebGPU device' } }).build).toEqual({
      relaxed: true,
      pthreads: true,
      memory64: false,
    });
  });

  it('keeps a CPU placement, and a build a test forced, as they were', () => {
    expect(placementAfterLoad(base, chooseEngine(base), 0)).toBeNull();
    const forced = { ...base, forceWebGpu: true };
    expect(placementAfterLoad(forced, chooseEngine(forced), 0)).toBeNull();
  });
});

describe('placementAfterFailure', () => {
  it('falls back to the CPU where the WebGPU build, placed on the GPU, failed to start or load', () => {
    const needs = { ...base, placement: gpu };
    expect(placementAfterFailure(needs, chooseEngine(needs))).toEqual({
      accelerator: 'cpu',
      reason: 'the WebGPU engine failed to load',
    });
  });

  it("leaves a CPU build's failure, and a forced WebGPU build's, as the load's answer", () => {
    expect(placementAfterFailure(base, chooseEngine(base))).toBeNull();
    const forced = { ...base, forceWebGpu: true };
    expect(placementAfterFailure(forced, chooseEngine(forced))).toBeNull();
    // A model placed on the GPU that needs memory64 on the CPU falls back to the CPU (in that build).
    const large = { ...base, placement: gpu, memory64: true };
    expect(placementAfterFailure(large, chooseEngine(large))).toEqual({
      accelerator: 'cpu',
      reason: 'the WebGPU engine failed to load',
    });
    const forcedLarge = { ...base, forceWebGpu: true, memory64: true };
    expect(placementAfterFailure(forcedLarge, chooseEngine(forcedLarge))).toBeNull();
  });
});
