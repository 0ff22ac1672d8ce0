/**
 * Counts the times this worker's browser refused to grow a wasm heap: how running out of memory
 * shows in wasm. The engine's heap (`ALLOW_MEMORY_GROWTH`) grows through
 * `WebAssembly.Memory.prototype.grow`, which throws a `RangeError` when the browser cannot give
 * more; Emscripten's loader catches it and llama.cpp sees a failed allocation, which it may
 * report in any of several ways (a message, a C++ exception, a null buffer). The count, read
 * before and after an engine step, tells a step that ran out of memory from one that failed for
 * its own reason, whatever llama.cpp made of it.
 *
 * `limit` (test builds only, see test-memory.ts) is a lower ceiling than the browser's: a growth
 * past it is refused the same way, so out-of-memory can be tested without exhausting the machine.
 */

const PAGE_BYTES = 65536;

let refused = 0;
let installed = false;

/** Starts counting (once per worker; later calls do nothing). */
export function watchHeapGrowth(limit?: () => number | undefined): void {
  if (installed) return;
  installed = true;
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, delta: number): number {
    try {
      const ceiling = limit?.();
      if (ceiling !== undefined && this.buffer.byteLength + delta * PAGE_BYTES > ceiling)
        throw new RangeError(`WebAssembly.Memory.grow(): the heap may not pass ${ceiling} bytes`);
      return grow.call(this, delta);
    } catch (error) {
      refused++;
      throw error;
    }
  };
}

/** How many growths were refused in this worker so far. */
export function refusedGrowths(): number {
  return refused;
}
