#!/bin/sh
# The engine build's compiler wrapper (EM_COMPILER_WRAPPER, build-engine.sh), in the chroot:
# ccache, with heap-align.so preloaded into the compiler so that its output does not depend on
# where the heap is (heap-align.c says why). ccache hashes the shim's source with each compile.
exec env LD_PRELOAD=/src/heap-align.so CCACHE_EXTRAFILES=/src/heap-align.c ccache "$@"
