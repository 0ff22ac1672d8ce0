import type { BackendName } from './backend-name';
import type { ModelCapabilities } from './capabilities';
import type { ThreadCounts } from './threads';
import type { Accelerator, AcceleratorReason } from './accelerator';

/** Where a model stands in its page's engine (`available`: in a catalogue, not loaded). */
export type ModelStatus = 'loading' | 'ready' | 'failed' | 'available';

/** What llama-server's `GET /v1/models` says of its model in `meta`, as it says it. */
export interface ModelMeta {
  /** llama_vocab_type: 1 SPM, 2 BPE, 3 WPM, 4 UGM, 5 RWKV, 6 PLaMo 2 (0: none). */
  vocab_type: number;
  n_vocab: number;
  /** A request's context here (a slot's). */
  n_ctx: number;
  n_ctx_train: number;
  n_embd: number;
  /** Its tensors' elements and bytes. */
  n_params: number;
  size: number;
  /** Its quantization as llama.cpp names it (`Q4_K - Medium`, `all F32`, ...). */
  ftype: string;
}

/** One entry of `GET /v1/models` (OpenAI's model object plus what this runtime knows). */
export interface ModelCard {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  backend: BackendName;
  status: ModelStatus;
  /** Why loading failed, when `status` is `failed`. */
  error?: string;
  /** The stable code of that error (e.g. `webgpu_unavailable`), answered with the model's 503s. */
  error_code?: string;
  context_length?: number;
  /** Download size of the model's files in bytes, where known. */
  size_bytes?: number;
  /** Whether every file of the model was already in the browser's cache when it loaded. */
  cached?: boolean;
  /** GPU memory the model needs, as its catalogue says (WebLLM). */
  vram_required_mb?: number;
  /** The concrete build that was chosen (WebLLM: the q4f32 variant when the GPU lacks shader-f16). */
  variant?: string;
  /** The llama.cpp engine's threads for prompts and for decoding (1 and 1 on a page that is not cross-origin isolated). */
  threads?: ThreadCounts;
  /** The llama.cpp engine's slots: how many requests it decodes together (one KV cache shared). */
  slots?: number;
  /** Its draft model's id (speculative decoding with `draft-simple`), where it has one. */
  draft_model?: string;
  /** Its multimodal projector's id (llama.cpp's mtmd, `startInpage({ mmproj })`), where it has one. */
  mmproj?: string;
  /**
   * Where that projector's encoders run: `webgpu` where the worker asks for the GPU (llama-server's
   * default, `--mmproj-offload`; not yet: docs/webgpu.md) and the model's engine has a device, else `cpu`.
   */
  mmproj_accelerator?: Accelerator;
  /** What it reads besides text (llama-server's `/props` `modalities`): with a projector, images or audio. */
  modalities?: { vision: boolean; audio: boolean };
  /** What it runs on: `webgpu` (WebLLM; a GGUF model where the browser has all a WebGPU engine needs) or `cpu`. */
  accelerator?: Accelerator;
  /** Why a GGUF model runs on the CPU (`no shader-f16`, `gpu_layers is 0`, ...: src/core/domain/accelerator.ts). */
  accelerator_reason?: AcceleratorReason;
  /** Where its chat template comes from (llamacpp): the GGUF's own, or llama.cpp's default, chatml, for a GGUF without one. */
  chat_template?: 'gguf' | 'chatml';
  /** Its slots that run a request now, by index (llama-server's `/slots` `is_processing`); absent where the backend does not say. */
  processing?: number[];
  /** The names a request may give it, as llama-server lists its `--alias`es: its id, then its spec's `aliases` (from the load's start). */
  aliases?: string[];
  /** llama-server's `--tags` (none here), once loaded. */
  tags?: string[];
  /** llama-server's `meta` (llamacpp): the GGUF's vocabulary type, sizes, contexts and quantization. */
  meta?: ModelMeta;
  /**
   * What it reads and writes, as llama-server lists it (`text`, and `image` and `audio` with a
   * projector that reads them; clients offer uploads by it): llamacpp.
   */
  architecture?: { input_modalities: Array<'text' | 'image' | 'audio'>; output_modalities: Array<'text'> };
  /** What the loaded model can honour (internal: the SW checks requests against it; not listed by `/v1/models`). */
  capabilities?: ModelCapabilities;
}
