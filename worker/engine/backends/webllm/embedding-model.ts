/**
 * A WebLLM embedding build loaded in its own `MLCEngine`: it embeds (`/v1/embeddings`) and
 * generates nothing. Its card lists the feature `generation` as unsupported, so completions,
 * conversations and responses on it are 400s naming `model` before the engine is woken.
 */
import type { ModelRecord } from '@mlc-ai/web-llm';
import type { ModelCapabilities } from '#core/domain/capabilities';
import type { CapabilityName } from '#core/domain/capability-name';
import type { EmbeddingResult } from '#core/domain/embedding';
import { InvalidRequestError } from '#core/domain/errors';
import type { PromptInput } from '#core/domain/generation';
import type { ModelCard } from '#core/domain/model-card';
import type { GenerationEvent, LoadedModel, PromptToken } from '../../backend';
import { embeddingBatchSize, webllmEmbed, type WebLLMEmbeddingEngine } from './embedder';
import { WEBLLM_MAX_TOKEN_BYTES, WEBLLM_UNSUPPORTED } from './request';

/** What an embedding build cannot do: generate (and all a generative WebLLM model cannot). */
export const WEBLLM_EMBEDDING_UNSUPPORTED: readonly CapabilityName[] = [
  'generation',
  ...WEBLLM_UNSUPPORTED.filter((name) => name !== 'embeddings'),
];

const notGenerative = (variant: string) =>
  new InvalidRequestError(
    `The model '${variant}' is an embedding model: it cannot generate text. Use /v1/embeddings.`,
    'model',
    'unsupported_parameter',
  );

export class WebLLMEmbeddingModel implements LoadedModel {
  readonly capabilities: ModelCapabilities;
  readonly chatTemplate = null;
  /** The most inputs per WebLLM call (the build's compiled batch size), or null when unknown. */
  readonly batchSize: number | null;
  /** WebLLM's id of the loaded build. */
  private readonly variant: string;

  constructor(
    private readonly engine: WebLLMEmbeddingEngine,
    record: ModelRecord,
    contextLength: number,
    vocabSize: number,
    readonly details: Partial<Pick<ModelCard, 'size_bytes' | 'cached' | 'variant' | 'accelerator'>> = {},
  ) {
    this.variant = record.model_id;
    this.batchSize = embeddingBatchSize(record);
    this.capabilities = {
      unsupported: [...WEBLLM_EMBEDDING_UNSUPPORTED],
      context_length: contextLength,
      vocab_size: vocabSize,
      max_token_bytes: WEBLLM_MAX_TOKEN_BYTES,
    };
  }

  embed(inputs: PromptInput[], signal: AbortSignal): Promise<EmbeddingResult> {
    return webllmEmbed(this.engine, this.variant, inputs, this.batchSize, signal);
  }

  async *generate(): AsyncIterable<GenerationEvent> {
    throw notGenerative(this.variant);
  }

  async promptText(): Promise<string> {
    throw notGenerative(this.variant);
  }

  async countPromptTokens(): Promise<number> {
    throw notGenerative(this.variant);
  }

  async scorePrompt(): Promise<PromptToken[]> {
    throw notGenerative(this.variant);
  }

  unload(): Promise<void> {
    return this.engine.unload();
  }
}
