/**
 * The engine's backend interface. A backend loads a model; a loaded model generates ONE
 * choice for ONE prompt at a time (the scheduler guarantees it). Batches, `n`, `best_of`,
 * `echo`, stop strings, stop token ids and per-token logprobs are the engine's shared layer
 * (`run-generation.ts`), identical for every backend. Both the llama.cpp-wasm and the
 * WebLLM backends implement exactly this.
 */
import type { DraftCounts, SpeculativeRequest } from '#core/domain/speculative';
import type { LoraAdapterInfo, LoraScale } from '#core/domain/lora';
import type { BackendName } from '#core/domain/backend-name';
import type { ModelCard } from '#core/domain/model-card';
import type { LoadProgress, ModelSpec } from '#core/domain/model-spec';
import type { ModelCapabilities } from '#core/domain/capabilities';
import type { ChatTemplate } from './chat/render-prompt';
import type { PromptSegment } from './chat/prompt-segments';
import type { ChatPrompt } from '#core/domain/chat-prompt';
import type {
  Candidate,
  FinishReason,
  InfillLayout,
  MediaInput,
  OutputGrammar,
  PromptInput,
  SamplingParams,
} from '#core/domain/generation';
import type { EmbeddingResult } from '#core/domain/embedding';
import type { RerankResult } from '#core/domain/rerank';
import type { KvCacheType } from '#core/domain/tokenize';
import type { SlotActionRequest, SlotActionResult } from '#core/domain/slots';
import type { SlotTasks } from './slot-tasks';
import type { ReasoningTags } from './chat/reasoning-tags';

/** One candidate token with its log-probability (the core's neutral `Candidate`). */
export type TokenCandidate = Candidate;

/** One sampled token with the top alternatives at its position. */
export interface TokenInfo extends TokenCandidate {
  top: TokenCandidate[];
}

/** One prompt token, scored. */
export interface PromptToken {
  id: number;
  text: string;
  bytes: number[];
  logprob: number | null;
  top: TokenCandidate[] | null;
}

/** What one choice needs from a backend: a prompt (text or ids), or a conversation for `conversations`. */
export interface ChoiceRequest<P = PromptInput> extends SamplingParams {
  prompt: P;
  /** null = up to the context. */
  max_tokens: number | null;
  /** EOS is suppressed until this many tokens were generated. */
  min_tokens: number;
  /** Fill-in-the-middle: the text after the completion (only when `capabilities.suffix`). */
  suffix: string | null;
  /** llama-server's `/infill` layout, with `suffix` (absent: the plain prefix-suffix-middle of `/v1/completions`). */
  infill?: InfillLayout;
  ignore_eos: boolean;
  /** Per-token info wanted (`tokens` on every chunk), with this many alternatives (0..5). */
  token_info: number | null;
  cache_prompt: boolean;
  /** Speculative decoding, or null: off (only backends that have it get a request with it). */
  speculative: SpeculativeRequest | null;
  /** LoRA adapters' scales: those listed, the others 0; empty: the model's own (src/core/domain/lora.ts). */
  lora: readonly LoraScale[];
  /** The constraint the whole output must match (GBNF, and the JSON schema of JSON constraints), or null. */
  grammar: OutputGrammar | null;
  /** llama-server's `id_slot` (GenerationRequest's): the slot to run on, where the backend has slots. */
  id_slot?: number;
  /** A conversation's reasoning budget with its template's tags (only backends without `reasoning_budget` in `unsupported`). */
  reasoning?: ChoiceReasoning;
}

/** A reasoning budget as a backend's sampler takes it: llama-server's sampler fields, and its control. */
export interface ChoiceReasoning extends ReasoningTags {
  /** The most reasoning tokens (-1: none). */
  budget: number;
  message: string;
  control: boolean;
  /** Asked before each token: end the reasoning here (a `reasoning_end` control came). */
  ended(): boolean;
}

/** What runs a choice from a prompt of type `P`: a loaded model (text, ids), or its `conversations`. */
export interface ChoiceRunner<P> {
  generate(request: ChoiceRequest<P>, signal: AbortSignal): AsyncIterable<GenerationEvent>;
  /** How many tokens the prompt is (for usage when nothing is generated). */
  countPromptTokens(prompt: P, signal: AbortSignal): Promise<number>;
}

/** A prompt with media for a model's `media` runner: text whose model markers (`mediaMarker`) stand for `items` in order. */
export interface MediaPrompt {
  text: string;
  items: MediaInput[];
}

/**
 * A backend that renders conversations with its own templates (WebLLM's conversation
 * templates): the engine hands it the conversation instead of rendering it with `chatTemplate`.
 */
export interface ConversationRunner extends ChoiceRunner<ChatPrompt> {
  /**
   * Checks, before any event is posted, that the backend can run this conversation (a 400
   * naming what it cannot: the SW then answers with that status), and says whether the rendered
   * prompt ends inside `<think>` (the output starts as reasoning).
   */
  prepare(request: ChoiceRequest<ChatPrompt>): { opensReasoning: boolean };
}

/** What a generation yields: text pieces (with their tokens when asked), then exactly one `end`. */
export type GenerationEvent =
  /**
   * The prompt was read: its size in tokens, and how many came from the prefix cache; `text`:
   * the prompt as the backend laid it out (control tokens as their text), where asked (`/infill`);
   * `slot`: the model's slot the choice runs on, where the backend has slots (`slotTasks`).
   */
  | { type: 'prompt'; promptTokens: number; cachedTokens: number; text?: string; slot?: number }
  /**
   * `generated`: tokens generated so far, where the backend says (llama-server's
   * `timings.predicted_n`): without per-token info one piece can hold several tokens (the tokens
   * of a character split across them arrive as one piece).
   */
  | { type: 'text'; text: string; tokens: TokenInfo[] | null; generated?: number }
  | {
      type: 'end';
      finishReason: FinishReason;
      promptTokens: number;
      completionTokens: number;
      cachedTokens: number;
      /** Speculative decoding's counts, where it ran. */
      draft?: DraftCounts;
      /**
       * Text held back because it ended inside a character when the generation ended there (the
       * open character as U+FFFD): llama-server's `/completion` sends it; the OpenAI routes do not.
       */
      tail?: string;
    };

/** A generation's last event. */
export type GenerationEnd = Extract<GenerationEvent, { type: 'end' }>;

export interface LoadedModel {
  /** Its limits and what it cannot honour (on its card, so the SW refuses such requests). */
  readonly capabilities: ModelCapabilities;
  /**
   * Its chat template, or null: then conversations go to `conversations` when it has them, and
   * are refused otherwise (`chat` is unsupported).
   */
  readonly chatTemplate: ChatTemplate | null;
  /**
   * Token ids of a conversation rendered with `chatTemplate`, where only the template's own text
   * (`special` segments) may hold control tokens: the request's text is never read as one.
   * Absent: the rendered text is the prompt.
   */
  tokenizeSegments?(segments: PromptSegment[]): Promise<number[]>;
  /** Conversations the backend renders itself (absent: the engine renders them with `chatTemplate`). */
  readonly conversations?: ConversationRunner;
  /** Its KV cache's type, where the backend chooses it (llamacpp: native/attention.cpp). */
  readonly kvCacheType?: KvCacheType;
  /** What the model's card shows besides its status (size, cache state, chosen variant, threads). */
  readonly details?: Partial<
    Pick<
      ModelCard,
      | 'size_bytes'
      | 'cached'
      | 'variant'
      | 'threads'
      | 'slots'
      | 'chat_template'
      | 'draft_model'
      | 'mmproj'
      | 'modalities'
      | 'accelerator'
      | 'accelerator_reason'
      | 'meta'
      | 'architecture'
    >
  >;
  /** The text that stands for one media item in a prompt (llama-server's `media_marker`), where a projector is loaded. */
  readonly mediaMarker?: string;
  /** Prompts with images or audio, read through its projector (issue 32): where one is loaded. */
  readonly media?: ChoiceRunner<MediaPrompt>;
  /**
   * Generates one choice. When `signal` aborts, the generation stops within a few
   * milliseconds and the iterable ends (or throws); the model is then free for the next one.
   */
  generate(request: ChoiceRequest, signal: AbortSignal): AsyncIterable<GenerationEvent>;
  /** Calls `listener` with the slots that run a request (by index) whenever that changes (llamacpp). */
  watchSlots?(listener: (busy: number[]) => void): void;
  /** The last generation each slot ran or runs (llamacpp; the engine's shared layer fills it in). */
  readonly slotTasks?: SlotTasks;
  /** Its engine's decodes of prompt steps and tokens since it loaded, and the slots they held together (llamacpp). */
  decodeCounts?(): { decodes: number; decodedSlots: number };
  /**
   * Token ids of `text` (BOS/EOS as the model asks when `addSpecial`; control-token text read as
   * those tokens when `parseSpecial`), with each token's bytes; backends without it refuse
   * `/tokenize`.
   */
  tokenize?(
    text: string,
    addSpecial: boolean,
    parseSpecial: boolean,
  ): Promise<{ tokens: number[]; pieces: number[][] }>;
  /** The prompt as text (token ids detokenized), for `echo`. */
  promptText(prompt: PromptInput): Promise<string>;
  /** How many tokens the prompt is (for usage when nothing is generated). */
  countPromptTokens(prompt: PromptInput, signal: AbortSignal): Promise<number>;
  /**
   * Each prompt token with its log-probability given the ones before it (for `echo` +
   * `logprobs`); the first token has none (`logprob: null`, `top: null`). `lora`: the request's
   * LoRA adapters' scales (empty: the model's).
   */
  scorePrompt(
    prompt: PromptInput,
    top: number,
    signal: AbortSignal,
    lora: readonly LoraScale[],
  ): Promise<PromptToken[]>;
  /** One pooled vector per input (models that can embed; the others list `embeddings` as unsupported). */
  embed?(inputs: PromptInput[], signal: AbortSignal): Promise<EmbeddingResult>;
  /** A reranker's score for each document against the query (models that list `rerank` as unsupported have none). */
  rerank?(query: string, documents: string[], signal: AbortSignal): Promise<RerankResult>;
  /**
   * llama-server's `/lora-adapters`: its LoRA adapters at the model's scales, after setting
   * those (`set`: the listed ones, the others 0) where given (absent: the backend loads none).
   */
  loraAdapters?(set: readonly LoraScale[] | null): LoraAdapterInfo[];
  /** llama-server's slot actions on the model's context (absent: the backend has none, a 501). */
  slotAction?(request: SlotActionRequest): Promise<SlotActionResult>;
  unload(): Promise<void>;
}

export interface Backend {
  readonly name: BackendName;
  /** Models this backend could load here (not loaded ones), as `available` cards. */
  catalogue?(): Promise<ModelCard[]>;
  load(spec: ModelSpec, onProgress: (progress: LoadProgress) => void): Promise<LoadedModel>;
  /** Whether the model's files are all in the browser's cache (backends that cache). */
  isCached?(spec: ModelSpec): Promise<boolean>;
  /** Deletes the model's files from the browser's cache. */
  deleteCached?(spec: ModelSpec): Promise<void>;
}
