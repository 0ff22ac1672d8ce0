/**
 * The one path from a neutral generation to an HTTP response, for every endpoint: open the
 * engine channel, wait for the first event (an error before any token keeps its own HTTP
 * status), then either stream SSE frames or collect one JSON body. Each endpoint supplies only
 * its formatter.
 */
import type { GenerationRequest, TokenCounts } from '#core/domain/generation';
import { OpenAIError } from '#core/domain/errors';
import { concatBytes } from '#core/util/concat-bytes';
import { withTimeout } from '#core/util/with-timeout';
import type { Dialect } from './dialect/dialect';
import { SSE_HEADERS } from './sse';
import type { JobChannel, JobEvent } from './job-channel';
import { openJob, type JobRoute } from './open-job';

/** A generation's events, as the formatters see them. */
export type EngineEvent = JobEvent<'generation'>;
type EngineChannel = JobChannel<EngineEvent>;

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
  /** The first choice index of the request's last prompt: its first event means every prompt was accepted. */
  lastPromptFrom: number;
}

/** Where a generation runs, and who runs it once that page goes (`Routed`). */
export interface GenerationTarget extends JobRoute {
  generation: GenerationRequest;
}

/**
 * Starts the request on its page's engine (`openJob`: re-routed to the engine that takes over
 * when its page went before it began); throws the engine's error if that is its first event.
 * The engine's first event comes only once its backend took the prompt (a `generation.prompt`,
 * a piece or a choice end), so a prompt over the context is an HTTP 400, streamed or not.
 */
export async function openGeneration(target: GenerationTarget, signal: AbortSignal): Promise<OpenGeneration> {
  const { generation: request } = target;
  const lastPromptFrom = (request.prompts.length - 1) * request.n;
  const { channel, first } = await openJob.generation(target, request, signal);
  return { channel, first, lastPromptFrom };
}

/** How a non-streamed generation ended: the status and JSON body of its answer. */
interface Ending {
  status: number;
  body: unknown;
}

/** Feeds `events` to `format`; the ending if one of them ends the generation. */
function feed(channel: EngineChannel, events: EngineEvent[], format: JsonFormatter, dialect: Dialect): Ending | null {
  for (const event of events) {
    if (event.type === 'generation.error') {
      channel.close();
      const error = OpenAIError.fromWire(event.error);
      return { status: error.status, body: dialect.errorBody(error) };
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
 * A non-streamed answer is held back only until every prompt of the request was accepted (its
 * first token came: a prompt the engine refuses, too long for the context, fails before that),
 * at most `JSON_HOLD_MS` (a batch whose later prompts wait behind long earlier ones). An error
 * until then keeps its own status; after it, the answer goes out as a body stream that carries
 * the JSON when the generation ends, and whose cancel (the client aborted) stops the engine at
 * once. Chromium does not abort `event.request.signal` in the SW, so a response held until the
 * end would let an aborted generation run to its last token. The price: an engine failure
 * after the first token (its tab closed) comes as OpenAI error JSON under status 200.
 */
export const JSON_HOLD_MS = 1000;

/** Whether `events` include the first output of the last prompt (every prompt was accepted). */
const acceptsAll = (events: EngineEvent[], lastPromptFrom: number) =>
  events.some(
    (event) =>
      (event.type === 'generation.piece' || event.type === 'generation.choice-end') && event.index >= lastPromptFrom,
  );

/** Collects the generation into one JSON body (see `JSON_HOLD_MS`). */
export async function jsonResponse(
  { channel, first, lastPromptFrom }: OpenGeneration,
  format: JsonFormatter,
  dialect: Dialect,
): Promise<Response> {
  const deadline = Date.now() + JSON_HOLD_MS;
  let pending: Promise<EngineEvent> | null = null;
  let events = [first, ...channel.drain()];
  let ended = feed(channel, events, format, dialect);
  while (ended === null && !acceptsAll(events, lastPromptFrom) && Date.now() < deadline) {
    pending ??= channel.next();
    // The next event, or null once the hold is over (the pending read stays usable).
    const event = await withTimeout<EngineEvent | null>(pending, deadline - Date.now(), () => null);
    if (event === null) break;
    pending = null;
    events = [event, ...channel.drain()];
    ended = feed(channel, events, format, dialect);
  }
  if (ended) return new Response(JSON.stringify(ended.body), { status: ended.status, headers: JSON_HEADERS });
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let ending: Ending | null = null;
        while (ending === null) {
          const event = await (pending ?? channel.next());
          pending = null;
          ending = feed(channel, [event, ...channel.drain()], format, dialect);
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
function framesOf(
  event: EngineEvent,
  format: StreamFormatter,
  dialect: Dialect,
): { bytes: Uint8Array[]; final: boolean } {
  switch (event.type) {
    case 'generation.error':
      // A mid-stream error is the dialect's closing frame (OpenAI's: `data: {"error":...}`), then the stream ends.
      return { bytes: [dialect.errorFrame(OpenAIError.fromWire(event.error))], final: true };
    case 'generation.done':
      return { bytes: format.done(event.counts), final: true };
    case 'generation.choice-end': {
      // A stream leaves out a character the generation ended inside, as llama-server's streams do.
      const { tail: _tail, ...end } = event;
      return { bytes: format.frames(end), final: false };
    }
    case 'generation.prompt':
    case 'generation.piece':
      return { bytes: format.frames(event), final: false };
  }
}

/** Streams the generation as SSE. */
export function sseResponse({ channel, first }: OpenGeneration, format: StreamFormatter, dialect: Dialect): Response {
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
            const { bytes, final } = framesOf(event, format, dialect);
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
