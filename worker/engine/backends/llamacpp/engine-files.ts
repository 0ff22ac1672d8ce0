import { engineLoaderFile, engineWasmFile, type EngineBuild, type EngineFile } from '#core/domain/engine-build';

/** Which engine build a model loads: its wasm, and its loader's URL (null: the bundled single-threaded wasm32 one). */
export interface LlamaEngineFiles {
  wasm: string;
  loader: string | null;
  /** The build has pthreads: its loader spawns ggml's pool as pthread Workers. */
  pthreads: boolean;
}

/** The files of `build`, each shipped name's URL given by `url` (the bundler's, or the page's). */
export function engineFilesAt(build: EngineBuild, url: (file: EngineFile) => string): LlamaEngineFiles {
  const loader = engineLoaderFile(build);
  const pthreads = build.webgpu !== true && build.pthreads;
  return { wasm: url(engineWasmFile(build)), loader: loader === null ? null : url(loader), pthreads };
}
