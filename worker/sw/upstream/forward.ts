/**
 * Forwards a request body to an upstream and passes its answer through: the upstream's model id
 * in the body, its own headers and key (never the caller's), no credentials. JSON and SSE go to
 * the client chunk by chunk as they arrive; the client's abort (its body stream cancelled, or the
 * request's signal) aborts the upstream fetch. A failure before the answer's headers is a
 * `TargetFailure` (the router may try the next target); after them, a stream ends with the
 * dialect's error frame.
 */
import type { UpstreamConfig } from '#core/route-table/route-table-schema';
import type { Dialect } from '../dialect/dialect';
import { causeOfStatus, TargetFailure } from './target-failure';
import { brokeMidStream, timedOut, unreachable, upstreamError } from './upstream-error';

export interface Forward {
  name: string;
  upstream: UpstreamConfig;
  /** The route's path under the prefix (`/chat/completions`). */
  path: string;
  body: Record<string, unknown>;
  signal: AbortSignal;
  timeoutMs: number | undefined;
  dialect: Dialect;
}

const loggedConfig = new Set<string>();

export async function forwardToUpstream(forward: Forward): Promise<Response> {
  const { name, upstream, signal } = forward;
  const abort = new AbortController();
  const onAbort = () => abort.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let timedOutAfter = false;
  const timer =
    forward.timeoutMs === undefined
      ? undefined
      : setTimeout(() => ((timedOutAfter = true), abort.abort()), forward.timeoutMs);
  let response: Response;
  try {
    response = await fetch(`${upstream.baseURL.replace(/\/+$/, '')}${forward.path}`, {
      method: 'POST',
      headers: headersOf(upstream),
      body: JSON.stringify({ ...forward.body, model: upstream.model }),
      signal: abort.signal,
      credentials: 'omit',
      // No `cache: 'no-store'`: POST answers are not cached anyway, and with it Chromium skips
      // its CORS preflight cache, a second round trip (~2 ms here) on every request.
    });
  } catch {
    signal.removeEventListener('abort', onAbort);
    if (signal.aborted) throw new TargetFailure(unreachable(name), null);
    if (timedOutAfter) throw new TargetFailure(timedOut(name, forward.timeoutMs ?? 0), 'timeout');
    throw new TargetFailure(unreachable(name), 'unreachable');
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    signal.removeEventListener('abort', onAbort);
    const error = await upstreamError(name, response);
    const cause = causeOfStatus(response.status, false);
    if (cause === 'configuration' && !loggedConfig.has(`${name} ${response.status}`)) {
      loggedConfig.add(`${name} ${response.status}`);
      console.warn(`[inpage-llm] upstream '${name}' answered ${response.status}: check its baseURL, model and key.`);
    }
    throw new TargetFailure(error, cause);
  }
  const type = response.headers.get('content-type') ?? 'application/json';
  const sse = type.includes('text/event-stream');
  // A JSON answer is the upstream's own body stream: the browser pipes it to the client without
  // script (the client's abort still reaches the upstream through its request's signal). SSE
  // goes through script, which ends a broken stream with the dialect's error frame.
  const body = sse
    ? passThrough(response.body, forward, abort, () => signal.removeEventListener('abort', onAbort))
    : response.body;
  return new Response(body, {
    status: response.status,
    headers: { 'content-type': type, ...(sse ? { 'cache-control': 'no-cache' } : {}) },
  });
}

function headersOf(upstream: UpstreamConfig): Headers {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (upstream.apiKey !== undefined) headers.set('authorization', `Bearer ${upstream.apiKey}`);
  for (const [header, value] of Object.entries(upstream.headers ?? {})) headers.set(header, value);
  return headers;
}

/** The upstream's SSE bytes, each chunk as it comes; a break mid-stream ends the stream with the error frame. */
function passThrough(
  source: ReadableStream<Uint8Array> | null,
  forward: Forward,
  abort: AbortController,
  done: () => void,
): ReadableStream<Uint8Array> | null {
  if (!source) return (done(), null);
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: ended } = await reader.read();
        if (ended) {
          done();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        done();
        if (abort.signal.aborted) return controller.error(error);
        controller.enqueue(forward.dialect.errorFrame(brokeMidStream(forward.name)));
        controller.close();
      }
    },
    cancel(reason) {
      done();
      abort.abort(reason);
      return reader.cancel(reason).catch(() => undefined);
    },
  });
}
