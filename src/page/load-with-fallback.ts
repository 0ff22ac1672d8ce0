/**
 * Loads the primary model; when its backend says the failure means it cannot run here (WebLLM
 * without WebGPU, say) and there is a fallback (`backend: 'auto'`), loads the fallback instead.
 * Resolves with the spec that serves.
 */
import type { Remote } from 'comlink';
import type { EngineApi } from '../core/protocol/engine-api';
import type { LoadProgress, ModelSpec } from '../core/domain/model-spec';
import { PAGE_BACKENDS } from './backends/registry';
import type { ResolvedModels } from './resolve-backend';

export async function loadWithFallback(
  engine: Remote<EngineApi>,
  models: ResolvedModels,
  report: (progress: LoadProgress) => void,
): Promise<ModelSpec> {
  try {
    await engine.load(models.primary, report);
    return models.primary;
  } catch (error) {
    if (!models.fallback || !PAGE_BACKENDS[models.primary.backend].fallsBackOn(error)) throw error;
    await engine.load(models.fallback, report);
    return models.fallback;
  }
}
