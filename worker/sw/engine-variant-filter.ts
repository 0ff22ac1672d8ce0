import { hasRelaxedSimd } from '#core/util/relaxed-simd';

/** The engine's files, by build: each name as the build writes it, or hashed (`-<hash>` before the extension). */
const MEMORY64 = /\/llama-engine(-relaxed|-simd)?-m64(-mt)?(-[\w-]+)?\.(wasm|mjs)$/;
const RELAXED_MT_WASM = /\/llama-engine-relaxed-mt(-[\w-]+)?\.wasm$/;
const SIMD_MT_WASM = /\/llama-engine-(simd-)?mt(-[\w-]+)?\.wasm$/;
const MT_LOADER = /\/llama-engine-mt(-[\w-]+)?\.mjs$/;
const WEBGPU = /\/llama-engine-webgpu(-[\w-]+)?\.(wasm|mjs)$/;
/** An engine wasm of the relaxed-SIMD build (`llama-engine-relaxed.wasm`, or hashed `llama-engine-relaxed-<hash>.wasm`). */
const RELAXED_WASM = /\/llama-engine-relaxed(-[\w-]+)?\.wasm$/;
/** An engine wasm of the SIMD128 build (`llama-engine.wasm`, or hashed `llama-engine-<hash>.wasm`). */
const SIMD_WASM = /\/llama-engine(-[\w-]+)?\.wasm$/;

/**
 * Whether the precache stores `url`: every file but the engine builds this browser will never
 * run. The engine worker takes the relaxed-SIMD wasm where `WebAssembly.validate` accepts relaxed
 * SIMD and the SIMD128 one elsewhere, by the same probe as here, so only one of the two (~3.2 MB
 * each) is worth a first visit's download; and the pthreads builds (with their loader) only
 * where pages get threads (`threads`: the SW isolates the origin, or is itself isolated by the
 * server's headers). The memory64 builds (with their loaders) are never stored: only a model too
 * large for wasm32 loads one, and such a model is itself a download of gigabytes. Nor is the
 * WebGPU build (with its loader): the engine loads it only where the browser has all it needs
 * (worker/engine/backends/llamacpp/webgpu-probe.ts), which the SW does not ask. The others stay
 * listed: were one ever asked for, the precache route fetches it from the network.
 */
export function precachesFile(url: string, relaxed = hasRelaxedSimd(), threads = false): boolean {
  const path = new URL(url, 'https://x.invalid/').pathname;
  if (MEMORY64.test(path) || WEBGPU.test(path)) return false;
  if (MT_LOADER.test(path)) return threads;
  if (RELAXED_MT_WASM.test(path)) return threads && relaxed;
  if (SIMD_MT_WASM.test(path)) return threads && !relaxed;
  if (RELAXED_WASM.test(path)) return relaxed;
  if (SIMD_WASM.test(path)) return !relaxed;
  return true;
}
