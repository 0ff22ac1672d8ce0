/**
 * The engine's neutral rerank request and result (llama-server's `/rerank`), and the capability
 * check the Service Worker runs before waking the engine: a model that is not a reranker (feature
 * `rerank`: its GGUF's `pooling_type` is not rank) is a 400 naming `model`, as is a query or
 * document that cannot fit the context with the other.
 */
import { minPromptTokens, type ModelCapabilities } from './capabilities';
import { InvalidRequestError } from './errors';

/** What one rerank request asks of the engine: a score for each document against the query. */
export interface RerankRequest {
  model: string;
  query: string;
  documents: string[];
}

/**
 * One score per document, in the documents' order, and the pairs' tokens; `cachedTokens` of them
 * were kept from the pair before (the template's head and the query on Qwen3-Reranker), not
 * evaluated again.
 */
export interface RerankResult {
  scores: number[];
  promptTokens: number;
  cachedTokens: number;
}

/** Refuses what this model cannot rerank, before the engine is woken. */
/** The 400 for a rerank of a model that is not a reranker (the SW's check, and the engine's). */
export const notReranker = (model: string): InvalidRequestError =>
  new InvalidRequestError(
    `The model '${model}' is not a reranker (its GGUF's pooling_type is not rank), so it cannot rerank.`,
    'model',
    'unsupported_parameter',
  );

export function checkRerankCapabilities(capabilities: ModelCapabilities, request: RerankRequest): void {
  if (capabilities.unsupported.includes('rerank')) throw notReranker(request.model);
  const query = minPromptTokens(request.query, capabilities);
  for (const document of request.documents) {
    const least = query + minPromptTokens(document, capabilities);
    if (least > capabilities.context_length) {
      throw new InvalidRequestError(
        `A document with the query is longer than the model's context: at least ${least} tokens, and the context holds ${capabilities.context_length}.`,
        'documents',
        'context_length_exceeded',
      );
    }
  }
}
