/**
 * A model's LoRA adapters from its spec to its engine: downloaded into the model store with the
 * model, before the load (their bytes count in the heap's: backend.ts), each checked before
 * llama.cpp sees it (validate-lora.ts; a bad file's stored copy is dropped), then loaded into the
 * model's engine in order, where llama.cpp checks it against the model. An adapter that fails
 * either check is a 503 `model_load_failed` naming it and the model, with the reason.
 */
import { ServiceUnavailableError } from '#core/domain/errors';
import type { LoraAdapterInfo } from '#core/domain/lora';
import type { LoraAdapterSpec, ModelSpec } from '#core/domain/model-spec';
import { validateLora, type LoraFileInfo } from '#gguf/validate-lora';
import type { ModelBlob } from '../../model-store/store-model';
import { EngineError } from './engine-error';
import type { LlamaWasm } from './llama-wasm';
import { LoraAdapters } from './lora-adapters';
import { checkFile } from './model-file';

/** An adapter downloaded and checked: its file and what `/lora-adapters` lists of it. */
export interface FetchedAdapter {
  adapter: LoraAdapterSpec;
  file: ModelBlob;
  info: LoraFileInfo;
}

const refusal = (spec: ModelSpec, adapter: LoraAdapterSpec, why: string, cause?: unknown) =>
  new ServiceUnavailableError(
    `The LoRA adapter '${adapter.id}' cannot be loaded for '${spec.id}': ${why}.`,
    'model_load_failed',
    cause === undefined ? undefined : { cause },
  );

/** Downloads (`fetchFiles`, as a model's files) and checks `spec`'s adapters, in order. */
export async function fetchAdapters(
  spec: ModelSpec,
  fetchFiles: (asModel: ModelSpec) => Promise<ModelBlob[]>,
): Promise<FetchedAdapter[]> {
  const fetched: FetchedAdapter[] = [];
  for (const adapter of spec.lora ?? []) {
    const [file] = await fetchFiles({ id: adapter.id, backend: 'llamacpp', source: adapter.source });
    if (!file) throw refusal(spec, adapter, 'it has no file');
    const info = await checkFile(
      adapter.source,
      () => validateLora(file.blob),
      (error) => refusal(spec, adapter, error.message, error),
    );
    fetched.push({ adapter, file, info });
  }
  return fetched;
}

/** Loads the fetched adapters into the model's `engine`, in order (an adapter's id is its place). */
export async function loadAdapters(
  spec: ModelSpec,
  engine: LlamaWasm,
  fetched: FetchedAdapter[],
): Promise<LoraAdapters> {
  const loaded: LoraAdapterInfo[] = [];
  for (const { adapter, file, info } of fetched) {
    try {
      const id = await engine.loadLora({ name: file.name, blob: file.blob });
      const path = adapter.source.kind === 'url' ? adapter.source.url : adapter.id;
      loaded.push({ id, path, scale: adapter.scale, task_name: info.taskName, prompt_prefix: info.promptPrefix });
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      throw refusal(spec, adapter, error.message, error);
    }
  }
  return new LoraAdapters(loaded);
}
