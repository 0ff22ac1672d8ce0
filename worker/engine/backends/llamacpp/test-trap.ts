/**
 * Test builds only: a real wasm trap, on demand, in the middle of a generation. The e2e tests
 * set `__inpageTestTrap = N` in the engine worker's global scope (through the DevTools
 * protocol); N generated tokens later, the engine reads a prompt id just below 4 GiB, far past
 * the end of its heap, and the wasm traps ("memory access out of bounds") as a heap overrun in
 * llama.cpp would. `__inpageTestTrapLoad = N` traps the same way at the end of the Nth model
 * load from now (`testLoadTrapPoint`).
 *
 * Kept out of production: the only calls are under `if (__INPAGE_TEST_HOOKS__)`, a build-time
 * constant that is `true` only in the playground build the tests run (vite.config.ts) and
 * `false` in the package's bundles, whose minifier drops the dead branch and with it this module;
 * test/e2e/test-hooks-absent.test.ts greps the shipped files for the global's name.
 */
import type { LlamaEngineModule } from './engine-module';
import type { LlamaWasm } from './llama-wasm';
import { countdownDone } from './test-countdown';
import { testExhaustPoint } from './test-memory';

const TRIGGER = '__inpageTestTrap';
const LOAD_TRIGGER = '__inpageTestTrapLoad';
const modules = new WeakMap<LlamaWasm, LlamaEngineModule>();

/** Remembers `module` as `engine`'s (when it starts). */
export function armTestTrap(engine: LlamaWasm, module: LlamaEngineModule): void {
  modules.set(engine, module);
}

/**
 * Called once per generated token: traps `engine`'s wasm when the trigger's count runs out (and
 * runs test-memory.ts's trigger). Awaited: in the WebGPU build the call returns a promise, which
 * rejects with the trap (a CPU build's call throws it).
 */
export async function testTrapPoint(engine: LlamaWasm): Promise<void> {
  const module = modules.get(engine);
  if (module) testExhaustPoint(module);
  if (!countdownDone(TRIGGER)) return;
  await trap(engine);
}

/**
 * Called at the end of each model load in `engine` (any build, the WebGPU build's included):
 * traps its wasm when `__inpageTestTrapLoad`'s count runs out, so that the load throws as one
 * that ggml-webgpu aborts would (awaited: in the WebGPU build the call returns a promise, which
 * rejects with the trap).
 */
export async function testLoadTrapPoint(engine: LlamaWasm): Promise<void> {
  if (!countdownDone(LOAD_TRIGGER)) return;
  await trap(engine);
}

/** Reads a prompt id just below 4 GiB, far past the heap's end: the wasm traps inside the call. */
async function trap(engine: LlamaWasm): Promise<void> {
  await modules.get(engine)?._ip_begin(0xfffffff0, 1, 0);
}
