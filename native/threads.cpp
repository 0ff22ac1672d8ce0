// Threads: one ggml threadpool per engine, made at load and attached to every context.
//
// In the pthreads build (`-pthread`, __EMSCRIPTEN_PTHREADS__) the pool's threads are Web
// Workers that Emscripten spawns before the module resolves (PTHREAD_POOL_SIZE, set by the
// worker to the pool's size): pthread_create here only hands one of those a start message, so
// nothing blocks on a Worker that has yet to load, and no thread is ever made inside a decode.
// Without a pool ggml would make and join a disposable one per graph (a thread start per
// decoded token). Decode and prompt steps share the pool: a graph takes `n_threads` (decode)
// or `n_threads_batch` (prompt steps, embeddings) of its threads, as llama.cpp's -t and -tb.
// The single-threaded build makes no pool (the worker gives it 1 and 1).
#include "engine.h"

#include "ggml-cpu.h"

bool make_threads(int n_threads, int n_threads_batch) {
  Engine & e = engine();
  const int n = std::max(n_threads, n_threads_batch);
  if (n <= 1 || e.threads) return true;
#ifdef __EMSCRIPTEN_PTHREADS__
  ggml_threadpool_params params = ggml_threadpool_params_default(n);
  e.threads = ggml_threadpool_new(&params);
  return e.threads != nullptr;
#else
  return false;  // this build has no threads: the worker never asks it for more than one
#endif
}

void attach_threads(llama_context * ctx) {
  Engine & e = engine();
  if (e.threads) llama_attach_threadpool(ctx, e.threads, e.threads);
}

