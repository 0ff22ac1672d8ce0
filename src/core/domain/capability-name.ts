/**
 * The names a model card lists as `unsupported`: the parameter table's rows, and the features
 * below. One table, one union: a misspelt name in a backend's list or a check fails typecheck.
 */
import type { ParameterName } from './parameters';

/** The features a backend or a model may not honour, besides the parameter table's rows. */
export const FEATURES = [
  /** Any completion, conversation or response (unsupported on embedding models). */
  'generation',
  /** Token-id prompts. */
  'token_ids',
  /** `echo` with `logprobs`: scoring the prompt. */
  'prompt_logprobs',
  /** Fill-in-the-middle. */
  'suffix',
  /** `logit_bias` naming a text (llama-server's form: the engine tokenizes it). */
  'logit_bias_text',
  /** Conversation prompts: the model has a chat template. */
  'chat',
  /** `/v1/embeddings` (checked by `checkEmbeddingCapabilities` in `embedding.ts`). */
  'embeddings',
  /** `/v1/rerank`: the model is a reranker (checked by `checkRerankCapabilities` in `rerank.ts`). */
  'rerank',
  /** Constrained output. */
  'grammar',
  /** A constraint that exists only as GBNF: grammar, regex, choice. */
  'gbnf_constraint',
  /** A constraint on a text or token-id prompt. */
  'prompt_constraint',
  /** In conversations: function calling. */
  'tools',
  /** In conversations: template variables. */
  'chat_template_kwargs',
  /** In conversations: reasoning effort. */
  'reasoning_effort',
  /** In conversations: a reasoning budget or its control (reasoning-budget.ts). */
  'reasoning_budget',
  /** Speculative decoding (`speculative.*`). */
  'speculative',
  /** A draft model's speculative decoding (`speculative.type: draft-simple`, `speculative.p_min`): the model has one. */
  'draft_model',
] as const;

/** One of the features above. */
export type FeatureName = (typeof FEATURES)[number];

/** What a model card's `unsupported` lists: a table parameter or a feature. */
export type CapabilityName = ParameterName | FeatureName;
