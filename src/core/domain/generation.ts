/**
 * The engine's neutral request and events. The engine knows no endpoint: the Service Worker
 * turns each OpenAI request into a `GenerationRequest` and builds each endpoint's shape from
 * the `GenerationEvent`s (one formatter per endpoint).
 */
import type { ChatPrompt } from './chat-prompt';
import type { MediaKind } from '#core/media/media-kind';
import type { ParameterValues } from './parameters';
import type { SpeculativeRequest } from './speculative';
import type { LoraScale } from './lora';
import type { ReasoningBudget } from './reasoning-budget';
import type { ToolCallOptions } from '#core/constraints/tool-call-grammar';

export type { SamplingParams } from './parameters';

/** One prompt as a backend takes it: text, or token ids. */
export type PromptInput = string | number[];

/**
 * One media item of a prompt (issue 32): an image's or a sound's file bytes, what the request
 * says it is (the part's type; `/completion`'s `multimodal_data`: its bytes), and the request
 * field it came from, which a 400 about it names.
 */
export interface MediaInput {
  bytes: Uint8Array;
  kind: MediaKind;
  param: string;
}

/**
 * A prompt's media, in order, each standing at one `marker` in the prompt's text. The chat
 * routes use a marker of their own for each request (the engine puts its model's in its place);
 * null: the model's own (llama-server's `/props` `media_marker`, which `/completion`'s prompts use).
 */
export interface PromptMedia {
  marker: string | null;
  items: MediaInput[];
}

/** A conversation, rendered by the engine with the model's chat template; with media, its text holds their markers. */
export interface ChatPromptInput {
  chat: ChatPrompt;
  media?: PromptMedia;
}

/** A text prompt with media (llama-server's `{ prompt_string, multimodal_data }`). */
export interface MediaTextInput {
  text: string;
  media: PromptMedia;
}

/** One prompt of a request. */
export type RequestPrompt = PromptInput | ChatPromptInput | MediaTextInput;

/** Whether a prompt is a conversation to render. */
export const isChatPrompt = (prompt: RequestPrompt): prompt is ChatPromptInput =>
  typeof prompt === 'object' && 'chat' in prompt;

/** A prompt with images or audio. */
export type PromptWithMedia = (ChatPromptInput | MediaTextInput) & { media: PromptMedia };

/** Whether a prompt has media (the others are text, ids or a conversation of text). */
export const hasMedia = (prompt: RequestPrompt): prompt is PromptWithMedia =>
  typeof prompt === 'object' && !Array.isArray(prompt) && prompt.media !== undefined;

/** One file of llama-server's `/infill` `input_extra`: context laid out before the prefix. */
export interface InfillFile {
  filename: string;
  text: string;
}

/**
 * llama-server's `/infill` prompt (repo-level FIM, arXiv 2409.12186): the files of `extra`
 * before the prefix, each after a file separator (or a snippet marker where the model has none),
 * and `prompt` right after the prefix, before the suffix.
 */
export interface InfillLayout {
  extra: InfillFile[];
  prompt: string;
}

/** Why a choice ended. */
export type FinishReason = 'stop' | 'length';

/** What one generation request asks of the engine (every default applied; the table's rows are its parameters). */
export interface GenerationRequest extends ParameterValues {
  model: string;
  /** One entry per prompt of the batch (a single prompt is a batch of one). */
  prompts: RequestPrompt[];
  /** null = up to the context. */
  max_tokens: number | null;
  stop: string[];
  /** Choices per prompt (index = prompt * n + choice). */
  n: number;
  /** Candidates per prompt, of which the `n` with the highest cumulative logprob are returned. */
  best_of: number;
  /** Top alternatives per token (0..20) in `tokens`, or null for no per-token logprobs. */
  logprobs: number | null;
  /** Each choice starts with its prompt (scored when `logprobs` is set). */
  echo: boolean;
  /** Fill-in-the-middle: the text after the completion. */
  suffix: string | null;
  /** llama-server's `/infill` layout of a FIM prompt (absent: `/v1/completions`' plain prefix-suffix-middle). */
  infill?: InfillLayout;
  /** The whole output must match this grammar (from `response_format`, `json_schema`, `regex`, ...). */
  grammar: OutputGrammar | null;
  cache_prompt: boolean;
  /** Speculative decoding (llama-server's `speculative.*` fields), or null: off. */
  speculative: SpeculativeRequest | null;
  /** LoRA adapters' scales (llama-server's `lora`): those listed, the others 0; empty: the model's own (lora.ts). */
  lora: readonly LoraScale[];
  /** Running token counts with every piece (vLLM's continuous usage stats). */
  continuous_usage: boolean;
  /** Whether the SW streams the answer (the engine only reports it: `GET /slots`' `params`). */
  stream?: boolean;
  /**
   * llama-server's `id_slot`: the model's slot to run on (the id modulo its slots, as llama-server
   * wraps it; it waits for that slot). Absent or negative: the free slot whose cache shares the
   * most of the prompt, else the one idle longest.
   */
  id_slot?: number;
  /** A conversation's reasoning budget (reasoning-budget.ts); absent: none. */
  reasoning_budget?: ReasoningBudget;
}

/**
 * An output constraint as the engine takes it: a GBNF grammar, the request field it came from,
 * and for JSON constraints the schema it was built from (backends whose grammar engine takes a
 * JSON schema, such as WebLLM's xgrammar, use that instead of the GBNF).
 */
export interface OutputGrammar {
  /** GBNF with a `root` rule (what llama.cpp's grammar sampler reads). */
  gbnf: string;
  /** The request field that asked for it, named by errors (`response_format`, `guided_regex`, ...). */
  param: string;
  /**
   * Lazy: the grammar applies from the first occurrence of this text in the output (which it
   * must then match from there); before it the output is free. Absent: from the first token.
   */
  trigger?: string;
  /** The JSON schema (`{type:'object'}` for `json_object`); absent for grammar, regex and choice constraints. */
  schema?: object;
  /**
   * A thinking model may reason before the constrained text (JSON, regex, choice and tool calls, as
   * llama-server's `response_format`); absent for a grammar the client wrote, which applies from
   * the first token (as llama-server's `grammar`).
   */
  afterReasoning?: true;
  /**
   * Strict tools' calls (`gbnf` writes them as Hermes's `<tool_call>` blocks): the engine builds
   * them again in the model's own format where its template writes another (tool-call-format.ts).
   */
  tools?: ToolCallOptions;
}

/** One candidate token with its log-probability. */
export interface Candidate {
  id: number;
  /** The token's text as the vocabulary spells it (may be a partial UTF-8 sequence). */
  text: string;
  /** The token's bytes: a choice's token bytes, decoded in order, give its text. */
  bytes: number[];
  logprob: number;
}

/** One token of a choice's output (or of its echoed prompt), with the alternatives at its position. */
export interface TokenLogprob {
  id: number;
  text: string;
  bytes: number[];
  /** null for the first token of an echoed prompt (nothing precedes it). */
  logprob: number | null;
  top: Candidate[] | null;
  /** Where the token starts in the choice's text, in code points. */
  offset: number;
}

/** Token counts of a request so far. */
export interface TokenCounts {
  prompt: number;
  completion: number;
  /** Prompt tokens reused from the prefix cache. */
  cached: number;
}
