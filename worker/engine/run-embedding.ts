/**
 * Runs one embedding job on a loaded model: one `embedding.result` on its port (unless it was
 * aborted meanwhile); a model that cannot embed throws a 400 naming `model`.
 */
import { cannotEmbed, type EmbeddingRequest } from '#core/domain/embedding';
import { message, type EngineToSwEmbedding } from '#core/protocol/protocol';
import type { LoadedModel } from './backend';

export async function runEmbedding(
  model: LoadedModel,
  request: EmbeddingRequest,
  port: MessagePort,
  signal: AbortSignal,
): Promise<{ prompt: number; completion: number }> {
  if (!model.embed) throw cannotEmbed(request.model);
  const result = await model.embed(request.inputs, signal);
  if (!signal.aborted)
    port.postMessage(
      message<EngineToSwEmbedding, 'embedding.result'>('embedding.result', {
        vectors: result.vectors,
        prompt_tokens: result.promptTokens,
        cached_tokens: result.cachedTokens,
      }),
    );
  return { prompt: result.promptTokens, completion: 0 };
}
