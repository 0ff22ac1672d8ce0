/**
 * llama-server's resumable streams, under the route prefix: a streamed generation sent with
 * `X-Conversation-Id` keeps its SSE bytes in the Service Worker (streams/), and
 * - `GET <prefix>/stream?conv_id=<id>&from=<offset>` answers them from `from` (0) and then live
 *   until the generation ends (`text/event-stream`); a 400 without `conv_id`, with a `from` that is
 *   not a number or one whose bytes were let go (past 4 MiB); a 404 for an unknown or expired id
 *   (`File Not Found`, as llama-server 0.7.0 answers it);
 * - `POST <prefix>/streams/lookup` with `{conversation_ids: [...]}` lists those ids' sessions
 *   (`[{conversation_id, is_done, total_bytes, started_at, completed_at}]`), never others;
 * - `DELETE <prefix>/stream?conv_id=<id>` is the user's Stop: the generation ends and its bytes
 *   go (204, whether or not there was one).
 * Answered in llama-server's words and error shape.
 */
import { InvalidRequestError, NotFoundError } from '#core/domain/errors';
import { isRecord } from '#core/util/is-record';
import { checkEnginesKey } from '../../check-api-key';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import { readJson } from '../../read-json';
import type { Route, RouteEvent } from '../../route';
import { SSE_HEADERS } from '../../sse';
import { streamSessions } from '../../streams/sessions';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

function conversation(event: RouteEvent): string {
  const id = new URL(event.request.url).searchParams.get('conv_id');
  if (!id) throw new InvalidRequestError('Missing conversation id in path', 'conv_id');
  return id;
}

export function streamRoutes(clients: Clients, prefix: string): Route[] {
  const route = (
    method: Route['method'],
    path: string,
    answer: (event: RouteEvent) => Response | Promise<Response>,
  ) => ({
    method,
    path: `${prefix}${path}`,
    dialect: LLAMA_SERVER_DIALECT,
    handle: async (event: RouteEvent) => {
      await checkEnginesKey(clients, event, LLAMA_SERVER_DIALECT);
      return answer(event);
    },
  });
  return [
    route('GET', '/stream', replay),
    route('DELETE', '/stream', (event) => {
      streamSessions.evictAndCancel(conversation(event));
      return new Response(null, { status: 204 });
    }),
    route('POST', '/streams/lookup', async (event) => {
      const body = await readJson(event.request);
      const ids = isRecord(body) && Array.isArray(body.conversation_ids) ? body.conversation_ids : [];
      const found = streamSessions.lookup(ids.filter((id): id is string => typeof id === 'string' && id !== ''));
      return new Response(JSON.stringify(found), { headers: JSON_HEADERS });
    }),
  ];
}

/**
 * `from` as llama-server reads it (`std::stoull`): leading digits, the rest ignored; a negative
 * one wraps past any stream's end (nothing to read); none is a 400.
 */
function offset(text: string): number {
  if (text === '') return 0;
  const digits = /^\s*([+-]?)(\d+)/.exec(text);
  if (!digits) throw new InvalidRequestError("Invalid 'from' offset", 'from');
  return digits[1] === '-' ? Number.MAX_SAFE_INTEGER : Math.min(Number(digits[2]), Number.MAX_SAFE_INTEGER);
}

/** The session's bytes from `from`, then live until it ends (the client leaving stops the read only). */
function replay(event: RouteEvent): Response {
  const id = conversation(event);
  const session = streamSessions.get(id);
  // llama-server 0.7.0 answers its HTTP layer's 404 here (server-stream.cpp says "Stream not found or expired").
  if (!session) throw new NotFoundError('File Not Found', 'conv_id');
  const from = offset(new URL(event.request.url).searchParams.get('from') ?? '');
  if (from < session.dropped) throw new InvalidRequestError('Stream offset lost, please restart', 'from');
  const left = new AbortController();
  const bytes = session.readFrom(from, left.signal);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await bytes.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel() {
      left.abort();
    },
  });
  return new Response(body, { headers: SSE_HEADERS });
}
