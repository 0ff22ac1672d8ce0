/**
 * The llama.cpp engine's builds and their files as the package ships them (dist/inpage-llm/):
 * SIMD128 or relaxed SIMD (chosen by what the browser validates), single-threaded or with
 * pthreads (isolated pages with threads), and a wasm32 or memory64 heap (memory64 only for a
 * model too large for wasm32: it is slower); and the WebGPU build (llama.cpp's ggml-webgpu,
 * waiting on the GPU through JSPI: SIMD128, single-threaded, wasm32). The single-threaded wasm32
 * CPU build's loader is bundled into the engine worker; every other build's loader is a file,
 * imported by URL.
 */

/** A CPU build. */
export interface CpuEngineBuild {
  webgpu?: false;
  relaxed: boolean;
  pthreads: boolean;
  memory64: boolean;
}

/** The WebGPU build: the layers llama.cpp offloads run on the GPU, the rest on one CPU thread. */
export interface WebGpuEngineBuild {
  webgpu: true;
}

export type EngineBuild = CpuEngineBuild | WebGpuEngineBuild;

type Mode = `${'' | '-m64'}${'' | '-mt'}`;

/** The wasm file of a build. */
export type EngineWasmFile = `llama-engine${'' | '-relaxed'}${Mode}.wasm` | 'llama-engine-webgpu.wasm';

/** The loader file of a build whose loader is not bundled. */
export type EngineLoaderFile = `llama-engine${Exclude<Mode, ''>}.mjs` | 'llama-engine-webgpu.mjs';

export type EngineFile = EngineWasmFile | EngineLoaderFile;

const mode = (build: CpuEngineBuild): Mode =>
  `${build.memory64 ? '-m64' : ''}${build.pthreads ? '-mt' : ''}` as const satisfies Mode;

export function engineWasmFile(build: EngineBuild): EngineWasmFile {
  if (build.webgpu === true) return 'llama-engine-webgpu.wasm';
  return `llama-engine${build.relaxed ? '-relaxed' : ''}${mode(build)}.wasm`;
}

/** The build's loader file; null: the bundled one (single-threaded wasm32 CPU). */
export function engineLoaderFile(build: EngineBuild): EngineLoaderFile | null {
  if (build.webgpu === true) return 'llama-engine-webgpu.mjs';
  const m = mode(build);
  return m === '' ? null : `llama-engine${m}.mjs`;
}

/**
 * Whether models are placed on the WebGPU build of the engine (llama.cpp's ggml-webgpu, issue 36).
 * Not yet: the package ships the build (`llama-engine-webgpu.wasm`, which the tests load), but it
 * has not run on a real GPU, so a GGUF model runs on the CPU everywhere, and its card says so
 * (`accelerator_reason`: `no WebGPU engine build` where the browser has all the rest).
 */
export const WEBGPU_ENGINE_BUILT = false;
