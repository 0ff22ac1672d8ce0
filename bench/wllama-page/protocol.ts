/** Messages between the wllama bench page and its worker: one map per direction, unions derived. */

/** One completion for llama-server's core in wllama (its parameter names). */
export interface WllamaBody {
  prompt: string;
  max_tokens: number;
  temperature: number;
  ignore_eos: boolean;
  logit_bias: Record<string, number>;
  cache_prompt: boolean;
}

/** Page -> worker; each message brings the port its answers go to. */
export type PageToWorker = {
  load: { url: string; contextLength: number; threads: number };
  run: { body: WllamaBody };
};

/** Worker -> page, on the request's port. */
export type WorkerToPage = {
  loaded: object;
  text: { text: string };
  done: { promptTokens: number; completionTokens: number };
  error: { message: string };
};

type Tagged<M> = { [K in keyof M]: { type: K } & M[K] }[keyof M];
export type PageMessage = Tagged<PageToWorker>;
export type WorkerMessage = Tagged<WorkerToPage>;
