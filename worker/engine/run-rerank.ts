/**
 * Runs one rerank job on a loaded model: one `rerank.result` on its port (unless it was aborted
 * meanwhile); a model that is not a reranker throws a 400 naming `model`.
 */
import { notReranker, type RerankRequest } from '#core/domain/rerank';
import { message, type EngineToSwRerank } from '#core/protocol/protocol';
import type { LoadedModel } from './backend';

export async function runRerank(
  model: LoadedModel,
  request: RerankRequest,
  port: MessagePort,
  signal: AbortSignal,
): Promise<{ prompt: number; completion: number }> {
  if (!model.rerank || model.capabilities.unsupported.includes('rerank')) throw notReranker(request.model);
  const result = await model.rerank(request.query, request.documents, signal);
  if (!signal.aborted)
    port.postMessage(
      message<EngineToSwRerank, 'rerank.result'>('rerank.result', {
        scores: result.scores,
        prompt_tokens: result.promptTokens,
        cached_tokens: result.cachedTokens,
      }),
    );
  return { prompt: result.promptTokens, completion: 0 };
}
