/// <reference lib="webworker" />
/**
 * Keeps the Service Worker alive while it writes a response. Firefox (153 ESR) stops a SW
 * `dom.serviceWorkers.idle_timeout` (30 s) after its last event, even while a response body it
 * makes is still being written: a stream then ends with no `[DONE]` and no error, and a JSON
 * answer comes back empty with status 200. Messages on a job's port are not events and do not
 * count; a message from a window client does. So while any response is open the SW asks the
 * pages it controls, every STAY_INTERVAL_MS, to answer `sw.stay` with `client.stay`
 * (src/page/answer-service-worker.ts). Measured in Firefox 153 with a 3 s idle time: a 15 s stream was
 * cut at 3.3 s without the messages and completed with them. Chromium keeps a SW alive while
 * it writes a response; there the messages cost a few bytes every few seconds.
 */
import { message, type SwToPageMain } from '#core/protocol/protocol';

/** Well inside Firefox's 30 s, and inside the shortened idle time of the Firefox tests. */
export const STAY_INTERVAL_MS = 2_000;

export class KeepAwake {
  private open = 0;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly clients: Clients) {}

  /** The response `answer` resolves to, kept awake for until its body ends, errs or is cancelled. */
  async during(answer: Promise<Response>): Promise<Response> {
    const release = this.hold();
    let response: Response;
    try {
      response = await answer;
    } catch (error) {
      release();
      throw error;
    }
    if (!response.body) {
      release();
      return response;
    }
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            release();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          release();
          controller.error(error);
        }
      },
      cancel(reason) {
        release();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /** One more open response (or other work the SW must stay up for); the function that closes it (once). */
  hold(): () => void {
    if (this.open++ === 0) this.timer = setInterval(() => void this.ask(), STAY_INTERVAL_MS);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--this.open === 0 && this.timer !== null) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  private async ask(): Promise<void> {
    for (const client of await this.clients.matchAll({ type: 'window' }))
      client.postMessage(message<SwToPageMain, 'sw.stay'>('sw.stay', {}));
  }
}
