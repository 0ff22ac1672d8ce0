/**
 * The engine wasm behind a typed API: strings and id arrays in, numbers and arrays out, a thrown
 * `Error` (with the glue's message) for every failure. One instance holds one model; its calls
 * are short (one batch each), so the caller's loop decides when to yield.
 *
 * The calls that decode, load, save or restore return promises: in a WebGPU variant they may
 * suspend while the GPU works (docs/design/webgpu-engine.md); in the CPU variants they are
 * settled at once. Whatever selects a slot (`use`) and makes its calls, or awaits one of them,
 * runs as one section (`exclusive`: engine-lock.ts), so that no other request's calls run in
 * between; test builds refuse a call on the context outside a section. The vocabulary's calls
 * (tokenize, piece, info) never suspend and read no slot: they run at any time.
 */
import createLlamaEngine from './wasm/llama-engine.mjs';
import type { KvCacheType } from '#core/domain/tokenize';
import type { ThreadCounts } from '#core/domain/threads';
import { bufferBlobReads } from './blob-reads';
import { EngineError, EngineInputError, SamplerError } from './engine-error';
import type { LlamaEngineFiles } from './engine-files';
import type { LlamaEngineModule, LlamaEngineOptions, MaySuspend } from './engine-module';
import { EngineLock } from './engine-lock';
import { refusedGrowths, watchHeapGrowth } from './heap-growth';
import { armTestTrap, testLoadTrapPoint } from './test-trap';
import { testHeapCeiling, testHeapReserve } from './test-memory';

/** True only in test builds (vite.config.ts; the package's bundles define it false): see test-trap.ts. */
declare const __INPAGE_TEST_HOOKS__: boolean;

const encoder = new TextEncoder();

/**
 * A loader imported from its URL: the pthreads builds' (not bundled: their pthread Workers load
 * the same file) and the memory64 builds' (fetched only for a model too large for wasm32).
 */
export async function importLoader(url: string): Promise<typeof createLlamaEngine> {
  const loader: unknown = await import(/* @vite-ignore */ url);
  if (!isLoaderModule(loader)) throw new EngineError(`${url} is not the engine's loader`);
  return loader.default;
}

function isLoaderModule(value: unknown): value is { default: typeof createLlamaEngine } {
  return typeof value === 'object' && value !== null && 'default' in value && typeof value.default === 'function';
}

/** How llama.cpp and the C++ runtime say an allocation failed, in what they print. */
const ALLOCATION_FAILED = /failed to allocate|bad_alloc|out of memory|cannot allocate/i;

/**
 * A heap address as the glue's exports return it, as a non-negative Number: a wasm32 heap past
 * 2 GiB has addresses whose int32 is negative (read unsigned here); a memory64 build's exports
 * return Numbers already, past 4 GiB too (scripts/engine/export-signatures.mjs), which `>>> 0`
 * would wrap.
 */
export const address = (pointer: number): number => (pointer < 0 ? pointer + 2 ** 32 : pointer);

/** Where the model's file is mounted in the module's file system. */
const MODEL_DIR = '/models';

/** Where a projector's file is mounted (apart from the model's: one WORKERFS mount per folder). */
const PROJECTOR_DIR = '/mmproj';

/** Where LoRA adapters' files are mounted, one folder each (a WORKERFS mount per folder). */
const LORA_DIR = '/lora';

/** The glue's statuses (native/generate.cpp, batch.cpp): a slot's tokens fill the context; the unified cache has no room now. */
const FULL = -2;
const NO_ROOM = -3;
/** native/media.cpp: the request's input is at fault (a media item it cannot read, say). */
const REFUSED = -4;

/** What a projector reads (native/media.cpp's ip_mmproj_load: a bit each). */
export interface Modalities {
  vision: boolean;
  audio: boolean;
}

/** A projector once loaded: what it reads, and whether mtmd placed its encoders on the GPU (ip_mmproj_load's bit 4). */
export interface ProjectorLoad {
  modalities: Modalities;
  onGpu: boolean;
}

/** One candidate of the raw distribution: token id and logprob. */
export interface RawCandidate {
  id: number;
  logprob: number;
}

/** A sampled (or scored) token with its logprob and the top candidates, when asked. */
export interface SampledToken extends RawCandidate {
  top: RawCandidate[];
}

export interface ModelNumbers {
  vocabSize: number;
  contextLength: number;
  /** The cells of each slot's KV cache stream (n_ctx / slots, rounded up to 256; n_ctx with one slot). */
  slotContext: number;
  trainedContext: number;
  embeddingSize: number;
  addBos: boolean;
  bos: number;
  /** The generation context's KV cache: F32 with flash attention off, or F16 with it (native/attention.cpp). */
  kvCacheType: KvCacheType;
  /** The GPU devices llama.cpp has (the WebGPU build's, where ggml-webgpu got one; 0 in the CPU builds). */
  gpuDevices: number;
  /** The model's llama_pooling_type (its GGUF's `pooling_type`; 0, none, where it has none): 4 is rank, a reranker. */
  pooling: number;
  /**
   * Whether its memory can drop a sequence's last tokens: false for a recurrent state (Mamba,
   * RWKV, and hybrids such as LFM2), which a prompt then reads again from its start where it does
   * not extend the cached one, and which takes no drafts.
   */
  partialRemoval: boolean;
}

/** llama.cpp's LLAMA_POOLING_TYPE_RANK: the model is a reranker, its pooled output a score. */
export const RANK_POOLING = 4;

export class LlamaWasm {
  /** The decodes of prompt steps and tokens (`prefill`, `step`, `push`, `pushDraft`), and the slots they held. */
  private readonly decoded = { decodes: 0, decodedSlots: 0 };
  /** Per slot: the prompt tokens `begin` left to read, less those `prefill` read since. */
  private pending: number[] = [0];
  /** Per slot: whether its prompt has media (`beginWithMedia`), whose steps take the projector's time. */
  private withMedia: boolean[] = [false];
  /** LoRA adapters loaded (loadLora). */
  private loras = 0;
  /** The slot the per-slot calls act on (`use`). */
  private current = 0;
  private readonly lock = new EngineLock();

  private constructor(
    private readonly m: LlamaEngineModule,
    private readonly failedAllocations: { count: number },
  ) {}

  /**
   * Instantiates the engine from `files`: the single-threaded wasm32 build (its loader bundled), or
   * a build whose loader is imported from its URL; a pthreads build's spawns `threads - 1` pthread
   * Workers (ggml's pool beside this thread) before it resolves, so no thread is started inside a call.
   */
  static async start(files: LlamaEngineFiles, threads = 1): Promise<LlamaWasm> {
    watchHeapGrowth(__INPAGE_TEST_HOOKS__ ? testHeapCeiling : undefined);
    const failedAllocations = { count: 0 };
    const options: LlamaEngineOptions = {
      locateFile: () => files.wasm,
      print: () => {},
      printErr: (text) => {
        if (ALLOCATION_FAILED.test(text)) failedAllocations.count++;
        console.warn(`[llama.cpp] ${text}`);
      },
    };
    const create = files.loader === null ? createLlamaEngine : await importLoader(files.loader);
    const module = await create(files.pthreads ? { ...options, pthreadPoolSize: threads - 1 } : options);
    const engine = new LlamaWasm(module, failedAllocations);
    if (__INPAGE_TEST_HOOKS__) {
      armTestTrap(engine, module);
      testHeapReserve(module);
    }
    return engine;
  }

  /**
   * Loads the GGUF in `files` (one, or a split model's parts in order, each under the name
   * llama.cpp derives from the first's) with a context of `contextLength` tokens. In a worker
   * the Blobs are mounted (read in place as llama.cpp asks for their parts); elsewhere they are
   * copied in. `slots`: the sequences the context holds at once (one unified KV cache).
   * `gpuLayers`: llama.cpp's `n_gpu_layers`, the layers the WebGPU build offloads (0 on the CPU).
   */
  async load(
    files: Array<{ name: string; blob: Blob }>,
    contextLength: number,
    threads: ThreadCounts,
    maxF32CacheMib: number,
    slots = 1,
    gpuLayers = 0,
  ): Promise<void> {
    const path = `${MODEL_DIR}/${files[0]?.name ?? 'model.gguf'}`;
    if (typeof FileReaderSync !== 'undefined') bufferBlobReads(this.m.WORKERFS);
    await this.mount(MODEL_DIR, files);
    this.check(
      await this.withStringAwaited(path, (ptr) =>
        this.m._ip_load(ptr, contextLength, threads.decode, threads.prefill, maxF32CacheMib, slots, gpuLayers),
      ),
    );
    this.pending = new Array<number>(slots).fill(0);
    this.withMedia = new Array<boolean>(slots).fill(false);
    if (__INPAGE_TEST_HOOKS__) await testLoadTrapPoint(this);
  }

  /**
   * Puts `files` in the folder `dir` of the module's file system: in a worker mounted (WORKERFS,
   * read in place as llama.cpp asks for their parts), elsewhere copied in.
   */
  private async mount(dir: string, files: ReadonlyArray<{ name: string; blob: Blob }>): Promise<void> {
    const { FS, WORKERFS } = this.m;
    FS.mkdir(dir);
    if (typeof FileReaderSync === 'undefined')
      for (const file of files) FS.writeFile(`${dir}/${file.name}`, new Uint8Array(await file.blob.arrayBuffer()));
    else FS.mount(WORKERFS, { blobs: files.map((file) => ({ name: file.name, data: file.blob })) }, dir);
  }

  /**
   * Loads a projector (llama.cpp's mtmd, an `--mmproj` GGUF) for the loaded model, mounted as
   * the model's file is; returns what it reads and where it runs. `mediaMarker` stands for one
   * media item in a prompt (empty: mtmd's `<__media__>`); `onGpu` asks for the GPU (mtmd's
   * `use_gpu`: taken where the build has a GPU device). A projector made for another model throws
   * (llama.cpp's message says why: the widths differ, say).
   */
  async loadProjector(file: { name: string; blob: Blob }, mediaMarker = '', onGpu = false): Promise<ProjectorLoad> {
    const path = `${PROJECTOR_DIR}/${file.name}`;
    await this.mount(PROJECTOR_DIR, [file]);
    const bits = this.check(
      await this.withStringAwaited(path, (pathPtr) =>
        this.withStringAwaited(mediaMarker, (markerPtr) => this.m._ip_mmproj_load(pathPtr, markerPtr, onGpu ? 1 : 0)),
      ),
    );
    return { modalities: { vision: (bits & 1) !== 0, audio: (bits & 2) !== 0 }, onGpu: (bits & 4) !== 0 };
  }

  /**
   * Loads a LoRA adapter GGUF (llama-server's `--lora`) for the loaded model, mounted as the
   * model's file is, at scale 0 (`loraScales` sets it); returns its id (the count loaded
   * before it). One made for another model throws, with llama.cpp's reason (a tensor the
   * model does not have, another shape, another architecture).
   */
  async loadLora(file: { name: string; blob: Blob }): Promise<number> {
    const dir = `${LORA_DIR}/${this.loras}`;
    if (this.loras === 0) this.m.FS.mkdir(LORA_DIR);
    await this.mount(dir, [file]);
    const id = this.check(await this.withStringAwaited(`${dir}/${file.name}`, (ptr) => this.m._ip_lora_load(ptr)));
    this.loras += 1;
    return id;
  }

  /**
   * Sets the adapters' scales (one each, in load order; 0: off) on the generation context, or
   * with `embedding` on the embedding context, from its next decode on (native/lora.cpp).
   */
  loraScales(scales: readonly number[], embedding = false): void {
    this.inSection('loraScales');
    const ptr = this.malloc(Math.max(1, scales.length) * 4);
    try {
      this.m.HEAPF32.set(scales, ptr / 4);
      this.check(this.m._ip_lora_scales(ptr, scales.length, embedding ? 1 : 0));
    } finally {
      this.m._free(ptr);
    }
  }

  /**
   * Runs `section` once the sections asked for before it have settled (engine-lock.ts): a slot
   * selected in it stays selected, and nothing else calls the context, until it ends.
   */
  exclusive<T>(section: () => T | Promise<T>): Promise<T> {
    return this.lock.exclusive(section);
  }

  /** Test builds: a call on the context outside a section is its caller's bug (engine-lock.ts). */
  private inSection(call: string): void {
    if (__INPAGE_TEST_HOOKS__ && !this.lock.held)
      throw new Error(`LlamaWasm.${call} was called outside a section (exclusive)`);
  }

  /** The text that stands for one media item in `beginWithMedia`'s prompt (`loadProjector`'s `mediaMarker`). */
  mediaMarker(): string {
    return this.m.UTF8ToString(address(this.m._ip_media_marker()));
  }

  /**
   * Starts a generation on `text`, whose media markers stand for `media` in order (image or
   * audio files' bytes), through the projector; returns the prompt's ids (-1 for each media
   * position) and how many came from the context's cached prefix (never past the first media
   * item). A request at fault (an item that is no image or audio, a modality the projector
   * lacks, markers and items not as many, a prompt ending with media) throws EngineInputError.
   */
  async beginWithMedia(
    text: string,
    media: readonly Uint8Array[],
    reuse: boolean,
    addSpecial: boolean,
    parseSpecial: boolean,
  ): Promise<{ ids: number[]; cached: number }> {
    this.inSection('beginWithMedia');
    // mtmd counts them too, but says only that they differ (as a preprocessing failure, status 2).
    const marker = this.mediaMarker();
    const markers = text.split(marker).length - 1;
    if (markers !== media.length)
      throw new EngineInputError(
        `the prompt has ${markers} media markers (${marker}) and ${media.length} media items: each item needs one marker`,
      );
    const total = media.reduce((sum, item) => sum + item.length, 0);
    const data = this.malloc(Math.max(1, total));
    try {
      let at = data;
      for (const item of media) {
        this.m.HEAPU8.set(item, at);
        at += item.length;
      }
      const sizes = media.map((item) => item.length);
      const status = await this.withStringAwaited(text, (ptr, length) =>
        this.withIdsAwaited(sizes, (sizesPtr) =>
          this.m._ip_media_begin(
            ptr,
            length,
            data,
            sizesPtr,
            media.length,
            reuse ? 1 : 0,
            addSpecial ? 1 : 0,
            parseSpecial ? 1 : 0,
          ),
        ),
      );
      if (status === REFUSED) {
        const why = this.m.UTF8ToString(address(this.m._ip_error()));
        const item = /^media item (\d+) /.exec(why)?.[1];
        throw new EngineInputError(why, item === undefined ? null : Number(item));
      }
      const ids = this.i32(this.check(status));
      const cached = this.m._ip_cached();
      this.pending[this.current] = ids.length - cached;
      this.withMedia[this.current] = true;
      return { ids, cached };
    } finally {
      this.m._free(data);
    }
  }

  /**
   * Grows each time an allocation failed for want of memory: a refused growth of this
   * engine's heap (heap-growth.ts), llama.cpp saying so, or the heap's `malloc` returning null here.
   */
  memoryFailures(): number {
    return refusedGrowths(this.m.HEAPU8.buffer) + this.failedAllocations.count;
  }

  /** Ends the pthreads build's Workers (the module is dropped with its model); nothing in the single-threaded build. */
  dispose(): void {
    this.m.stopThreads?.();
  }

  /** The heap's size now, in bytes. */
  heapBytes(): number {
    return this.m.HEAPU8.length;
  }

  info(): ModelNumbers {
    const n = this.m._ip_info();
    // [n_vocab, n_ctx, n_ctx_train, n_embd, add_bos, bos, eos, f32_cache, n_ctx_seq, gpu_devices, pooling, partial_rm] (native/load.cpp)
    const [
      vocabSize = 0,
      contextLength = 0,
      trainedContext = 0,
      embeddingSize = 0,
      addBos = 0,
      bos = -1,
      ,
      f32 = 0,
      slotContext = contextLength,
      gpuDevices = 0,
      pooling = 0,
      partialRemoval = 1,
    ] = this.i32(n);
    const kvCacheType: KvCacheType = f32 === 1 ? 'f32' : 'f16';
    return {
      vocabSize,
      contextLength,
      slotContext,
      trainedContext,
      embeddingSize,
      addBos: addBos === 1,
      bos,
      kvCacheType,
      gpuDevices,
      pooling,
      partialRemoval: partialRemoval === 1,
    };
  }

  /** Text to ids. `parseSpecial`: control-token texts become control tokens. */
  tokenize(text: string, addSpecial: boolean, parseSpecial: boolean): number[] {
    const n = this.withString(text, (ptr, length) =>
      this.m._ip_tokenize(ptr, length, addSpecial ? 1 : 0, parseSpecial ? 1 : 0),
    );
    if (n < 0) throw new EngineError('the text could not be tokenized');
    return this.i32(n);
  }

  /**
   * The ids llama-server scores a query and a document with on a reranker (native/embed.cpp):
   * its `rerank` template filled in, else `[BOS] query [EOS] [SEP] document [EOS]`.
   */
  rerankPrompt(query: string, document: string): number[] {
    const n = this.withString(query, (queryPtr, queryLength) =>
      this.withString(document, (documentPtr, documentLength) =>
        this.m._ip_rerank_prompt(queryPtr, queryLength, documentPtr, documentLength),
      ),
    );
    if (n < 0) throw new EngineError('the query and document could not be tokenized');
    return this.i32(n);
  }

  /**
   * A rendered conversation to ids: control tokens are read only in the template's own text
   * (`special` segments); the request's text never becomes one (native/mixed.cpp).
   */
  tokenizeMixed(segments: ReadonlyArray<{ text: string; special: boolean }>, addSpecial: boolean): number[] {
    const parts = segments.map((segment) => ({ bytes: encoder.encode(segment.text), special: segment.special }));
    const length = parts.reduce((sum, part) => sum + part.bytes.length, 0);
    const ranges: number[] = [];
    const text = this.malloc(length + 1);
    try {
      let at = 0;
      for (const part of parts) {
        this.m.HEAPU8.set(part.bytes, text + at);
        if (!part.special) ranges.push(at, at + part.bytes.length);
        at += part.bytes.length;
      }
      const n = this.withIds(ranges, (ptr) =>
        this.m._ip_tokenize_mixed(text, length, ptr, ranges.length / 2, addSpecial ? 1 : 0),
      );
      return this.i32(this.check(n));
    } finally {
      this.m._free(text);
    }
  }

  /** The bytes of token `id`; control tokens are empty unless `special`. */
  piece(id: number, special: boolean): number[] {
    const n = this.m._ip_piece(id, special ? 1 : 0);
    const at = address(this.m._ip_out_bytes());
    return Array.from(this.m.HEAPU8.subarray(at, at + Math.max(0, n)));
  }

  isEndOfGeneration(id: number): boolean {
    return this.m._ip_eog(id) === 1;
  }

  /** Starts a generation on `ids`; returns how many came from the context's cached prefix. */
  async begin(ids: readonly number[], reuse: boolean): Promise<number> {
    this.inSection('begin');
    const cached = this.check(
      await this.withIdsAwaited(ids, (ptr) => this.m._ip_begin(ptr, ids.length, reuse ? 1 : 0)),
    );
    this.pending[this.current] = ids.length - cached;
    this.withMedia[this.current] = false;
    return cached;
  }

  /** Whether the selected slot's prompt still has tokens to read and has media (a step may run the projector). */
  readsMedia(): boolean {
    return (this.withMedia[this.current] ?? false) && this.pendingTokens() > 0;
  }

  /**
   * Reads up to `max` more prompt tokens; returns how many are left, or null where the unified
   * cache has no room for them now (other slots hold its cells; nothing was read).
   */
  async prefill(max: number): Promise<number | null> {
    this.inSection('prefill');
    const status = await this.m._ip_prefill(max);
    if (status === NO_ROOM) return null;
    this.pending[this.current] = this.check(status);
    this.countDecode(1);
    return this.check(status);
  }

  /** The prompt tokens `begin` left to read, less those `prefill` read since. */
  pendingTokens(): number {
    return this.pending[this.current] ?? 0;
  }

  /** Selects the slot that the per-slot calls (begin, prefill, sampler, sample, accept, push, drafts, states) act on. */
  use(slot: number): void {
    this.inSection('use');
    this.check(this.m._ip_use(slot));
    this.current = slot;
  }

  /**
   * Decodes `ids[i]` after slot `slots[i]`'s tokens, all in one batch (native/batch.cpp); then
   * `use(slots[i])` and `sample(..., i)` sample slot `slots[i]`'s next token. 'full': a slot's
   * tokens fill the context; 'no-room': the unified cache has no room for the step now.
   */
  async step(slots: readonly number[], ids: readonly number[]): Promise<'ok' | 'full' | 'no-room'> {
    this.inSection('step');
    const status = await this.withIdsAwaited(slots, (slotsPtr) =>
      this.withIdsAwaited(ids, (idsPtr) => this.m._ip_step(slotsPtr, idsPtr, ids.length)),
    );
    if (status === FULL) return 'full';
    if (status === NO_ROOM) return 'no-room';
    this.check(status);
    this.countDecode(slots.length);
    return 'ok';
  }

  /** Drops slot `slot`'s cells. */
  clearSlot(slot: number): void {
    this.inSection('clearSlot');
    this.check(this.m._ip_slot_clear(slot));
    this.pending[slot] = 0;
  }

  /** Copies slot `src`'s cells and tokens into slot `dst` (the copy is made at the next decode). */
  async copySlot(src: number, dst: number): Promise<void> {
    this.inSection('copySlot');
    this.check(await this.m._ip_slot_copy(src, dst));
    this.pending[dst] = 0;
  }

  /** Sets up the sampler (llama-server's field names; see native/sampling.cpp). */
  sampler(spec: object): void {
    this.inSection('sampler');
    this.check(this.withString(JSON.stringify(spec), (ptr) => this.m._ip_sampler(ptr)));
  }

  /**
   * Samples the next token; `top` > 0 also reports the raw distribution's logprobs. `index`: the
   * batch position whose logits it samples (-1: the last decoded; a draft's: `pushDraft`).
   */
  async sample(top: number, banEndOfGeneration: boolean, index = -1): Promise<SampledToken> {
    this.inSection('sample');
    const id = this.check(await this.m._ip_sample(index, top, banEndOfGeneration ? 1 : 0), SamplerError);
    if (top <= 0) return { id, logprob: 0, top: [] };
    const [entry] = this.entries(1, top);
    return entry ? { ...entry, id } : { id, logprob: 0, top: [] };
  }

  /** Feeds the sampled token to the sampler; a grammar that cannot take it throws SamplerError. */
  accept(id: number): void {
    this.inSection('accept');
    this.check(this.m._ip_accept(id), SamplerError);
  }

  /** Ends the slot's reasoning from its next token (ip_reasoning_end); false: no budget sampler counting. */
  reasoningEnd(): boolean {
    this.inSection('reasoningEnd');
    return this.m._ip_reasoning_end() === 1;
  }

  /** Decodes the generated token `id`; false when the context is full. */
  async push(id: number): Promise<boolean> {
    this.inSection('push');
    const status = await this.m._ip_push(id);
    if (status === FULL) return false;
    if (status === NO_ROOM) throw new EngineError('the context has no room left for this slot');
    this.check(status);
    this.countDecode(1);
    return true;
  }

  /**
   * The n-gram draft after the sampled token `id` (not decoded yet), from the
   * context's tokens: n-grams of `sizeN`, drafts of up to `sizeM` (native/speculative.cpp).
   */
  draftNgram(id: number, sizeN: number, sizeM: number): number[] {
    this.inSection('draftNgram');
    return this.i32(this.check(this.m._ip_draft_ngram(id, sizeN, sizeM)));
  }

  /**
   * Decodes `ids` (a sampled token and its draft) after the context's tokens in one batch, with
   * logits at each: `sample(..., i)` samples after the i-th. False when they do not fit.
   */
  async pushDraft(ids: readonly number[]): Promise<boolean> {
    this.inSection('pushDraft');
    const status = await this.withIdsAwaited(ids, (ptr) => this.m._ip_push_draft(ptr, ids.length));
    if (status === -2) return false;
    this.check(status);
    this.countDecode(1);
    return true;
  }

  /** The decodes of prompt steps and tokens since the start, and the slots they held together (`/metrics`). */
  decodeCounts(): { decodes: number; decodedSlots: number } {
    return { ...this.decoded };
  }

  private countDecode(slots: number): void {
    this.decoded.decodes += 1;
    this.decoded.decodedSlots += slots;
  }

  /** Keeps the context's first `n` tokens (a draft's accepted part) and drops the rest. */
  keep(n: number): void {
    this.inSection('keep');
    this.check(this.m._ip_keep(n));
  }

  /** The tokens whose KV entries the context holds (the prompt and generation so far). */
  cachedTokens(): number[] {
    this.inSection('cachedTokens');
    return this.i32(this.m._ip_cached());
  }

  /**
   * Slot `slot`'s tokens, at any time (a section of another request may be suspended): nothing
   * here suspends, and the slot selected before is selected again.
   */
  slotTokens(slot: number): number[] {
    const selected = this.current;
    this.check(this.m._ip_use(slot));
    try {
      return this.i32(this.m._ip_cached());
    } finally {
      this.m._ip_use(selected);
    }
  }

  /**
   * The context's state and its tokens, as the bytes of llama.cpp's sequence-state file (the
   * file llama-server's slot save writes: native/state.cpp).
   */
  async saveState(): Promise<Uint8Array<ArrayBuffer>> {
    this.inSection('saveState');
    try {
      const size = this.check(await this.m._ip_state_save());
      const at = address(this.m._ip_out_bytes());
      return this.m.HEAPU8.slice(at, at + size);
    } finally {
      this.m._ip_state_release();
    }
  }

  /**
   * Replaces the context's contents with a state `saveState` wrote (here or in an earlier
   * page load); returns the tokens it holds. A state llama.cpp refuses throws, and leaves the
   * context empty.
   */
  async restoreState(bytes: Uint8Array): Promise<number> {
    this.inSection('restoreState');
    this.pending[this.current] = 0;
    const ptr = this.malloc(Math.max(1, bytes.length));
    try {
      this.m.HEAPU8.set(bytes, ptr);
      return this.check(await this.m._ip_state_restore(ptr, bytes.length));
    } finally {
      this.m._free(ptr);
    }
  }

  /** Each of `ids[1..]` scored given the ones before it, with the top `top` candidates. */
  async score(ids: readonly number[], top: number): Promise<SampledToken[]> {
    this.inSection('score');
    const n = this.check(await this.withIdsAwaited(ids, (ptr) => this.m._ip_score(ptr, ids.length, top)));
    return this.entries(n, top);
  }

  /**
   * The pooled (unnormalized) embedding of `ids`, in a context of `contextLength` tokens, and how
   * many leading ids were kept from the call before, not evaluated again (native/embed.cpp).
   */
  async embed(ids: readonly number[], contextLength: number): Promise<{ vector: number[]; kept: number }> {
    this.inSection('embed');
    const dim = this.check(await this.withIdsAwaited(ids, (ptr) => this.m._ip_embed(ptr, ids.length, contextLength)));
    const at = address(this.m._ip_out_f32()) / 4;
    const [kept = 0] = this.i32(1);
    return { vector: Array.from(this.m.HEAPF32.subarray(at, at + dim)), kept };
  }

  /**
   * An encoder's pooled embeddings of several inputs in one decode (native/embed.cpp's
   * ip_embed_batch), in order: at most `seqs` inputs of at most `contextLength` tokens together,
   * the embedding context made with those sizes on first use (a model without a KV cache only).
   */
  async embedBatch(inputs: readonly (readonly number[])[], contextLength: number, seqs: number): Promise<number[][]> {
    this.inSection('embedBatch');
    const lens = inputs.map((ids) => ids.length);
    const dim = this.check(
      await this.withIdsAwaited(inputs.flat(), (idsPtr) =>
        this.withIdsAwaited(lens, (lensPtr) =>
          this.m._ip_embed_batch(idsPtr, lensPtr, inputs.length, contextLength, seqs),
        ),
      ),
    );
    const at = address(this.m._ip_out_f32()) / 4;
    return inputs.map((_, k) => Array.from(this.m.HEAPF32.subarray(at + k * dim, at + (k + 1) * dim)));
  }

  /** `count` report entries (id and logprob, then `top` candidates) from the output buffers. */
  private entries(count: number, top: number): SampledToken[] {
    const ids = address(this.m._ip_out_i32()) / 4;
    const logprobs = address(this.m._ip_out_f32()) / 4;
    const stride = top + 1;
    const result: SampledToken[] = [];
    for (let e = 0; e < count; e++) {
      const at = e * stride;
      const candidates: RawCandidate[] = [];
      for (let k = 1; k <= top; k++)
        candidates.push({ id: this.m.HEAP32[ids + at + k] ?? 0, logprob: this.m.HEAPF32[logprobs + at + k] ?? 0 });
      result.push({ id: this.m.HEAP32[ids + at] ?? 0, logprob: this.m.HEAPF32[logprobs + at] ?? 0, top: candidates });
    }
    return result;
  }

  private i32(n: number): number[] {
    const at = address(this.m._ip_out_i32()) / 4;
    return Array.from(this.m.HEAP32.subarray(at, at + Math.max(0, n)));
  }

  /** Calls `call` with `ids` as int32s in the heap. */
  private withIds(ids: readonly number[], call: (ptr: number) => number): number {
    const ptr = this.heapIds(ids);
    try {
      return call(ptr);
    } finally {
      this.m._free(ptr);
    }
  }

  /** `withIds` for an export that may suspend: the ids are freed once it has settled. */
  private async withIdsAwaited(ids: readonly number[], call: (ptr: number) => MaySuspend): Promise<number> {
    const ptr = this.heapIds(ids);
    try {
      return await call(ptr);
    } finally {
      this.m._free(ptr);
    }
  }

  private heapIds(ids: readonly number[]): number {
    const ptr = this.malloc(Math.max(1, ids.length) * 4);
    this.m.HEAP32.set(ids, ptr / 4);
    return ptr;
  }

  /** Calls `call` with `text` as NUL-terminated UTF-8 in the heap (and its length in bytes). */
  private withString(text: string, call: (ptr: number, length: number) => number): number {
    const [ptr, length] = this.heapString(text);
    try {
      return call(ptr, length);
    } finally {
      this.m._free(ptr);
    }
  }

  /** `withString` for an export that may suspend: the text is freed once it has settled. */
  private async withStringAwaited(text: string, call: (ptr: number, length: number) => MaySuspend): Promise<number> {
    const [ptr, length] = this.heapString(text);
    try {
      return await call(ptr, length);
    } finally {
      this.m._free(ptr);
    }
  }

  /** `text` as NUL-terminated UTF-8 in the heap, and its length in bytes. */
  private heapString(text: string): [number, number] {
    const bytes = encoder.encode(text);
    const ptr = this.malloc(bytes.length + 1);
    this.m.HEAPU8.set(bytes, ptr);
    this.m.HEAPU8[ptr + bytes.length] = 0;
    return [ptr, bytes.length];
  }

  /**
   * `bytes` of the heap (a null pointer, for want of memory, throws instead). Addresses are
   * read through `address` everywhere here.
   */
  private malloc(bytes: number): number {
    const ptr = address(this.m._malloc(bytes));
    if (ptr !== 0) return ptr;
    this.failedAllocations.count++;
    throw new Error(`the engine's heap has no room for ${bytes} bytes`);
  }

  /** Throws the glue's last error for a negative status. */
  /** `status`, or the glue's failure as `Failure` (the sampler's calls: SamplerError, the request's). */
  private check(status: number, Failure: typeof EngineError = EngineError): number {
    if (status < 0) throw new Failure(this.m.UTF8ToString(address(this.m._ip_error())));
    return status;
  }
}
