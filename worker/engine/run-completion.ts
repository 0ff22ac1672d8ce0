import { InternalServerError, toOpenAIError } from '../../src/core/errors';
import { message, type EngineToSw } from '../../src/core/protocol';
import type { CompletionRequest } from '../../src/core/openai/types';
import type { LoadedModel } from './backend';

/** Posts one typed engine event to the SW. */
export const postToSw = <K extends keyof EngineToSw>(port: MessagePort, type: K, payload: EngineToSw[K]) =>
  port.postMessage(message<EngineToSw, K>(type, payload));

/**
 * Runs one request on `model` and streams its events to the SW over `port`: deltas, then
 * exactly one `completion.done` or `completion.error`. Nothing is posted once `signal` aborted.
 */
export async function runCompletion(
  model: LoadedModel,
  request: CompletionRequest,
  port: MessagePort,
  signal: AbortSignal,
): Promise<void> {
  try {
    for await (const event of model.generate(request, signal)) {
      if (signal.aborted) return;
      if (event.type === 'text') {
        if (event.text) postToSw(port, 'completion.delta', { text: event.text });
        continue;
      }
      const usage = {
        prompt_tokens: event.promptTokens,
        completion_tokens: event.completionTokens,
        total_tokens: event.promptTokens + event.completionTokens,
      };
      postToSw(port, 'completion.done', { finish_reason: event.finishReason, usage });
      return;
    }
    if (!signal.aborted) throw new InternalServerError('The backend ended the generation without a finish reason.');
  } catch (error) {
    if (!signal.aborted) postToSw(port, 'completion.error', { error: toOpenAIError(error).toWire() });
  }
}
