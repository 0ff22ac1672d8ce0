import { OpenAIError } from '../../src/core/errors';
import { completionMeta, completionObject, usageChunk, type CompletionMeta } from '../../src/core/openai/completion-builder';
import type { CompletionRequest } from '../../src/core/openai/types';
import { SSE_DONE, SSE_HEADERS, sseFrame } from '../../src/core/sse';
import { EngineChannel, raise, type EngineEvent } from './engine-channel';

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
  first: EngineEvent,
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
  first: EngineEvent,
): ReadableStream<Uint8Array> {
  let pending: EngineEvent | undefined = first;
  return new ReadableStream<Uint8Array>({
    // One enqueue per pull carries every event that has arrived, so a reader that lags behind
    // the engine catches up in one read instead of one read per token.
    async pull(controller) {
      const first = pending ?? (await channel.next());
      pending = undefined;
      const frames: Uint8Array[] = [];
      for (const event of [first, ...channel.drain()]) {
        if (event.type === 'completion.delta') {
          frames.push(sseFrame(completionObject(meta, event.text, null)));
          continue;
        }
        channel.close();
        if (event.type === 'completion.error') {
          frames.push(sseFrame(OpenAIError.fromWire(event.error).toBody()));
        } else {
          frames.push(sseFrame(completionObject(meta, '', event.finish_reason)));
          if (request.include_usage) frames.push(sseFrame(usageChunk(meta, event.usage)));
          frames.push(SSE_DONE);
        }
        controller.enqueue(concatBytes(frames));
        controller.close();
        return;
      }
      controller.enqueue(concatBytes(frames));
    },
    cancel() {
      channel.cancel('client aborted');
    },
  }, { highWaterMark: 0 });
}

function concatBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
