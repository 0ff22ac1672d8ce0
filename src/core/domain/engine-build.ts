/**
 * The llama.cpp engine's builds and their files as the package ships them (dist/inpage-llm/):
 * SIMD128 or relaxed SIMD (chosen by what the browser validates), single-threaded or with
 * pthreads (isolated pages with threads), and a wasm32 or memory64 heap (memory64 only for a
 * model too large for wasm32: it is slower). The single-threaded wasm32 build's loader is bundled
 * into the engine worker; every other build's loader is a file, imported by URL.
 */

export interface EngineBuild {
  relaxed: boolean;
  pthreads: boolean;
  memory64: boolean;
}

type Mode = `${'' | '-m64'}${'' | '-mt'}`;

/** The wasm file of a build. */
export type EngineWasmFile = `llama-engine${'' | '-relaxed'}${Mode}.wasm`;

/** The loader file of a build whose loader is not bundled. */
export type EngineLoaderFile = `llama-engine${Exclude<Mode, ''>}.mjs`;

export type EngineFile = EngineWasmFile | EngineLoaderFile;

const mode = (build: EngineBuild): Mode =>
  `${build.memory64 ? '-m64' : ''}${build.pthreads ? '-mt' : ''}` as const satisfies Mode;

export function engineWasmFile(build: EngineBuild): EngineWasmFile {
  return `llama-engine${build.relaxed ? '-relaxed' : ''}${mode(build)}.wasm`;
}

/** The build's loader file; null: the bundled one (single-threaded wasm32). */
export function engineLoaderFile(build: EngineBuild): EngineLoaderFile | null {
  const m = mode(build);
  return m === '' ? null : `llama-engine${m}.mjs`;
}

/**
 * Whether the package ships a WebGPU build of the engine (llama.cpp's ggml-webgpu, issue 36).
 * Not yet: a GGUF model runs on the CPU everywhere, and its card says so
 * (`accelerator_reason`: `no WebGPU engine build` where the browser has all the rest).
 */
export const WEBGPU_ENGINE_BUILT = false;
