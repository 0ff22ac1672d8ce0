/**
 * The engine's tokenizer as jobs (llama.cpp server's `/tokenize` and `/detokenize`): text to
 * token ids with each token's bytes, and token ids back to text, on the model's own vocabulary;
 * and `/apply-template`: a conversation rendered with the model's chat template, as text.
 */
import type { ChatPrompt } from './chat-prompt';
import type { MediaKind } from '#core/media/media-kind';

/** Text to token ids, as llama-server's `/tokenize` reads it. */
export interface TokenizeRequest {
  model: string;
  content: string;
  /** Add BOS/EOS as the model asks. */
  add_special: boolean;
  /** Read control-token text (`<|im_end|>`) as those tokens. */
  parse_special: boolean;
}

/** Token ids back to text. */
export interface DetokenizeRequest {
  model: string;
  tokens: number[];
}

/** The ids, and each token's bytes (its piece; control tokens spelled as their text). */
export interface TokenizeResult {
  tokens: number[];
  pieces: number[][];
}

/** What llama-server's `/props` says of the loaded model that only its engine knows. */
export interface PropsRequest {
  model: string;
}

/** The model's chat template source and the texts of its BOS and EOS tokens (empty where it has none). */
/** How an engine keeps a model's KV cache: llamacpp's is F32 (flash attention off) where it fits, else F16. */
export type KvCacheType = 'f16' | 'f32';

/** What the model's chat template can render (llama-server's `/props` `chat_template_caps`; keys in its order). */
export interface TemplateCaps {
  supports_object_arguments: boolean;
  supports_parallel_tool_calls: boolean;
  supports_preserve_reasoning: boolean;
  supports_reasoning_effort: boolean;
  supports_string_content: boolean;
  supports_system_role: boolean;
  supports_tool_calls: boolean;
  supports_tools: boolean;
  supports_typed_content: boolean;
}

export interface PropsResult {
  chat_template: string;
  /** Null for a model without a template (its backend renders conversations itself: webllm). */
  chat_template_caps: TemplateCaps | null;
  bos_token: string;
  eos_token: string;
  /** The model's KV cache type (null where the backend does not say: webllm). */
  kv_cache_type: KvCacheType | null;
  /** The text that stands for one media item in a prompt, where the model has a projector (llama-server's `media_marker`). */
  media_marker: string | null;
}

/** A conversation to render with the model's chat template (nothing is generated). */
export interface ApplyTemplateRequest {
  model: string;
  chat: ChatPrompt;
  /**
   * Where the messages hold images or audio: the request's marker in their text (the engine puts
   * the model's `media_marker` in its place, as llama-server's answer has it) and each part.
   */
  media?: { marker: string; parts: Array<{ kind: MediaKind; param: string }> };
}
