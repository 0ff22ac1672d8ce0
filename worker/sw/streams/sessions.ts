/** This Service Worker's resumable streams (one registry for the generating routes and `/v1/stream`). */
import { resumableBody } from './resumable-body';
import { StreamSessions } from './stream-sessions';

export const streamSessions = new StreamSessions();

/** The request's conversation id (`X-Conversation-Id`), as llama-server reads it; null when absent or empty. */
export function conversationId(request: Request): string | null {
  const id = request.headers.get('x-conversation-id');
  return id ? id : null;
}

/** `answer` (a streamed generation) kept in a new session of `conversation` as it goes out. */
export function resumable(answer: Response, conversation: string): Response {
  if (!answer.body) return answer;
  const session = streamSessions.createOrReplace(conversation);
  return new Response(resumableBody(answer.body, session, streamSessions.hold), {
    status: answer.status,
    headers: answer.headers,
  });
}
