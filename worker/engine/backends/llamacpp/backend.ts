import { ServiceUnavailableError } from '#core/domain/errors';
import type { DraftModelSpec, LoadProgress, ModelSpec, ProjectorSpec } from '#core/domain/model-spec';
import type { GgufValue } from '#gguf/read-gguf-metadata';
import { draftVocabularyMismatch } from '#gguf/draft-vocabulary';
import { DraftModel } from './draft-model';
import { validateGgufParts } from '#gguf/validate-gguf';
import { ggufMeta } from '#gguf/model-meta';
import { validateProjector } from '#gguf/validate-projector';
import type { LoraAdapters } from './lora-adapters';
import { fetchAdapters, loadAdapters } from './lora-load';
import { randomMediaMarker, type Projector } from './projector';
import { chatTemplateFromMetadata } from '#gguf/chat-template';
import { vocabularyFromMetadata } from '#gguf/vocabulary';
import { buildInpageTestModel, inpageTestSpec } from '#builtin-model/inpage-test-model';
import type { Backend, LoadedModel } from '../../backend';
import { llamaEngineFiles } from '../../engine-assets';
import {
  engineGpuCrashed,
  engineGpuLayers,
  engineSlots,
  engineThreads,
  promptCacheSettings,
} from '../../engine-settings';
import { chooseModelAccelerator, fitModelToGpu, tellPlacement } from './webgpu-probe';
import { retireWorker } from '../../retire-worker';
import { EngineGuard } from './engine-guard';
import { memoryLimit, tooLarge } from './memory-limit';
import { archNumber } from './arch-metadata';
import { fitPositions, isEncoder } from './encoder-model';
import { attentionBytes, hostShare, needsMemory64 } from './heap-choice';
import { hasMemory64 } from '#core/util/memory64';
import { hasRelaxedSimd } from '#core/util/relaxed-simd';
import { EngineError } from './engine-error';
import { LlamaWasm } from './llama-wasm';
import type { ModelBlob } from '../../model-store/store-model';
import { checkFile, forgetModelFiles, isStoredSource, modelFiles, modelFilesStored } from './model-file';
import { LlamaCppModel } from './model';
import { testF32CacheMib, testKeepGpuPlacement, testMemory64, testWebGpuBuild } from './test-memory';
import {
  chooseEngine,
  placementAfterFailure,
  placementAfterLoad,
  type EngineChoice,
  type EngineNeeds,
} from './engine-choice';
import { fitWasm32Heap, MAX_GPU_LAYERS, type AcceleratorChoice } from '#core/domain/accelerator';
import { PromptCache, readLatestState } from '../../prompt-cache/prompt-cache';
import { announceStart } from '../../announce-start';
import type { KvCacheType } from '#core/domain/tokenize';
import { modelFingerprints, stateKey } from '../../prompt-cache/state-key';

/**
 * Whether a projector asks for the GPU (mtmd's `use_gpu`, llama-server's default
 * `--mmproj-offload`). Not yet: the projector's graph has F16 tensors of its own (its patch
 * embedding's im2col, flash attention's K and V), which SwiftShader's f16-rewrite probe cannot
 * compute; its F32 ops there give the CPU's answer (docs/webgpu.md). node-engine.ts asks for it,
 * for a real GPU to decide.
 */
const PROJECTOR_ON_GPU = false;

declare const __INPAGE_TEST_HOOKS__: boolean;

const DEFAULT_CONTEXT = 4096;

/** The KV cache types a model may get (native/attention.cpp), in the order of its state keys. */
const KV_CACHE_TYPES: readonly KvCacheType[] = ['f32', 'f16'];

export { MAX_MODEL_BYTES } from './memory-limit';

/**
 * The largest KV cache kept in F32 (flash attention off), in MiB: above it a model keeps
 * llama.cpp's F16 cache (native/attention.cpp; F32 decodes ~2x as fast in wasm, at twice the
 * memory). 512 MiB covers 1-2B models at 4,096 tokens.
 */
export const F32_CACHE_MIB = 512;

/**
 * Runs `model`'s first evaluation: a crash there fails the load (503 `model_load_failed`) with
 * why. A failure the glue reports (`EngineError`: it refused the tiny prompt) leaves the engine
 * sound, and the model's own requests say what they need.
 */
async function firstEvaluation(id: string, model: LlamaCppModel): Promise<void> {
  try {
    await model.firstEvaluation();
  } catch (error) {
    if (error instanceof EngineError) return;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ServiceUnavailableError(
      `'${id}' loaded, but its first evaluation failed: ${reason}`,
      'model_load_failed',
      { cause: error },
    );
  }
}

/**
 * Runs `load` on `engine`: if the heap could not grow meanwhile, the failure is a 503
 * `engine_out_of_memory` with the heap's size, whatever llama.cpp said. The engine instance is
 * dropped with its heap, so the worker's other models are untouched.
 */
async function loadWithin(id: string, engine: LlamaWasm, load: () => Promise<void>): Promise<void> {
  const failures = engine.memoryFailures();
  try {
    await load();
  } catch (error) {
    if (engine.memoryFailures() === failures) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ServiceUnavailableError(
      `Loading '${id}' ran out of memory: the engine's heap could not grow past ` +
        `${Math.round(engine.heapBytes() / (1024 * 1024))} MiB (${reason}). Close other tabs or ` +
        'unload models, or use a smaller model or a shorter context.',
      'engine_out_of_memory',
      { cause: error },
    );
  }
}

/** What a draft model is loaded with: the model's engine build, threads and GPU layers, and its context. */
interface DraftSetup {
  choice: EngineChoice;
  contextLength: number;
  f32CacheMib: number;
  slots: number;
}

/**
 * The `llamacpp` backend: llama.cpp built from source for wasm by this project (native/), on the
 * CPU, or with its layers on the GPU in the WebGPU build where the browser runs it
 * (engine-choice.ts; the card's `accelerator_reason` says why not where it does not).
 */
export class LlamaCppBackend implements Backend {
  readonly name = 'llamacpp' as const;

  async load(spec: ModelSpec, onProgress: (progress: LoadProgress) => void): Promise<LoadedModel> {
    const requestedContext =
      spec.contextLength ?? (spec.source.kind === 'builtin' ? inpageTestSpec.contextLength : DEFAULT_CONTEXT);
    try {
      // Asked while the model downloads: where it will run (its card's `accelerator`).
      const gpuLayers = engineGpuLayers();
      const placing = chooseModelAccelerator(gpuLayers, engineGpuCrashed());
      const files = await this.fetchModel(spec, onProgress);
      // LoRA adapters download with the model, before the load: their bytes are the heap's too.
      const adapters = await fetchAdapters(spec, (asModel) =>
        this.fetchModel(asModel, (progress) => onProgress({ ...progress, model: spec.id })),
      );
      // So does the projector, checked before the model loads; on the CPU its weights are the heap's.
      const projectorFile = spec.mmproj ? await this.fetchProjector(spec, spec.mmproj, onProgress) : null;
      const projectorBytes = projectorFile?.blob.size ?? 0;
      const besideBytes = adapters.reduce((sum, { file }) => sum + file.blob.size, 0) + projectorBytes;
      const besideOnHost = besideBytes - (PROJECTOR_ON_GPU ? projectorBytes : 0);
      onProgress({ model: spec.id, phase: 'load', fraction: 0 });
      const limit = memoryLimit();
      const size = files.reduce((sum, file) => sum + file.blob.size, 0);
      if (size + besideBytes > limit.bytes)
        throw tooLarge(
          spec.id,
          size + besideBytes,
          files.length + adapters.length + (projectorFile ? 1 : 0) > 1 ? 'its files' : 'its file',
          limit,
        );
      const { header, metadata } = await this.validate(spec, files);
      const vocab = vocabularyFromMetadata(metadata);
      // A model with learned positions (BERT's) has no context past its trained one; nor has a
      // request on any other (llama-server caps a slot's context at the trained one: n_ctx_slot).
      const slots = engineSlots();
      const trained = archNumber(metadata, 'context_length') ?? Infinity;
      const contextLength = Math.min(fitPositions(requestedContext, header.tensors, metadata), trained * slots);
      const cache = promptCacheSettings();
      // The state a reload wants, read while the model loads (for either cache type it may get).
      const keysFor = async (fingerprints: string[]) =>
        Promise.all(KV_CACHE_TYPES.map((kvCacheType) => stateKey(fingerprints, { contextLength, kvCacheType })));
      // With LoRA adapters, saved states hold what they gave at the load's scales: the key names
      // each adapter's file and scale, and only requests at those scales use them (lora-adapters.ts).
      const fingerprints = async () => [
        ...(await modelFingerprints(files)),
        ...(await modelFingerprints(adapters.map(({ file }) => file))).map(
          (print, i) => `lora ${print} ${adapters[i]?.adapter.scale ?? 0}`,
        ),
      ];
      const keys = cache.enabled ? fingerprints().then(keysFor) : null;
      const latest = keys ? keys.then((both) => readLatestState(both, cache)).catch(() => null) : Promise.resolve(null);
      const f32CacheMib = (__INPAGE_TEST_HOOKS__ ? testF32CacheMib() : undefined) ?? F32_CACHE_MIB;
      // memory64 only where wasm32's heap cannot hold the model and its KV cache, and the browser runs it.
      const attention = attentionBytes(metadata, size, contextLength, f32CacheMib, slots);
      const cacheBytes = attention.cache;
      // The context checkpoints stay in the heap wherever the layers run (native/checkpoints.cpp).
      const onHost = besideOnHost + attention.checkpoints;
      const forced64 = __INPAGE_TEST_HOOKS__ ? testMemory64() : null;
      const memory64 = hasMemory64() && (needsMemory64(size + onHost, cacheBytes) || forced64 !== null);
      // On the GPU, only what stays on the CPU (hostShare) must fit the wasm32 WebGPU build's heap,
      // and only the tensors offloaded must each fit one of the GPU's buffer bindings.
      const host = hostShare(header.tensors, metadata, gpuLayers === 'all' ? MAX_GPU_LAYERS : gpuLayers, cacheBytes);
      const hostMemory64 = needsMemory64(host.weights + onHost, host.cache) || forced64 === 'all';
      const { engine, choice, placement } = await this.startEngine(
        spec.id,
        {
          placement: fitWasm32Heap(await fitModelToGpu(await placing, host.largestOnGpu), hostMemory64),
          gpuLayers,
          threads: engineThreads(),
          memory64,
          relaxed: hasRelaxedSimd(),
          forceWebGpu: __INPAGE_TEST_HOOKS__ && testWebGpuBuild(),
        },
        (started, { threads, gpuLayers: offload }) =>
          started.load(files, contextLength, threads, f32CacheMib, slots, offload),
      );
      let draft: DraftModel | null = null;
      try {
        if (spec.draft)
          draft = await this.loadDraft(
            spec,
            spec.draft,
            metadata,
            { choice, contextLength, f32CacheMib, slots },
            onProgress,
          );
      } catch (error) {
        engine.dispose();
        throw error;
      }
      let projector: Projector | null = null;
      let lora: LoraAdapters;
      try {
        if (spec.mmproj && projectorFile)
          projector = await this.loadProjector(spec, spec.mmproj, engine, projectorFile);
        lora = await loadAdapters(spec, engine, adapters);
      } catch (error) {
        engine.dispose();
        throw error;
      }
      const template = chatTemplateFromMetadata(metadata, vocab);
      const key = keys ? (await keys)[KV_CACHE_TYPES.indexOf(engine.info().kvCacheType)] : undefined;
      const promptCache = key ? PromptCache.open(key, cache) : null;
      tellPlacement(spec.id, placement);
      const model = new LlamaCppModel(
        engine,
        // A crash on the GPU (a lost device, say) keeps the page's next engines on the CPU.
        new EngineGuard(spec.id, engine, (reason) => retireWorker(reason, placement.accelerator === 'webgpu')),
        vocab,
        // With slots, a request has its slot's cache stream, at most the trained context (llama-server's n_ctx_slot).
        Math.min(slots > 1 ? engine.info().slotContext : contextLength, trained),
        template,
        { prefill: choice.threads.prefill, decode: choice.threads.decode },
        promptCache,
        slots,
        draft,
        projector,
        placement,
        isEncoder(metadata),
        lora,
        ggufMeta(header, metadata),
      );
      await firstEvaluation(spec.id, model);
      await model.warmStart(await latest);
      return model;
    } catch (error) {
      if (error instanceof ServiceUnavailableError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ServiceUnavailableError(
        `Loading '${spec.id}' on the llamacpp backend failed: ${reason}`,
        'model_load_failed',
        { cause: error },
      );
    }
  }

  /**
   * Starts the engine build `needs` call for and loads the model in it (`load`). Where the model
   * was placed on the GPU and the WebGPU build then got no GPU device (ggml-webgpu registered
   * none: the adapter gave no device, or one without what its shaders need), or starting it or
   * the load threw (its files missing, a trap or ggml-webgpu's `abort()` on a device error), the
   * model loads again in the CPU build, and the placement says why (engine-choice.ts's
   * `placementAfterLoad` and `placementAfterFailure`; the console has the error).
   */
  private async startEngine(
    id: string,
    needs: EngineNeeds,
    load: (engine: LlamaWasm, choice: EngineChoice) => Promise<void>,
  ): Promise<{ engine: LlamaWasm; choice: EngineChoice; placement: AcceleratorChoice }> {
    const startAndLoad = (choice: EngineChoice) => this.startLoaded(id, choice, (engine) => load(engine, choice));
    const onCpu = async (placement: AcceleratorChoice) => {
      const cpu = chooseEngine({ ...needs, placement, forceWebGpu: false });
      return { engine: await startAndLoad(cpu), choice: cpu, placement };
    };
    const choice = chooseEngine(needs);
    let engine: LlamaWasm;
    try {
      engine = await startAndLoad(choice);
    } catch (error) {
      const failed = placementAfterFailure(needs, choice);
      if (!failed) throw error;
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      console.warn(`[inpage-llm] The WebGPU engine failed to load '${id}' (${reason}); it loads on the CPU.`);
      return onCpu(failed);
    }
    const keep = __INPAGE_TEST_HOOKS__ && testKeepGpuPlacement();
    const after = keep ? null : placementAfterLoad(needs, choice, engine.info().gpuDevices);
    if (!after) return { engine, choice, placement: needs.placement };
    engine.dispose();
    return onCpu(after);
  }

  /**
   * Starts an engine instance of `choice`'s build, with a pool for its threads, and loads a
   * model in it (`load`, within the load's time limit); an instance whose load fails is disposed.
   */
  private async startLoaded(
    id: string,
    choice: EngineChoice,
    load: (engine: LlamaWasm) => Promise<void>,
  ): Promise<LlamaWasm> {
    const pool = Math.max(choice.threads.prefill, choice.threads.decode);
    // Watched by the page while it starts: Firefox can block the worker for good there (announce-start.ts).
    const engine = await announceStart(() => LlamaWasm.start(llamaEngineFiles(choice.build), pool));
    try {
      await loadWithin(id, engine, () => load(engine));
    } catch (error) {
      engine.dispose();
      throw error;
    }
    return engine;
  }

  /**
   * Loads `spec`'s draft model (speculative decoding with `draft-simple`) in an engine instance
   * of its own, with the model's context and threads: downloaded, stored and checked as a model
   * is, and refused (503 `model_load_failed`, naming both) where its vocabulary is not the model's
   * (draft-vocabulary.ts). It has the model's slots, a sequence for each slot's drafts.
   */
  private async loadDraft(
    spec: ModelSpec,
    draftSpec: DraftModelSpec,
    metadata: Map<string, GgufValue>,
    setup: DraftSetup,
    onProgress: (progress: LoadProgress) => void,
  ): Promise<DraftModel> {
    const refuse = (why: string) =>
      new ServiceUnavailableError(
        `The draft model '${draftSpec.id}' cannot draft for '${spec.id}': ${why}.`,
        'model_load_failed',
      );
    const draftModelSpec: ModelSpec = { id: draftSpec.id, backend: 'llamacpp', source: draftSpec.source };
    const files = await this.fetchModel(draftModelSpec, (progress) => onProgress({ ...progress, model: spec.id }));
    const { metadata: draftMetadata } = await this.validate(draftModelSpec, files);
    const mismatch = draftVocabularyMismatch(metadata, draftMetadata);
    if (mismatch) throw refuse(`its vocabulary is not the model's (${mismatch})`);
    const { choice, contextLength, f32CacheMib, slots } = setup;
    const engine = await this.startLoaded(draftSpec.id, choice, (started) =>
      started.load(files, contextLength, choice.threads, f32CacheMib, slots, choice.gpuLayers),
    );
    return DraftModel.create(draftSpec.id, engine, setup.slots);
  }

  /**
   * Loads `spec`'s projector into its engine: downloaded, stored and checked as a model is
   * (validate-projector.ts), then llama.cpp's mtmd checks it against the model. A projector that
   * does not fit is a 503 `model_load_failed` naming both, with llama.cpp's reason.
   */
  /** The projector's file, downloaded with the model (progress under the model's id) and checked. */
  private async fetchProjector(
    spec: ModelSpec,
    projectorSpec: ProjectorSpec,
    onProgress: (progress: LoadProgress) => void,
  ): Promise<ModelBlob> {
    const refuse = projectorRefusal(spec, projectorSpec);
    const asModel: ModelSpec = { id: projectorSpec.id, backend: 'llamacpp', source: projectorSpec.source };
    const [file] = await this.fetchModel(asModel, (progress) => onProgress({ ...progress, model: spec.id }));
    if (!file) throw refuse('it has no file');
    await checkFile(
      projectorSpec.source,
      () => validateProjector(file.blob),
      (error) => refuse(error.message, error),
    );
    return file;
  }

  private async loadProjector(
    spec: ModelSpec,
    projectorSpec: ProjectorSpec,
    engine: LlamaWasm,
    file: ModelBlob,
  ): Promise<Projector> {
    const refuse = projectorRefusal(spec, projectorSpec);
    const marker = randomMediaMarker();
    try {
      const loaded = { name: file.name, blob: file.blob };
      const { modalities, onGpu } = await engine.loadProjector(loaded, marker, PROJECTOR_ON_GPU);
      return { id: projectorSpec.id, modalities, accelerator: onGpu ? 'webgpu' : 'cpu', marker };
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      throw refuse(error.message, error);
    }
  }

  /**
   * Checks the file before llama.cpp sees it (src/gguf/validate-gguf.ts): a bad one is a 503
   * naming what is wrong, and its cached copy is dropped so that a fixed file is downloaded.
   */
  private validate(spec: ModelSpec, files: ModelBlob[]) {
    return checkFile(
      spec.source,
      () => validateGgufParts(files.map((file) => file.blob)),
      (error) =>
        new ServiceUnavailableError(
          `'${spec.id}' is not a GGUF file llama.cpp can load: ${error.message}.`,
          'model_load_failed',
          { cause: error },
        ),
    );
  }

  /** Whether `spec`'s files are in the model store (the built-in model needs none). */
  async isCached(spec: ModelSpec): Promise<boolean> {
    if (spec.source.kind === 'builtin') return true;
    return isStoredSource(spec.source) && modelFilesStored(spec.source);
  }

  /** Deletes `spec`'s files from the model store. */
  async deleteCached(spec: ModelSpec): Promise<void> {
    if (isStoredSource(spec.source)) await forgetModelFiles(spec.source);
  }

  /** The model's GGUF files: generated in memory, or from the model store (downloaded into it with progress). */
  private async fetchModel(spec: ModelSpec, onProgress: (progress: LoadProgress) => void): Promise<ModelBlob[]> {
    if (spec.source.kind === 'builtin') return [{ name: 'model.gguf', blob: new Blob([buildInpageTestModel()]) }];
    if (!isStoredSource(spec.source))
      throw new ServiceUnavailableError(
        `'${spec.id}' is not a GGUF model: use the webllm backend for it.`,
        'model_load_failed',
      );
    return modelFiles(spec.id, spec.source, onProgress);
  }
}

/** A 503 `model_load_failed` saying why `projectorSpec` cannot be loaded for `spec`. */
function projectorRefusal(spec: ModelSpec, projectorSpec: ProjectorSpec) {
  return (why: string, cause?: unknown) =>
    new ServiceUnavailableError(
      `The projector '${projectorSpec.id}' cannot be loaded for '${spec.id}': ${why}.`,
      'model_load_failed',
      cause === undefined ? undefined : { cause },
    );
}
