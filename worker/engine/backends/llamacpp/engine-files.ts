/** Which engine build a model loads: its wasm, and its loader's URL (null: the bundled single-threaded wasm32 one). */
export interface LlamaEngineFiles {
  wasm: string;
  loader: string | null;
  /** The build has pthreads: its loader spawns ggml's pool as pthread Workers. */
  pthreads: boolean;
}
