import { OpenAIError } from '../../src/core/errors';
import { completionMeta, completionObject, usageChunk, type CompletionMeta } from '../../src/core/openai/completion-builder';
import type { CompletionRequest } from '../../src/core/openai/types';
import { SSE_DONE, SSE_HEADERS, sseFrame } from '../../src/core/sse';
import { EngineChannel, raise } from './engine-channel';

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Runs `request` on the engine of `client` and answers in OpenAI format: one JSON body, or an
 * SSE stream. The first engine event is awaited before answering, so an error that happens
 * before any token (model failed, prompt too long) still gets its own HTTP status.
 */
export async function completionResponse(client: Client, request: CompletionRequest, signal: AbortSignal): Promise<Response> {
  const channel = new EngineChannel(client, request);
  signal.addEventListener('abort', () => channel.cancel('client aborted'), { once: true });
  const meta = completionMeta(request.model);
  const first = await channel.next();
  if (first.type === 'completion.error') {
    channel.close();
    raise(first);
  }
  if (!request.stream) return jsonResponse(channel, meta, first);
  return new Response(sseBody(channel, meta, request, first), { headers: SSE_HEADERS });
}

async function jsonResponse(
  channel: EngineChannel,
  meta: CompletionMeta,
  first: Awaited<ReturnType<EngineChannel['next']>>,
): Promise<Response> {
  let text = '';
  for (let event = first; ; event = await channel.next()) {
    if (event.type === 'completion.delta') text += event.text;
    else if (event.type === 'completion.error') raise(event);
    else {
      channel.close();
      return new Response(JSON.stringify(completionObject(meta, text, event.finish_reason, event.usage)), {
        headers: JSON_HEADERS,
      });
    }
  }
}

function sseBody(
  channel: EngineChannel,
  meta: CompletionMeta,
  request: CompletionRequest,
  first: Awaited<ReturnType<EngineChannel['next']>>,
): ReadableStream<Uint8Array> {
  let pending: typeof first | undefined = first;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const event = pending ?? (await channel.next());
      pending = undefined;
      if (event.type === 'completion.delta') {
        controller.enqueue(sseFrame(completionObject(meta, event.text, null)));
        return;
      }
      channel.close();
      if (event.type === 'completion.error') {
        controller.enqueue(sseFrame(OpenAIError.fromWire(event.error).toBody()));
      } else {
        controller.enqueue(sseFrame(completionObject(meta, '', event.finish_reason)));
        if (request.include_usage) controller.enqueue(sseFrame(usageChunk(meta, event.usage)));
        controller.enqueue(SSE_DONE);
      }
      controller.close();
    },
    cancel() {
      channel.cancel('client aborted');
    },
  }, { highWaterMark: 0 });
}
