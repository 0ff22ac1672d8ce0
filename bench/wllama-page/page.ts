/**
 * The wllama bench page's script: starts the worker (./worker.ts) and puts `window.wllamaBench`
 * on the page, so the bench measures from the page what it measures for `inpage.stream()`.
 */
import { AsyncQueue } from '../../src/core/util/async-queue';
import type { PageMessage, WllamaBody, WorkerMessage } from './protocol';

/** What the bench calls in the page. */
export interface WllamaBench {
  /** Loads the GGUF at `url` (same origin) with `contextLength` tokens of context. */
  load(url: string, contextLength: number, threads?: number): Promise<void>;
  /** One streamed completion: a `text` event per chunk, then `done` with the token counts. */
  stream(body: WllamaBody): AsyncIterable<WorkerMessage>;
}

declare global {
  interface Window {
    wllamaBench: WllamaBench;
  }
}

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });

/** Sends `message` with a fresh port; its answers, in order, until `done`, `loaded` or `error`. */
async function* request(message: PageMessage): AsyncIterable<WorkerMessage> {
  const channel = new MessageChannel();
  const answers = new AsyncQueue<WorkerMessage>();
  channel.port1.onmessage = (event: MessageEvent<WorkerMessage>) => {
    const answer = event.data;
    if (answer.type === 'error') answers.fail(new Error(`wllama: ${answer.message}`));
    else answers.push(answer);
    if (answer.type !== 'text') answers.end();
  };
  worker.postMessage(message, [channel.port2]);
  try {
    yield* answers;
  } finally {
    channel.port1.close();
  }
}

window.wllamaBench = {
  async load(url, contextLength, threads = 1) {
    for await (const _ of request({ type: 'load', url, contextLength, threads }));
  },
  stream: (body) => request({ type: 'run', body }),
};
