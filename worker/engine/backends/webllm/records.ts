import type { ModelRecord } from '@mlc-ai/web-llm';
import { NotFoundError } from '#core/domain/errors';
import type { WebLLMVariant } from '#core/domain/webllm-source';
import { EMBEDDING_MODEL_TYPE } from './embedder';

/** The f32 twin of an f16 build id (`q4f16_1` -> `q4f32_1`, `q0f16` -> `q0f32`), or null. */
export function f32Twin(id: string): string | null {
  const twin = id.replace(/q4f16_(\d)/, 'q4f32_$1').replace(/q0f16/, 'q0f32');
  return twin === id ? null : twin;
}

/** Whether a build needs `shader-f16`: declared, or an f16 quantization (several catalogue entries do not declare it). */
export function needsShaderF16(record: ModelRecord): boolean {
  const names = [record.model_id, record.model_lib, record.model].join(' ');
  return (record.required_features ?? []).includes('shader-f16') || /q\d+f16/.test(names);
}

/**
 * WebLLM folder URL for a self-hosted folder: WebLLM appends `resolve/main/` to any model URL
 * without a `resolve/<rev>/` part (the Hugging Face layout). A plain folder gets that part in
 * its fragment, which every relative lookup WebLLM makes drops again.
 */
export function webllmFolderUrl(url: string): string {
  const folder = url.endsWith('/') ? url : `${url}/`;
  if (/\/resolve\/[^/]+\//.test(folder)) return folder;
  const host = new URL(folder).hostname;
  if (host === 'huggingface.co' || host === 'hf.co') return `${folder}resolve/main/`;
  return `${folder}#/resolve/main/`;
}

function toRecord(variant: WebLLMVariant, catalogue: ModelRecord[]): ModelRecord {
  if (variant.url === undefined) {
    const record = catalogue.find((entry) => entry.model_id === variant.id);
    if (!record) {
      throw new NotFoundError(
        `'${variant.id}' is not in WebLLM's model catalogue (prebuiltAppConfig): use a catalogue id or a self-hosted model { id, url, modelLib }.`,
        'model',
      );
    }
    return record;
  }
  if (!variant.modelLib)
    throw new NotFoundError(`The self-hosted WebLLM model '${variant.id}' needs a modelLib (.wasm) URL.`, 'model');
  return {
    model: webllmFolderUrl(variant.url),
    model_id: variant.id,
    model_lib: variant.modelLib,
    ...(variant.requiredFeatures ? { required_features: variant.requiredFeatures } : {}),
    ...(variant.embedding ? { model_type: EMBEDDING_MODEL_TYPE } : {}),
  };
}

/** The WebLLM records of a model's variants, in preference order; catalogue f16 builds gain their f32 twin. */
export function variantRecords(variants: WebLLMVariant[], catalogue: ModelRecord[]): ModelRecord[] {
  const records: ModelRecord[] = [];
  for (const variant of variants) {
    const record = toRecord(variant, catalogue);
    records.push(record);
    const twin = variant.url === undefined ? f32Twin(record.model_id) : null;
    const twinRecord = twin === null ? undefined : catalogue.find((entry) => entry.model_id === twin);
    if (twinRecord && !variants.some((other) => other.id === twin)) records.push(twinRecord);
  }
  return records;
}
