/** Which engine build a model loads: its wasm, and the pthreads build's loader (null: the bundled single-threaded one). */
export interface LlamaEngineFiles {
  wasm: string;
  loader: string | null;
}
