/**
 * The engine's neutral embedding request and result, and the capability check the Service
 * Worker runs before waking the engine: a model that cannot embed (feature `embeddings`), token
 * ids outside the vocabulary and inputs that cannot fit the context are 400s naming `input`.
 */
import { minPromptTokens, type ModelCapabilities } from './capabilities';
import { InvalidRequestError } from './errors';

/** What one `/v1/embeddings` request asks of the engine. */
export interface EmbeddingRequest {
  model: string;
  /** One entry per embedding: text, or token ids. */
  inputs: Array<string | number[]>;
}

/**
 * One vector per input, in order (the SW scales them to unit length), and the inputs' tokens;
 * `cachedTokens` of them were kept from the input before, not evaluated again (llamacpp's
 * last-token pooling: native/embed.cpp).
 */
export interface EmbeddingResult {
  vectors: number[][];
  promptTokens: number;
  cachedTokens: number;
}

/** Refuses what this model cannot embed, before the engine is woken. */
/** The 400 for embeddings of a model that cannot embed (the SW's check, and the engine's). */
export const cannotEmbed = (model: string): InvalidRequestError =>
  new InvalidRequestError(
    `The model '${model}' cannot compute embeddings on its backend.`,
    'model',
    'unsupported_parameter',
  );

export function checkEmbeddingCapabilities(capabilities: ModelCapabilities, request: EmbeddingRequest): void {
  if (capabilities.unsupported.includes('embeddings')) throw cannotEmbed(request.model);
  for (const input of request.inputs) {
    const outside = Array.isArray(input) ? input.find((id) => id >= capabilities.vocab_size) : undefined;
    if (outside !== undefined) {
      throw new InvalidRequestError(
        `Token id ${outside} in 'input' is outside the vocabulary (size ${capabilities.vocab_size}).`,
        'input',
        'invalid_token_id',
      );
    }
    const least = minPromptTokens(input, capabilities);
    if (least > capabilities.context_length) {
      throw new InvalidRequestError(
        `An input is longer than the model's context: at least ${least} tokens, and the context holds ${capabilities.context_length}.`,
        'input',
        'context_length_exceeded',
      );
    }
  }
}
