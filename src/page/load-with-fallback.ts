import type { Remote } from 'comlink';
import { OpenAIError } from '../core/errors';
import type { LoadProgress, ModelSpec } from '../core/model-spec';
import { WEBGPU_ERROR_CODES } from '../core/webllm-source';
import type { EngineApi } from '../core/engine-api';
import type { ResolvedModels } from './resolve-backend';

/**
 * Loads the primary model; when it fails because WebGPU cannot serve (no WebGPU, no adapter,
 * no `shader-f16` build, limits too low, device lost) and there is a fallback (`backend:
 * 'auto'`), loads the llama.cpp fallback instead. Resolves with the spec that serves.
 */
export async function loadWithFallback(engine: Remote<EngineApi>, models: ResolvedModels, report: (progress: LoadProgress) => void): Promise<ModelSpec> {
  try {
    await engine.load(models.primary, report);
    return models.primary;
  } catch (error) {
    const gpu = error instanceof OpenAIError && error.code !== null && WEBGPU_ERROR_CODES.has(error.code);
    if (!models.fallback || !gpu) throw error;
    await engine.load(models.fallback, report);
    return models.fallback;
  }
}
