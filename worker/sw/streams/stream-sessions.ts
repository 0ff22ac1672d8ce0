/**
 * The Service Worker's resumable streams by conversation id (llama-server's
 * `stream_session_manager`): one live session per conversation (a new one cancels the old, whose
 * generation then ends), looked up by the ids a caller already has, and let go `TTL_MS` after they
 * end (checked every `GC_INTERVAL_MS` while any is kept). They live as long as the Service Worker:
 * one that the browser stopped and started again has none (a 404, as llama-server's after a restart).
 */
import { StreamSession } from './stream-session';

/** llama-server's STREAM_SESSION_TTL_SECONDS and STREAM_SESSION_GC_INTERVAL_SECONDS. */
export const TTL_MS = 300_000;
export const GC_INTERVAL_MS = 60_000;

/** What `POST /v1/streams/lookup` lists of a session. */
export interface SessionInfo {
  conversation_id: string;
  is_done: boolean;
  total_bytes: number;
  started_at: number;
  completed_at: number;
}

export class StreamSessions {
  private readonly sessions = new Map<string, StreamSession>();
  private timer: ReturnType<typeof setInterval> | null = null;

  /** Keeps the Service Worker up while a session's generation runs on without its client (`KeepAwake.hold`). */
  hold: () => () => void = () => () => undefined;

  /** A new session for `id`, in place of any earlier one (cancelled and ended). */
  createOrReplace(id: string): StreamSession {
    const fresh = new StreamSession(id);
    const previous = this.sessions.get(id);
    this.sessions.set(id, fresh);
    if (previous) {
      previous.cancel();
      previous.finalize();
    }
    this.timer ??= setInterval(() => this.collect(), GC_INTERVAL_MS);
    return fresh;
  }

  get(id: string): StreamSession | undefined {
    return this.sessions.get(id);
  }

  /** The sessions of `ids`: each id's own, and its per-model ones (`<id>::<model>`), as llama-server matches them. */
  lookup(ids: readonly string[]): SessionInfo[] {
    const found: SessionInfo[] = [];
    for (const id of ids) {
      for (const session of this.sessions.values()) {
        if (session.id !== id && !session.id.startsWith(`${id}::`)) continue;
        found.push({
          conversation_id: session.id,
          is_done: session.isDone,
          total_bytes: session.totalBytes,
          started_at: session.startedAt,
          completed_at: session.completedAt,
        });
      }
    }
    return found;
  }

  /** Drops `session` if it is still `id`'s (a failed request leaves nothing behind). */
  evict(session: StreamSession): void {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    session.finalize();
  }

  /** The user's Stop: the session's generation ends and its bytes go. */
  evictAndCancel(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    session.cancel();
    session.finalize();
  }

  /** Lets go the sessions that ended over `TTL_MS` ago. */
  collect(now = Date.now()): void {
    for (const [id, session] of this.sessions)
      if (session.completedAt !== 0 && session.completedAt * 1000 <= now - TTL_MS) this.sessions.delete(id);
    if (this.sessions.size === 0 && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}
