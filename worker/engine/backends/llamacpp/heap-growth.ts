/**
 * Counts the times this worker's browser refused to grow a wasm heap: how running out of memory
 * shows in wasm. The engine's heap (`ALLOW_MEMORY_GROWTH`) grows through
 * `WebAssembly.Memory.prototype.grow`, which throws a `RangeError` when the browser cannot give
 * more; Emscripten's loader catches it and llama.cpp sees a failed allocation, which it may
 * report in any of several ways (a message, a C++ exception, a null buffer). The count, read
 * before and after an engine step, tells a step that ran out of memory from one that failed for
 * its own reason, whatever llama.cpp made of it. Counted per heap: every module (one per loaded
 * model, WebLLM's too) has its own `WebAssembly.Memory`.
 *
 * `limit` (test builds only, see test-memory.ts) is a lower ceiling than the browser's: a growth
 * past it is refused the same way, so out-of-memory can be tested without exhausting the machine.
 */

const PAGE_BYTES = 65536;

/** Refused growths per heap, and each heap by its current buffer (what a module's `HEAPU8` views). */
const refusals = new WeakMap<WebAssembly.Memory, number>();
const heaps = new WeakMap<ArrayBufferLike, WebAssembly.Memory>();
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
      refusals.set(this, (refusals.get(this) ?? 0) + 1);
      throw error;
    } finally {
      heaps.set(this.buffer, this);
    }
  };
}

/**
 * How many growths were refused to the heap whose buffer is `buffer` (a module's
 * `HEAPU8.buffer`): each engine instance counts its own, not another model's or WebLLM's.
 */
export function refusedGrowths(buffer: ArrayBufferLike): number {
  const heap = heaps.get(buffer);
  return heap ? (refusals.get(heap) ?? 0) : 0;
}
