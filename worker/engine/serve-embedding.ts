/**
 * Runs one embedding request for the engine host: on its model's queue (FIFO with the
 * generations), cancelled like them (a `generation.cancel`, or the SW's keepalives stopping),
 * answered on its port with exactly one `embedding.result` or `generation.error`.
 */
import { InvalidRequestError, NotFoundError, toOpenAIError } from '../../src/core/errors';
import type { EmbeddingRequest } from '../../src/core/embedding';
import { message, type EngineToSwEmbedding } from '../../src/core/protocol';
import type { LoadedModel } from './backend';
import type { ModelQueue } from './model-queue';
import type { RequestLog } from './request-log';
import { requestControl } from './request-control';

/** The part of a model's engine entry an embedding request needs. */
export interface EmbeddingTarget {
  loaded: Promise<LoadedModel>;
  queue: ModelQueue;
}

const post = <K extends keyof EngineToSwEmbedding>(port: MessagePort, type: K, payload: EngineToSwEmbedding[K]) =>
  port.postMessage(message<EngineToSwEmbedding, K>(type, payload));

export function serveEmbedding(
  target: EmbeddingTarget | undefined,
  request: EmbeddingRequest,
  port: MessagePort,
  log: RequestLog,
): void {
  const control = requestControl(port);
  if (!target) {
    post(port, 'generation.error', {
      error: new NotFoundError(`The model '${request.model}' is not loaded in this engine.`, 'model').toWire(),
    });
    control.stop();
    return;
  }
  void target.queue.run(control.signal, async () => {
    let promptTokens = 0;
    let outcome: 'completed' | 'failed' = 'failed';
    try {
      const model = await target.loaded;
      if (!model.embed)
        throw new InvalidRequestError(
          `The model '${request.model}' cannot compute embeddings on its backend.`,
          'model',
          'unsupported_parameter',
        );
      const result = await model.embed(request.inputs, control.signal);
      promptTokens = result.promptTokens;
      outcome = 'completed';
      if (!control.signal.aborted)
        post(port, 'embedding.result', { vectors: result.vectors, prompt_tokens: result.promptTokens });
    } catch (error) {
      post(port, 'generation.error', { error: toOpenAIError(error).toWire() });
    } finally {
      const aborted = control.signal.aborted;
      log.add({
        model: request.model,
        outcome: aborted ? 'aborted' : outcome,
        ...(aborted ? { reason: String(control.signal.reason) } : {}),
        promptTokens,
        completionTokens: 0,
      });
      control.stop();
      port.close();
    }
  });
}
