/**
 * Test builds only: out of memory, on demand. Two triggers, set in the engine worker's global
 * scope by the e2e tests (through the DevTools protocol):
 * - `__inpageTestHeapCeiling = BYTES`: from now on, a wasm heap in this worker may not grow past
 *   BYTES; a growth past it is refused as the browser refuses one it cannot give (heap-growth.ts),
 *   so a model load that needs more runs out of memory;
 * - `__inpageTestExhaustHeap = N`: N generated tokens later, the heap is held at its size and
 *   every free byte of it is taken (`malloc` until it returns null), so the generation's next
 *   allocation fails, as it would on a device out of memory;
 * - `__inpageTestF32CacheMib = MIB`: models loaded from now on get that budget for an F32 KV
 *   cache instead of `F32_CACHE_MIB` (0: every model keeps llama.cpp's F16 cache, as one too
 *   large for the budget does);
 * - `__inpageTestHeapReserve = BYTES`: each engine started from now on takes BYTES of its heap
 *   first (never freed), so what it allocates after (the model, the results it hands back) lies
 *   above them: past 2 GiB, where a wasm32 address read as a signed int32 is negative;
 * - `__inpageTestMemory64 = true`: models loaded from now on get the memory64 build whatever
 *   their size (with the reserve: a heap past 4 GiB without a model of that size); `'cpu'`: they
 *   need it on the CPU only, as a model past wasm32's heap whose every layer the GPU takes
 *   (heap-choice.ts's hostShare): placed on the GPU they get the WebGPU build, and the memory64
 *   build where they fall back to the CPU;
 * - `__inpageTestWebGpuBuild = true`: models loaded from now on get the WebGPU build whatever
 *   their placement (engine-choice.ts), its layers on the GPU where ggml-webgpu finds a device;
 * - `__inpageTestPlaceOnGpu = true`: models loaded from now on are placed on the GPU as where
 *   the browser has all a WebGPU engine needs (webgpu-probe.ts), whatever this one has: the
 *   WebGPU build then finds no device here, and the model falls back to the CPU build;
 * - `__inpageTestKeepGpuPlacement = true`: a model placed on the GPU keeps its placement though
 *   the WebGPU build found no device (llama.cpp runs its layers on the CPU, inside that build):
 *   its card says `webgpu`, and a crash of its engine counts as a crash on the GPU.
 *
 * Kept out of production as test-trap.ts is: the only calls are under `if (__INPAGE_TEST_HOOKS__)`.
 */
import type { LlamaEngineModule } from './engine-module';
import { countdownDone } from './test-countdown';

const CEILING = '__inpageTestHeapCeiling';
const EXHAUST = '__inpageTestExhaustHeap';
const F32_CACHE = '__inpageTestF32CacheMib';
const RESERVE = '__inpageTestHeapReserve';
const MEMORY64 = '__inpageTestMemory64';
const WEBGPU_BUILD = '__inpageTestWebGpuBuild';
const PLACE_ON_GPU = '__inpageTestPlaceOnGpu';
const KEEP_GPU_PLACEMENT = '__inpageTestKeepGpuPlacement';

/** Takes the test's reserve of `module`'s heap, if one is set (at the engine's start). */
export function testHeapReserve(module: LlamaEngineModule): void {
  const bytes: unknown = Reflect.get(globalThis, RESERVE);
  if (typeof bytes === 'number' && bytes > 0 && module._malloc(bytes) === 0)
    throw new Error(`the test's heap reserve of ${bytes} bytes could not be taken`);
}

/** Whether the test asks for the memory64 build: for every placement (`all`), or on the CPU only. */
export function testMemory64(): 'all' | 'cpu' | null {
  const asked: unknown = Reflect.get(globalThis, MEMORY64);
  return asked === true ? 'all' : asked === 'cpu' ? 'cpu' : null;
}

/** Whether the test asks for the WebGPU build. */
export function testWebGpuBuild(): boolean {
  return Reflect.get(globalThis, WEBGPU_BUILD) === true;
}

/** Whether the test places models on the GPU. */
export function testPlaceOnGpu(): boolean {
  return Reflect.get(globalThis, PLACE_ON_GPU) === true;
}

/** Whether the test keeps a GPU placement the WebGPU build found no device for. */
export function testKeepGpuPlacement(): boolean {
  return Reflect.get(globalThis, KEEP_GPU_PLACEMENT) === true;
}

/** The test's heap ceiling in bytes, if one is set. */
export function testHeapCeiling(): number | undefined {
  const ceiling: unknown = Reflect.get(globalThis, CEILING);
  return typeof ceiling === 'number' ? ceiling : undefined;
}

/** The test's F32 KV cache budget in MiB, if one is set. */
export function testF32CacheMib(): number | undefined {
  const mib: unknown = Reflect.get(globalThis, F32_CACHE);
  return typeof mib === 'number' ? mib : undefined;
}

/** Called once per generated token: exhausts `module`'s heap when the trigger's count runs out. */
export function testExhaustPoint(module: LlamaEngineModule): void {
  if (!countdownDone(EXHAUST)) return;
  Reflect.set(globalThis, CEILING, module.HEAPU8.length);
  // Never freed: the heap stays full until the worker that holds it is replaced.
  for (let size = 64 * 1024 * 1024; size >= 8;) if (module._malloc(size) === 0) size >>= 1;
}
