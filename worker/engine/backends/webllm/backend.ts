import type { InitProgressReport, ModelRecord } from '@mlc-ai/web-llm';
import { ServiceUnavailableError } from '#core/domain/errors';
import type { LoadProgress, ModelSpec } from '#core/domain/model-spec';
import type { WebLLMSource } from '#core/domain/webllm-source';
import type { Backend, LoadedModel } from '../../backend';
import { importWebLLM } from '../../engine-assets';
import type { ModelCard } from '#core/domain/model-card';
import { catalogueCards } from './catalogue';
import { DEFAULT_CONTEXT, webllmContext } from './context-window';
import { adapterFacts, pickVariant } from './device';
import { isEmbeddingRecord } from './embedder';
import { WebLLMEmbeddingModel } from './embedding-model';
import { mapLoadError } from './errors';
import { WebLLMModel } from './model';
import { prefetchModel, type Prefetched } from './prefetch';
import { variantRecords } from './records';
import { artifactStore } from './store';

/**
 * The KV window WebLLM loads `record` with when told none: the record's `overrides` win over
 * mlc-chat-config.json (as in WebLLM's `reload`); -1 for a sliding window or when not known.
 */
function configuredWindow(record: ModelRecord, prefetched: Prefetched | null): number {
  const overrides = record.overrides ?? {};
  if ((overrides.sliding_window_size ?? -1) > 0) return -1;
  return overrides.context_window_size ?? prefetched?.contextWindow ?? -1;
}

/** The source of a `webllm` spec (503 for any other kind). */
export function webllmSource(spec: ModelSpec): WebLLMSource {
  if (spec.source.kind !== 'webllm')
    throw new ServiceUnavailableError(`'${spec.id}' is not a WebLLM model.`, 'model_load_failed');
  return spec.source;
}

/**
 * The `webllm` backend: WebLLM's `MLCEngine` on WebGPU, one engine per model, inside our
 * engine worker. Loading: WebGPU adapter check -> variant choice (f32 without `shader-f16`) ->
 * download into WebLLM's cache with per-file progress -> `reload()` (model library, weights).
 */
export class WebLLMBackend implements Backend {
  readonly name = 'webllm' as const;

  async load(spec: ModelSpec, onProgress: (progress: LoadProgress) => void): Promise<LoadedModel> {
    const source = webllmSource(spec);
    const webllm = await importWebLLM();
    const records = variantRecords(source.variants, webllm.prebuiltAppConfig.model_list);
    const record = pickVariant(records, await adapterFacts(), spec.id);
    const cacheBackend = source.cache ?? 'cache';
    const context = { model: spec.id, variant: record.model_id, modelLib: record.model_lib, libraryLoaded: false };
    const tag = (progress: LoadProgress): LoadProgress => ({ ...progress, model: spec.id });
    try {
      const store = artifactStore(cacheBackend);
      const prefetched: Prefetched | null = store
        ? await prefetchModel(record, store, (p) => onProgress(tag(p)), new AbortController().signal)
        : null;
      const engine = new webllm.MLCEngine({
        appConfig: { model_list: [record], cacheBackend },
        logLevel: 'WARN',
        initProgressCallback: (report: InitProgressReport) => {
          context.libraryLoaded = true;
          onProgress({ model: spec.id, phase: 'load', fraction: report.progress, text: report.text });
        },
      });
      onProgress({ model: spec.id, phase: 'load', fraction: 0, text: `Loading ${record.model_id}` });
      // An embedding build's context is compiled in (WebLLM refuses one unequal to its prefill chunk).
      const embedding = isEmbeddingRecord(record);
      const configured = configuredWindow(record, prefetched);
      const { contextLength, window } = embedding
        ? { contextLength: configured > 0 ? configured : DEFAULT_CONTEXT, window: null }
        : webllmContext(spec.contextLength, configured);
      await engine.reload(record.model_id, window === null ? undefined : { context_window_size: window });
      const details = {
        variant: record.model_id,
        accelerator: 'webgpu' as const,
        ...(prefetched ? { size_bytes: prefetched.sizeBytes, cached: prefetched.cached } : {}),
      };
      if (embedding)
        return new WebLLMEmbeddingModel(
          engine,
          record,
          contextLength,
          prefetched?.vocabSize || Number.MAX_SAFE_INTEGER,
          details,
        );
      return new WebLLMModel(
        engine,
        record.model_id,
        contextLength,
        prefetched?.vocabSize || Number.MAX_SAFE_INTEGER,
        details,
      );
    } catch (error) {
      throw mapLoadError(error, context);
    }
  }

  private listing: { at: number; cards: Promise<ModelCard[]> } | undefined;

  /** The prebuilt catalogue this adapter can run (none without a WebGPU adapter), cached flags included; reused for 10 s. */
  catalogue(): Promise<ModelCard[]> {
    if (!this.listing || Date.now() - this.listing.at > 10_000)
      this.listing = { at: Date.now(), cards: this.listCatalogue() };
    return this.listing.cards;
  }

  private async listCatalogue(): Promise<ModelCard[]> {
    const facts = await adapterFacts().catch(() => null);
    if (!facts) return [];
    const webllm = await importWebLLM();
    const records = webllm.prebuiltAppConfig.model_list;
    const appConfig = { model_list: records, cacheBackend: 'cache' as const };
    const cached = new Set<string>();
    for (const record of records)
      if (await webllm.hasModelInCache(record.model_id, appConfig).catch(() => false)) cached.add(record.model_id);
    return catalogueCards(records, facts, cached);
  }

  /** Whether every file of `spec`'s chosen-first variant is in WebLLM's cache (WebLLM's own check). */
  async isCached(spec: ModelSpec): Promise<boolean> {
    const { webllm, records, appConfig } = await this.appConfig(spec);
    for (const record of records) if (await webllm.hasModelInCache(record.model_id, appConfig)) return true;
    return false;
  }

  /** Deletes every variant of `spec` from WebLLM's cache (weights, tokenizer, config, library). */
  async deleteCached(spec: ModelSpec): Promise<void> {
    const { webllm, records, appConfig } = await this.appConfig(spec);
    for (const record of records) await webllm.deleteModelAllInfoInCache(record.model_id, appConfig);
  }

  private async appConfig(spec: ModelSpec) {
    const source = webllmSource(spec);
    const webllm = await importWebLLM();
    const records: ModelRecord[] = variantRecords(source.variants, webllm.prebuiltAppConfig.model_list);
    return { webllm, records, appConfig: { model_list: records, cacheBackend: source.cache ?? 'cache' } };
  }
}
