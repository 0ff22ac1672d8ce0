import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import {
  chooseAccelerator,
  fitGpuLimits,
  fitWasm32Heap,
  hadAdapter,
  MAX_GPU_LAYERS,
  parseGpuLayers,
  readGpuLayers,
  type WebGpuFacts,
} from '../../../../../src/core/domain/accelerator';

const LIMITS = { maxStorageBufferBindingSize: 128 * 2 ** 20 };
const ALL: WebGpuFacts = { gpu: true, adapter: true, shaderF16: true, jspi: true, engine: true, limits: LIMITS };

describe('where a GGUF model runs', () => {
  it('takes the GPU only where everything is there', () => {
    expect(chooseAccelerator('all', ALL)).toEqual({ accelerator: 'webgpu' });
    expect(chooseAccelerator(12, ALL)).toEqual({ accelerator: 'webgpu' });
  });

  it('gives the first thing missing as the reason, in order', () => {
    const cases: Array<[Partial<WebGpuFacts>, string]> = [
      [{ gpu: false, adapter: false, shaderF16: false }, 'no WebGPU'],
      [{ adapter: false, shaderF16: false, jspi: false }, 'no WebGPU adapter'],
      [{ shaderF16: false, jspi: false, engine: false }, 'no shader-f16'],
      [{ jspi: false, engine: false }, 'no JSPI'],
      [{ engine: false }, 'no WebGPU engine build'],
    ];
    for (const [missing, reason] of cases)
      expect(chooseAccelerator('all', { ...ALL, ...missing })).toEqual({ accelerator: 'cpu', reason });
  });

  it('says which reasons come past the adapter check (the browser had an adapter)', () => {
    const without = (missing: Partial<WebGpuFacts>) => {
      const choice = chooseAccelerator('all', { ...ALL, ...missing });
      return choice.accelerator === 'cpu' && hadAdapter(choice.reason);
    };
    expect([without({ gpu: false }), without({ adapter: false }), without({ shaderF16: false })]).toEqual([
      false,
      false,
      true,
    ]);
    expect([without({ jspi: false }), without({ engine: false }), hadAdapter('gpu_layers is 0')]).toEqual([
      true,
      true,
      false,
    ]);
    // The reasons met once a model was placed on the GPU: the WebGPU engine ran there.
    const afterPlacing = ['no WebGPU device', 'the WebGPU engine failed to load', 'the WebGPU engine crashed'] as const;
    expect(afterPlacing.map(hadAdapter)).toEqual([true, true, true]);
  });

  it('keeps the CPU where the page asked for it, whatever the browser has', () => {
    expect(chooseAccelerator(0, ALL)).toEqual({ accelerator: 'cpu', reason: 'gpu_layers is 0' });
  });
});

describe("the adapter's limits, once the model's tensors are known", () => {
  const gpu = chooseAccelerator('all', ALL);

  it('keeps the GPU where the largest tensor fits one buffer binding', () => {
    expect(fitGpuLimits(gpu, LIMITS.maxStorageBufferBindingSize, LIMITS)).toEqual({ accelerator: 'webgpu' });
  });

  it('runs the model on the CPU where a tensor is larger, and says so past the adapter check', () => {
    const choice = fitGpuLimits(gpu, LIMITS.maxStorageBufferBindingSize + 1, LIMITS);
    expect(choice).toEqual({ accelerator: 'cpu', reason: 'a tensor past maxStorageBufferBindingSize' });
    expect(choice.accelerator === 'cpu' && hadAdapter(choice.reason)).toBe(true);
  });

  it('leaves a CPU choice as it was', () => {
    const cpu = chooseAccelerator('all', { ...ALL, shaderF16: false });
    expect(fitGpuLimits(cpu, 2 ** 40, LIMITS)).toEqual(cpu);
  });
});

describe("wasm32's heap, once the model's size is known", () => {
  const gpu = chooseAccelerator('all', ALL);

  it('keeps the GPU where wasm32 holds the model and its cache', () => {
    expect(fitWasm32Heap(gpu, false)).toEqual({ accelerator: 'webgpu' });
  });

  it('runs a model that needs memory64 on the CPU (the WebGPU build is wasm32), and says so', () => {
    const choice = fitWasm32Heap(gpu, true);
    expect(choice).toEqual({ accelerator: 'cpu', reason: 'a heap past 4 GiB' });
    expect(choice.accelerator === 'cpu' && hadAdapter(choice.reason)).toBe(true);
  });

  it('leaves a CPU choice as it was', () => {
    const cpu = chooseAccelerator('all', { ...ALL, shaderF16: false });
    expect(fitWasm32Heap(cpu, true)).toEqual(cpu);
  });
});

describe('GPU layers', () => {
  it("takes 'all' and integers from 0 to MAX_GPU_LAYERS", () => {
    expect(readGpuLayers('all', 'gpuLayers')).toBe('all');
    expect(readGpuLayers(0, 'gpuLayers')).toBe(0);
    expect(readGpuLayers(MAX_GPU_LAYERS, 'gpuLayers')).toBe(MAX_GPU_LAYERS);
    expect(parseGpuLayers(' 33 ', '&gpu_layers')).toBe(33);
    expect(parseGpuLayers('ALL', '&gpu_layers')).toBe('all');
  });

  it('refuses anything else with a 400 naming the field', () => {
    for (const bad of [-1, 1.5, MAX_GPU_LAYERS + 1, '4', 'auto', null, true]) {
      expect(() => readGpuLayers(bad, 'gpuLayers')).toThrow(InvalidRequestError);
      expect(() => readGpuLayers(bad, 'gpuLayers')).toThrow(/^gpuLayers: /);
    }
    for (const bad of ['', 'some', '-1', '1e3', '2.5'])
      expect(() => parseGpuLayers(bad, 'data-gpu-layers')).toThrow(/^data-gpu-layers: /);
  });
});
