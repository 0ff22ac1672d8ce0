import { hasRelaxedSimd } from '#core/util/relaxed-simd';

/** An engine wasm of the relaxed-SIMD build (`llama-engine-relaxed.wasm`, or hashed `llama-engine-relaxed-<hash>.wasm`). */
const RELAXED_WASM = /\/llama-engine-relaxed(-[\w-]+)?\.wasm$/;
/** An engine wasm of the SIMD128 build (`llama-engine.wasm`, or hashed `llama-engine-<hash>.wasm`). */
const SIMD_WASM = /\/llama-engine(-[\w-]+)?\.wasm$/;

/**
 * Whether the precache stores `url`: every file but the engine build this browser will never
 * run. The engine worker takes the relaxed-SIMD wasm where `WebAssembly.validate` accepts relaxed
 * SIMD and the SIMD128 one elsewhere, by the same probe as here, so only one of the two (~3.2 MB
 * each) is worth a first visit's download. The other stays listed: were it ever asked for, the
 * precache route fetches it from the network.
 */
export function precachesFile(url: string, relaxed = hasRelaxedSimd()): boolean {
  const path = new URL(url, 'https://x.invalid/').pathname;
  if (RELAXED_WASM.test(path)) return relaxed;
  if (SIMD_WASM.test(path)) return !relaxed;
  return true;
}
