import type { ModelRecord } from '@mlc-ai/web-llm';
import type { ModelCard } from '#core/domain/model-card';
import { needsShaderF16 } from './records';

/** What the catalogue listing needs of the adapter. */
export interface CatalogueAdapter {
  features: ReadonlySet<string>;
}

/**
 * WebLLM's prebuilt catalogue as `/v1/models` cards (pure; unit-tested): the builds this
 * adapter can run (an f16 build only with `shader-f16`: without it, its q4f32 twin is listed),
 * `status: 'available'` (load one with `inpage.load(id)`), the GPU memory WebLLM says it needs,
 * and whether its files are already cached.
 */
export function catalogueCards(
  records: readonly ModelRecord[],
  adapter: CatalogueAdapter,
  cached: ReadonlySet<string>,
): ModelCard[] {
  return records
    .filter((record) => !needsShaderF16(record) || adapter.features.has('shader-f16'))
    .filter((record) =>
      (record.required_features ?? []).every((feature) => feature === 'shader-f16' || adapter.features.has(feature)),
    )
    .map((record) => ({
      id: record.model_id,
      object: 'model' as const,
      created: 0,
      owned_by: 'mlc-ai',
      backend: 'webllm' as const,
      status: 'available' as const,
      ...(record.vram_required_MB ? { vram_required_mb: Math.round(record.vram_required_MB) } : {}),
      cached: cached.has(record.model_id),
    }));
}
