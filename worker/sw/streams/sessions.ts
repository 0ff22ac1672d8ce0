/** This Service Worker's resumable streams (one registry for the generating routes and `/v1/stream`). */
import { resumableBody } from './resumable-body';
import { StreamSessions } from './stream-sessions';
import type { StreamSession } from './stream-session';

export const streamSessions = new StreamSessions();

/** The request's conversation id (`X-Conversation-Id`), as llama-server reads it; null when absent or empty. */
export function conversationId(request: Request): string | null {
  const id = request.headers.get('x-conversation-id');
  return id ? id : null;
}

/** `answer` (a streamed generation) kept in `session` (its conversation's new one) as it goes out. */
export function resumable(answer: Response, session: StreamSession): Response {
  if (!answer.body) {
    streamSessions.evict(session);
    return answer;
  }
  return new Response(resumableBody(answer.body, session, streamSessions.hold), {
    status: answer.status,
    headers: answer.headers,
  });
}
