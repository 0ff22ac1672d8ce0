// Preloaded into every compile of the engine build (cc-wrapper.sh, build-engine.sh): the
// compiler's power-of-two blocks of 4 to 64 KiB start on 64 KiB boundaries, so that where
// the heap happens to be does not change the code it emits.
//
// Why: clang 21's WebAssembly backend walks maps keyed by MachineBasicBlock pointers
// (WebAssemblyCFGStackify's UnwindDestToTryRanges, llvm/llvm-project#204883, fixed by
// #205184 after clang 21), and a DenseMap of pointers is ordered by the pointers' bits 4-15
// while it has up to 128 buckets. Those blocks live in each MachineFunction's
// BumpPtrAllocator, whose slabs are power-of-two blocks of 4 KiB and more from malloc or
// aligned_alloc. A slab that starts on a 64 KiB boundary leaves those bits to the block's
// offset in its slab, which only the compile's own allocations decide. Without this, a path
// of another length (or address-space randomization) moved the heap, and llama-kv-cache.cpp's
// state_read_meta came out with two `try`s nested the other way: 43 other bytes in the
// simd, relaxed and webgpu wasm (docs/engine.md, "Byte for byte").
//
// Built with -nostdlib: the two glibc entry points below resolve in the compiler's process.
#include <stddef.h>

void *__libc_malloc(size_t size);
void *__libc_memalign(size_t alignment, size_t size);

enum { SLAB_ALIGNMENT = 64 * 1024 };

// A power of two from 4 KiB to 64 KiB: an LLVM slab's size (small blocks keep glibc's placing).
static int is_slab(size_t size) {
  return size >= 4096 && size <= SLAB_ALIGNMENT && (size & (size - 1)) == 0;
}

static size_t alignment_for(size_t alignment, size_t size) {
  return is_slab(size) && alignment < SLAB_ALIGNMENT ? SLAB_ALIGNMENT : alignment;
}

void *malloc(size_t size) {
  return is_slab(size) ? __libc_memalign(SLAB_ALIGNMENT, size) : __libc_malloc(size);
}

// libstdc++'s aligned operator new (LLVM's allocate_buffer) comes here.
void *aligned_alloc(size_t alignment, size_t size) {
  return __libc_memalign(alignment_for(alignment, size), size);
}

void *memalign(size_t alignment, size_t size) {
  return __libc_memalign(alignment_for(alignment, size), size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
  void *block = __libc_memalign(alignment_for(alignment, size), size);
  if (!block) return 12;  // ENOMEM
  *out = block;
  return 0;
}
