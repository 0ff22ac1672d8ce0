/**
 * The body of a streamed answer sent with `X-Conversation-Id` (llama-server's `server_res_spipe`):
 * every byte goes to the client and into the conversation's session. The client going away does
 * not end the generation, which runs on into the session for a later `GET /v1/stream`; the
 * session's cancel (`DELETE /v1/stream`, or a newer request of the conversation) does. The
 * Service Worker is kept awake (`hold`) until the generation ends.
 */
import type { StreamSession } from './stream-session';

export function resumableBody(
  source: ReadableStream<Uint8Array>,
  session: StreamSession,
  hold: () => () => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const release = hold();
  let client: ReadableStreamDefaultController<Uint8Array> | null = null;
  const stopListening = session.whenCancelled(() => void reader.cancel('stream stopped').catch(() => undefined));
  const toClient = (send: (controller: ReadableStreamDefaultController<Uint8Array>) => void) => {
    if (!client) return;
    try {
      send(client);
    } catch {
      // The client went away meanwhile.
      client = null;
    }
  };
  const pump = async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        session.append(value);
        toClient((controller) => controller.enqueue(value));
      }
      toClient((controller) => controller.close());
    } catch (error) {
      toClient((controller) => controller.error(error));
    } finally {
      stopListening();
      session.finalize();
      release();
    }
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      client = controller;
      void pump();
    },
    cancel() {
      // The client left: the generation runs on into the session.
      client = null;
    },
  });
}
