/**
 * One embedding request's MessageChannel to the engine (relayed by the page that owns it):
 * posts `embedding.start`, keeps the request alive while it waits, cancels it when the client
 * aborts, and resolves with the engine's one reply (`embedding.result`, or its error thrown).
 */
import { InternalServerError, OpenAIError } from '../../../../src/core/errors';
import type { EmbeddingRequest, EmbeddingResult } from '../../../../src/core/embedding';
import { KEEPALIVE_INTERVAL_MS } from '../../../../src/core/keepalive';
import { isEngineToSwEmbedding, message, type SwToEngine, type SwToPage } from '../../../../src/core/protocol';

export function runEmbedding(client: Client, request: EmbeddingRequest, signal: AbortSignal): Promise<EmbeddingResult> {
  const channel = new MessageChannel();
  const port = channel.port1;
  const keepalive = () => port.postMessage(message<SwToEngine, 'generation.keepalive'>('generation.keepalive', {}));
  const result = new Promise<EmbeddingResult>((resolve, reject) => {
    port.onmessage = (event: MessageEvent<unknown>) => {
      const data = event.data;
      if (!isEngineToSwEmbedding(data)) return;
      if (data.type === 'embedding.result') resolve({ vectors: data.vectors, promptTokens: data.prompt_tokens });
      else reject(OpenAIError.fromWire(data.error));
    };
    // Where MessagePort 'close' events exist (not in Chromium 156): the page went away mid-request.
    port.addEventListener('close', () =>
      reject(new InternalServerError('The page running the engine went away during the request.', 'engine_gone')),
    );
    signal.addEventListener(
      'abort',
      () => {
        port.postMessage(message<SwToEngine, 'generation.cancel'>('generation.cancel', { reason: 'client aborted' }));
        reject(new InternalServerError('The client aborted the request.', 'client_aborted'));
      },
      { once: true },
    );
  });
  client.postMessage(message<SwToPage, 'embedding.start'>('embedding.start', { request }), [channel.port2]);
  keepalive();
  const timer = setInterval(keepalive, KEEPALIVE_INTERVAL_MS);
  return result.finally(() => {
    clearInterval(timer);
    port.close();
  });
}
