/**
 * The engine wasm's module as Emscripten builds it: the glue's C API (native/*.cpp, `ip_*`),
 * the heap views and the file system. Only `llama-wasm.ts` touches it.
 */

/** A file system type Emscripten mounts. */
export type EmscriptenFsType = object;

/** An open file of WORKERFS: a Blob, read in place. */
export interface WorkerFsStream {
  node: { size: number; contents: Blob };
}

/** WORKERFS: Blobs mounted as files, each read a `FileReaderSync` call on a slice. */
export interface EmscriptenWorkerFs extends EmscriptenFsType {
  stream_ops: {
    read(stream: WorkerFsStream, buffer: Uint8Array, offset: number, length: number, position: number): number;
  };
}

export interface EmscriptenFs {
  mkdir(path: string): void;
  mount(type: EmscriptenFsType, options: { blobs: Array<{ name: string; data: Blob }> }, path: string): void;
  unmount(path: string): void;
  writeFile(path: string, data: Uint8Array): void;
  unlink(path: string): void;
}

export interface LlamaEngineOptions {
  /** Where the wasm file is (the loader asks for it by its built name). */
  locateFile: (name: string) => string;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
  /** The pthreads build: how many pthread Workers to spawn before the module resolves (ggml's pool less this thread). */
  pthreadPoolSize?: number;
}

type Ptr = number;

/**
 * What an export that may suspend returns: in the CPU variants its status at once; in a
 * WebGPU variant (JSPI) a promise of it, where ggml-webgpu waits for the GPU inside the call
 * (docs/design/webgpu-engine.md). `LlamaWasm` awaits both alike. The glue marks the same
 * exports `IP_EXPORT_MAY_SUSPEND` (native/engine.h: the WebGPU link's `-sJSPI_EXPORTS`);
 * engine-exports.test.ts keeps the two lists equal.
 */
export type MaySuspend<T = number> = T | Promise<T>;

export interface LlamaEngineModule {
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPF32: Float32Array;
  FS: EmscriptenFs;
  WORKERFS: EmscriptenWorkerFs;
  _malloc(bytes: number): Ptr;
  _free(ptr: Ptr): void;
  UTF8ToString(ptr: Ptr): string;
  _ip_error(): Ptr;
  _ip_out_i32(): Ptr;
  _ip_out_f32(): Ptr;
  _ip_out_bytes(): Ptr;
  _ip_load(
    path: Ptr,
    nCtx: number,
    nThreads: number,
    nThreadsBatch: number,
    maxF32CacheMib: number,
    nSlots: number,
    nGpuLayers: number,
  ): MaySuspend;
  /** The pthreads build (scripts/engine/threads-post.js): ends its pthread Workers. */
  stopThreads?(): void;
  _ip_info(): number;
  _ip_tokenize(text: Ptr, length: number, addSpecial: number, parseSpecial: number): number;
  _ip_tokenize_mixed(text: Ptr, length: number, ranges: Ptr, nRanges: number, addSpecial: number): number;
  _ip_piece(id: number, special: number): number;
  _ip_eog(id: number): number;
  _ip_begin(ids: Ptr, n: number, reuse: number): MaySuspend;
  _ip_prefill(max: number): MaySuspend;
  _ip_sampler(spec: Ptr): number;
  _ip_sample(index: number, nProbs: number, banEog: number): MaySuspend;
  _ip_draft_ngram(id: number, sizeN: number, sizeM: number): number;
  _ip_push_draft(ids: Ptr, n: number): MaySuspend;
  _ip_keep(n: number): number;
  _ip_accept(id: number): number;
  _ip_reasoning_end(): number;
  _ip_push(id: number): MaySuspend;
  _ip_use(slot: number): number;
  _ip_step(slots: Ptr, ids: Ptr, n: number): MaySuspend;
  _ip_slot_clear(slot: number): number;
  _ip_slot_copy(src: number, dst: number): MaySuspend;
  _ip_cached(): number;
  _ip_state_save(): MaySuspend;
  _ip_state_release(): void;
  _ip_state_restore(data: Ptr, size: number): MaySuspend;
  _ip_score(ids: Ptr, n: number, top: number): MaySuspend;
  _ip_embed(ids: Ptr, n: number, nCtx: number): MaySuspend;
  _ip_embed_batch(ids: Ptr, lens: Ptr, count: number, nCtx: number, nSeqs: number): MaySuspend;
  _ip_rerank_prompt(query: Ptr, queryLength: number, document: Ptr, documentLength: number): number;
  _ip_mmproj_load(path: Ptr, mediaMarker: Ptr, useGpu: number): MaySuspend;
  _ip_lora_load(path: Ptr): MaySuspend;
  _ip_lora_scales(scales: Ptr, n: number, embedding: number): number;
  _ip_media_marker(): Ptr;
  _ip_media_begin(
    text: Ptr,
    length: number,
    data: Ptr,
    sizes: Ptr,
    nMedia: number,
    reuse: number,
    addSpecial: number,
    parseSpecial: number,
  ): MaySuspend;
}
