import type { ModelRecord } from '@mlc-ai/web-llm';
import { ServiceUnavailableError } from '#core/domain/errors';
import { needsShaderF16 } from './records';

/** What WebLLM's runtime needs from the adapter at least (its `detectGPUDevice` fallbacks). */
const MIN_LIMITS = {
  maxStorageBufferBindingSize: 1 << 27,
  maxBufferSize: 1 << 28,
  maxComputeWorkgroupStorageSize: 32 << 10,
  maxStorageBuffersPerShaderStage: 10,
} as const;

/** What the adapter offers, as the variant choice needs it. */
export interface AdapterFacts {
  features: ReadonlySet<string>;
  limits: Record<keyof typeof MIN_LIMITS, number>;
  description: string;
}

let asked: Promise<AdapterFacts> | undefined;

/**
 * Asks the browser for a WebGPU adapter, once per engine worker (Chromium logs "No available
 * adapters." for each ask that finds none): 503 `webgpu_unavailable` when there is none.
 */
export function adapterFacts(): Promise<AdapterFacts> {
  asked ??= askAdapter();
  return asked;
}

async function askAdapter(): Promise<AdapterFacts> {
  const gpu = 'gpu' in navigator ? navigator.gpu : undefined;
  if (!gpu) {
    throw new ServiceUnavailableError(
      "WebGPU is not available in this browser (no navigator.gpu): the webllm backend needs it. Use a browser with WebGPU, or start with backend: 'auto' to fall back to the CPU backend.",
      'webgpu_unavailable',
    );
  }
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) {
    throw new ServiceUnavailableError(
      "No WebGPU adapter: the GPU is missing, blocklisted or disabled in this browser. Enable WebGPU (chrome://gpu shows why), or start with backend: 'auto' to fall back to the CPU backend.",
      'webgpu_unavailable',
    );
  }
  const { limits } = adapter;
  return {
    features: new Set(adapter.features),
    limits: {
      maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
      maxBufferSize: limits.maxBufferSize,
      maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize,
      maxStorageBuffersPerShaderStage: limits.maxStorageBuffersPerShaderStage,
    },
    description: [adapter.info.vendor, adapter.info.architecture, adapter.info.description].filter(Boolean).join(' '),
  };
}

/**
 * The first variant this adapter can run (pure; unit-tested): enough limits, `shader-f16` when
 * the build is f16 (checked from the quantization, not only the declared features).
 */
export function pickVariant(records: ModelRecord[], facts: AdapterFacts, model: string): ModelRecord {
  for (const [name, minimum] of Object.entries(MIN_LIMITS)) {
    const have = facts.limits[name as keyof typeof MIN_LIMITS];
    if (have < minimum) {
      throw new ServiceUnavailableError(
        `The GPU's WebGPU limit ${name} is ${have}, below the ${minimum} WebLLM needs (${facts.description}): use backend 'auto' to fall back to the CPU backend.`,
        'webgpu_limits_too_low',
      );
    }
  }
  const fitting = records.filter(
    (record) => (record.buffer_size_required_bytes ?? 0) <= facts.limits.maxStorageBufferBindingSize,
  );
  if (fitting.length === 0) {
    throw new ServiceUnavailableError(
      `'${model}' needs a larger maxStorageBufferBindingSize than this GPU's ${facts.limits.maxStorageBufferBindingSize} bytes: use a smaller model.`,
      'webgpu_limits_too_low',
    );
  }
  const runnable = fitting.find((record) => {
    const features = (record.required_features ?? []).filter((feature) => feature !== 'shader-f16');
    return (
      features.every((feature) => facts.features.has(feature)) &&
      (!needsShaderF16(record) || facts.features.has('shader-f16'))
    );
  });
  if (runnable) return runnable;
  const f16 = fitting.some(needsShaderF16) && !facts.features.has('shader-f16');
  if (f16) {
    throw new ServiceUnavailableError(
      `'${model}' is an f16 build and this GPU lacks the WebGPU feature 'shader-f16' (${facts.description}), and no q4f32/q0f32 variant is known: use an f32 build of the model.`,
      'shader_f16_unavailable',
    );
  }
  throw new ServiceUnavailableError(
    `This GPU lacks a WebGPU feature '${model}' needs (${(fitting[0]?.required_features ?? []).join(', ')}).`,
    'webgpu_feature_unavailable',
  );
}
