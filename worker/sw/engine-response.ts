/**
 * The one path from a neutral generation to an HTTP response, for every endpoint: open the
 * engine channel, wait for the first event (an error before any token keeps its own HTTP
 * status), then either stream SSE frames or collect one JSON body. Each endpoint supplies only
 * its formatter.
 */
import type { GenerationRequest, TokenCounts } from '../../src/core/generation';
import { OpenAIError } from '../../src/core/errors';
import { SSE_HEADERS, sseFrame } from './sse';
import { EngineChannel, raise, type EngineEvent } from './engine-channel';

const JSON_HEADERS = { 'content-type': 'application/json' };
const encoder = new TextEncoder();

/** An event that is not an error (formatters never see errors: this module answers them). */
export type EngineOutput = Exclude<EngineEvent, { type: 'generation.error' }>;

/** An endpoint's streamed shape: the SSE frames (`sseFrame`) of each event, and the stream's last ones. */
export interface StreamFormatter {
  /** Frames for a piece or a choice end. */
  frames(event: Exclude<EngineOutput, { type: 'generation.done' }>): Uint8Array[];
  /** Frames after the last event (a usage chunk, `data: [DONE]`, ...). */
  done(counts: TokenCounts): Uint8Array[];
}

/** An endpoint's whole-body shape: fed every event, then asked for the body. */
export interface JsonFormatter {
  add(event: Exclude<EngineOutput, { type: 'generation.done' }>): void;
  body(counts: TokenCounts): unknown;
}

/** A generation that has produced its first event. */
export interface OpenGeneration {
  channel: EngineChannel;
  first: EngineOutput;
}

/** Starts `request` on `client`'s engine; throws the engine's error if that is its first event. */
export async function openGeneration(
  client: Client,
  request: GenerationRequest,
  signal: AbortSignal,
): Promise<OpenGeneration> {
  const channel = new EngineChannel(client, request);
  signal.addEventListener('abort', () => channel.cancel('client aborted'), { once: true });
  const first = await channel.next();
  if (first.type === 'generation.error') {
    channel.close();
    raise(first);
  }
  return { channel, first };
}

/** How a non-streamed generation ended: the status and JSON body of its answer. */
interface Ending {
  status: number;
  body: unknown;
}

/** Feeds `events` to `format`; the ending if one of them ends the generation. */
function feed(channel: EngineChannel, events: EngineEvent[], format: JsonFormatter): Ending | null {
  for (const event of events) {
    if (event.type === 'generation.error') {
      channel.close();
      const error = OpenAIError.fromWire(event.error);
      return { status: error.status, body: error.toBody() };
    }
    if (event.type === 'generation.done') {
      channel.close();
      return { status: 200, body: format.body(event.counts) };
    }
    format.add(event);
  }
  return null;
}

/**
 * How long a non-streamed answer is held back for the generation to end. One that ends (or
 * fails) by then is answered with its own status; one still running is answered with a body
 * stream that carries the JSON when it ends, whose cancel (the client aborted) stops the engine:
 * Chromium does not abort `event.request.signal` in the SW, so a response held until the end
 * lets an aborted generation run to its last token. The price: an engine error after this
 * hold comes as OpenAI error JSON under status 200.
 */
export const JSON_HOLD_MS = 1000;

/** The next event, or null once `ms` passed (the pending read stays usable). */
async function within(read: Promise<EngineEvent>, ms: number): Promise<EngineEvent | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Collects the generation into one JSON body (see `JSON_HOLD_MS`). */
export async function jsonResponse({ channel, first }: OpenGeneration, format: JsonFormatter): Promise<Response> {
  const deadline = Date.now() + JSON_HOLD_MS;
  let pending: Promise<EngineEvent> | null = null;
  let ended = feed(channel, [first, ...channel.drain()], format);
  while (ended === null && Date.now() < deadline) {
    pending ??= channel.next();
    const event = await within(pending, deadline - Date.now());
    if (event === null) break;
    pending = null;
    ended = feed(channel, [event, ...channel.drain()], format);
  }
  if (ended) return new Response(JSON.stringify(ended.body), { status: ended.status, headers: JSON_HEADERS });
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let ending: Ending | null = null;
        while (ending === null) {
          const event = await (pending ?? channel.next());
          pending = null;
          ending = feed(channel, [event, ...channel.drain()], format);
        }
        try {
          controller.enqueue(encoder.encode(JSON.stringify(ending.body)));
          controller.close();
        } catch {
          // The client went away meanwhile (the stream was cancelled).
        }
      },
      cancel() {
        channel.cancel('client aborted');
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: JSON_HEADERS });
}

/** The frames of one event; `final` when the stream ends with it. */
function framesOf(event: EngineEvent, format: StreamFormatter): { bytes: Uint8Array[]; final: boolean } {
  switch (event.type) {
    case 'generation.error':
      // Mid-stream errors go out as `data: {"error":...}` (the SDKs JSON-parse every data line), then the stream ends.
      return { bytes: [sseFrame(OpenAIError.fromWire(event.error).toBody())], final: true };
    case 'generation.done':
      return { bytes: format.done(event.counts), final: true };
    default:
      return { bytes: format.frames(event), final: false };
  }
}

/** Streams the generation as SSE. */
export function sseResponse({ channel, first }: OpenGeneration, format: StreamFormatter): Response {
  let pending: EngineEvent | undefined = first;
  const body = new ReadableStream<Uint8Array>(
    {
      // One enqueue per pull carries every event that has arrived, so a reader that lags behind
      // the engine catches up in one read instead of one read per token.
      // An event with no frames (a `generation.prompt` the endpoint does not show) reads on:
      // a pull that enqueues nothing is not called again.
      async pull(controller) {
        const out: Uint8Array[] = [];
        while (out.length === 0) {
          const head = pending ?? (await channel.next());
          pending = undefined;
          for (const event of [head, ...channel.drain()]) {
            const { bytes, final } = framesOf(event, format);
            out.push(...bytes);
            if (final) {
              channel.close();
              controller.enqueue(concatBytes(out));
              controller.close();
              return;
            }
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
  return new Response(body, { headers: SSE_HEADERS });
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
