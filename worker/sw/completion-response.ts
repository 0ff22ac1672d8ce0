import { OpenAIError } from '../../src/core/errors';
import { completionMeta, completionObject, usageChunk, type CompletionMeta } from '../../src/core/openai/completion-builder';
import type { CompletionRequest } from '../../src/core/openai/types';
import { SSE_DONE, SSE_HEADERS, sseFrame } from '../../src/core/sse';
import { ChoiceAccumulator } from './choice-accumulator';
import { EngineChannel, raise, type EngineEvent } from './engine-channel';

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Runs `request` on the engine of `client` and answers in OpenAI format: one JSON body, or an
 * SSE stream. The first engine event is awaited before answering, so an error that happens
 * before any token (model failed, unsupported parameter, prompt too long) still gets its own
 * HTTP status.
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

async function jsonResponse(channel: EngineChannel, meta: CompletionMeta, first: EngineEvent): Promise<Response> {
  const choices = new ChoiceAccumulator();
  for (let event = first; ; event = await channel.next()) {
    switch (event.type) {
      case 'completion.delta':
        choices.add(event.index, event.text, event.logprobs);
        break;
      case 'completion.choice-end':
        choices.end(event.index, event.finish_reason, event.matched_stop);
        break;
      case 'completion.error':
        channel.close();
        raise(event);
      // falls through: raise never returns
      case 'completion.done':
        channel.close();
        return new Response(JSON.stringify(completionObject(meta, choices.list(), event.usage)), { headers: JSON_HEADERS });
    }
  }
}

/** The SSE frames of one engine event; `final` when the stream ends with it. */
function frames(event: EngineEvent, meta: CompletionMeta, request: CompletionRequest): { bytes: Uint8Array[]; final: boolean } {
  switch (event.type) {
    case 'completion.delta': {
      const chunk = completionObject(meta, [{ text: event.text, index: event.index, logprobs: event.logprobs, finish_reason: null }], event.usage);
      return { bytes: [sseFrame(chunk)], final: false };
    }
    case 'completion.choice-end': {
      const choice = { text: '', index: event.index, logprobs: null, finish_reason: event.finish_reason, ...(event.matched_stop === null ? {} : { matched_stop: event.matched_stop }) };
      return { bytes: [sseFrame(completionObject(meta, [choice], event.usage))], final: false };
    }
    case 'completion.error':
      return { bytes: [sseFrame(OpenAIError.fromWire(event.error).toBody())], final: true };
    case 'completion.done':
      return { bytes: [...(request.include_usage ? [sseFrame(usageChunk(meta, event.usage))] : []), SSE_DONE], final: true };
  }
}

function sseBody(channel: EngineChannel, meta: CompletionMeta, request: CompletionRequest, first: EngineEvent): ReadableStream<Uint8Array> {
  let pending: EngineEvent | undefined = first;
  return new ReadableStream<Uint8Array>(
    {
      // One enqueue per pull carries every event that has arrived, so a reader that lags behind
      // the engine catches up in one read instead of one read per token.
      async pull(controller) {
        const head = pending ?? (await channel.next());
        pending = undefined;
        const out: Uint8Array[] = [];
        for (const event of [head, ...channel.drain()]) {
          const { bytes, final } = frames(event, meta, request);
          out.push(...bytes);
          if (final) {
            channel.close();
            controller.enqueue(concatBytes(out));
            controller.close();
            return;
          }
        }
        controller.enqueue(concatBytes(out));
      },
      cancel() {
        channel.cancel('client aborted');
      },
    },
    { highWaterMark: 0 },
  );
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
