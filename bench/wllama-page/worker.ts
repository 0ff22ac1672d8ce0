/**
 * The wllama bench's Web Worker: the previous engine (`@wllama/wllama` 3.13's prebuilt wasm) as
 * the engine worker ran it: one GGUF loaded from the page's origin, CPU only, 1 thread (or the bench's count), 1 slot,
 * and streamed llama-server completions. Bench-only: nothing in src/ or worker/ imports wllama.
 */
import { Wllama, type RawCompletionChunk } from '@wllama/wllama';
import { GREEDY_SERVER } from './greedy-sampling';
import type { PageMessage, WllamaBody, WorkerMessage } from './protocol';

const quietLogger = { debug: () => {}, log: () => {}, warn: console.warn, error: console.error };

/** Streamed, with the token counts in the last chunk (a name wllama's typings lack; llama-server reads it). */
const STREAMED = { stream: true, stream_options: { include_usage: true } } as const;

/** wllama's typings intersect two `logit_bias` types no value has; llama-server reads the object. */
type WllamaBias = Record<string, number> & Array<{ token: number; bias: number }>;

let wllama: Wllama | undefined;

async function load(url: string, contextLength: number, threads: number): Promise<void> {
  const wasm = new URL('./wllama.wasm', self.location.href).href;
  const instance = new Wllama({ default: wasm }, { suppressNativeLog: true, logger: quietLogger });
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  await instance.loadModel([await response.blob()], {
    n_gpu_layers: 0,
    n_ctx: contextLength,
    // More than 1 runs wllama's pthreads mode, on an isolated page (the preview server's headers).
    n_threads: threads,
    n_parallel: 1,
  });
  wllama = instance;
}

async function run(body: WllamaBody, send: (message: WorkerMessage) => void): Promise<void> {
  if (!wllama) throw new Error('no model loaded');
  let counts = { promptTokens: 0, completionTokens: 0 };
  const onData = (chunk: RawCompletionChunk): void => {
    const text = chunk.choices.map((choice) => choice.text).join('');
    if (text) send({ type: 'text', text });
    const { usage } = chunk;
    if (usage) counts = { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens };
  };
  await wllama.createCompletion({
    ...GREEDY_SERVER,
    ...body,
    ...STREAMED,
    logit_bias: body.logit_bias as WllamaBias,
    onData,
  });
  send({ type: 'done', ...counts });
}

self.addEventListener('message', (event: MessageEvent<PageMessage>) => {
  const [port] = event.ports;
  if (!port) return;
  const send = (message: WorkerMessage): void => port.postMessage(message);
  const message = event.data;
  const work =
    message.type === 'load'
      ? load(message.url, message.contextLength, message.threads).then(() => send({ type: 'loaded' }))
      : run(message.body, send);
  work.catch((error: unknown) =>
    send({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
  );
});
