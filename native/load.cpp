// Loading: one model from the module's file system, one generation context.
#include "engine.h"

#include <exception>

Engine & engine() {
  static Engine state;
  return state;
}

Out & out() {
  static Out buffers;
  return buffers;
}

int fail(const std::string & message) {
  engine().error = message;
  return -1;
}

// llama.cpp's log goes to the console only for errors (the page's console is the user's).
// The last error line is kept too, for a reason llama.cpp only logs (lora.cpp).
static void on_log(ggml_log_level level, const char * text, void *) {
  if (level != GGML_LOG_LEVEL_ERROR) return;
  fputs(text, stderr);
  engine().log_error = text;
}

IP_EXPORT const char * ip_error() { return engine().error.c_str(); }

IP_EXPORT int32_t * ip_out_i32() { return out().i32.data(); }
IP_EXPORT float * ip_out_f32() { return out().f32.data(); }
IP_EXPORT uint8_t * ip_out_bytes() { return out().bytes.data(); }

// Loads the GGUF at `path` (read, not mapped) with a context of `n_ctx` tokens, its KV cache in
// F32 where that takes at most `max_f32_cache_mib` MiB (attention.cpp), decoding on `n_threads`
// threads and reading prompts on `n_threads_batch` (threads.cpp), with `n_slots` sequences, each
// with a KV cache stream of its own of n_ctx / n_slots cells (rounded up to 256 by llama.cpp), as
// llama-server's --parallel N has them by default. A slot's attention then reads only its own
// cells: batched, a sequence's results are the ones it gets alone, and a step's attention does
// not grow with the other slots' tokens (docs/slots.md). `n_gpu_layers` is llama.cpp's -ngl:
// the layers (and their KV cache) placed on the GPU where the build has one (the WebGPU build's
// ggml-webgpu, found through the backend registry); the CPU builds have none and take 0. 0 on success.
IP_EXPORT_MAY_SUSPEND int ip_load(const char * path, int n_ctx, int n_threads, int n_threads_batch,
                                  int max_f32_cache_mib, int n_slots, int n_gpu_layers) {
  Engine & e = engine();
  if (n_slots < 1 || n_slots > 64) return fail("slots must be 1 to 64");
  if (n_gpu_layers < 0) return fail("n_gpu_layers must be 0 or more");
  e.slots.assign(n_slots, Slot());
  llama_log_set(on_log, nullptr);
  llama_backend_init();
  try {
    llama_model_params mp = llama_model_default_params();
    mp.load_mode = LLAMA_LOAD_MODE_NONE;  // read the file, not mapped (a Blob in the worker)
    mp.lazy_mode = LLAMA_LAZY_MODE_OFF;
    mp.n_gpu_layers = n_gpu_layers;
    e.model = llama_model_load_from_file(path, mp);
    if (!e.model) return fail("llama.cpp could not load this GGUF file");
    e.vocab = llama_model_get_vocab(e.model);
    for (llama_token id = 0; id < llama_vocab_n_tokens(e.vocab); id++)
      if (llama_vocab_is_eog(e.vocab, id)) e.eog.push_back(id);
    llama_context_params cp = llama_context_default_params();
    cp.n_ctx = n_ctx;
    cp.n_batch = e.n_batch;
    cp.n_ubatch = e.n_batch;
    cp.n_seq_max = n_slots;
    // Sliding-window layers (Gemma 2 and 3, gpt-oss, OLMo 3) keep only their window and a batch
    // (llama-server's default; llama.cpp's own is a full-size cache for every layer): at 8k each of
    // Gemma 3's sliding layers (five of six) keeps 1,536 of 8,192 cells, the whole cache about a
    // third. A kept prefix whose window is gone goes back to a checkpoint (checkpoints.cpp), or
    // is read again (cut_cells, generate.cpp).
    cp.swa_full = false;
    // One slot keeps the one unified cache it always had: the prompt cache's saved states
    // (state.cpp) restored into it, and not into a stream of its own (0 tokens came back; not
    // looked into further). With one sequence the two hold the same cells.
    cp.kv_unified = n_slots == 1;
    cp.n_threads = n_threads;
    cp.n_threads_batch = n_threads_batch;
    cp.no_perf = true;
    e.f32_cache = choose_attention(e.model, n_ctx, max_f32_cache_mib, cp);
    e.ctx = llama_init_from_model(e.model, cp);
    if (!e.ctx) return fail("llama.cpp could not create a context of this size for this model");
    // Where the memory cannot go back everywhere, context checkpoints (checkpoints.cpp).
    e.checkpoints = llama_model_is_recurrent(e.model) || llama_model_is_hybrid(e.model) || llama_model_n_swa(e.model) > 0;
    if (!make_threads(n_threads, n_threads_batch)) return fail("the engine's threads could not start");
    attach_threads(e.ctx);
  } catch (const std::exception & error) {
    return fail(error.what());
  }
  return 0;
}

// The GPU devices llama.cpp's backend registry holds: ggml-webgpu's in the WebGPU build (none
// where the adapter lacks what its shaders need, or gave no device), none in the CPU builds. Read
// after the load, when the registry has asked the GPU (so this never waits on it).
static int32_t gpu_devices() {
  int32_t n = 0;
  for (size_t i = 0; i < ggml_backend_dev_count(); i++)
    if (ggml_backend_dev_type(ggml_backend_dev_get(i)) == GGML_BACKEND_DEVICE_TYPE_GPU) n++;
  return n;
}

// The model's numbers: [n_vocab, n_ctx, n_ctx_train, n_embd, add_bos, bos, eos, f32_cache,
// n_ctx_seq, gpu_devices, pooling, partial_rm]. `pooling` is the model's llama_pooling_type (its
// GGUF's `pooling_type`; 0, none, where it has none): 4 (rank) makes it a reranker (embed.cpp).
// `partial_rm` is 0 for a model with a recurrent state (recurrent or hybrid), whose memory cannot
// drop a sequence's last tokens (cut_cells): no drafts there.
IP_EXPORT int ip_info() {
  Engine & e = engine();
  out().i32 = {
      llama_vocab_n_tokens(e.vocab),
      static_cast<int32_t>(llama_n_ctx(e.ctx)),
      llama_model_n_ctx_train(e.model),
      llama_model_n_embd(e.model),
      llama_vocab_get_add_bos(e.vocab) ? 1 : 0,
      llama_vocab_bos(e.vocab),
      llama_vocab_eos(e.vocab),
      e.f32_cache ? 1 : 0,
      static_cast<int32_t>(llama_n_ctx_seq(e.ctx)),
      gpu_devices(),
      static_cast<int32_t>(llama_pooling_type(e.ctx)),
      llama_model_is_recurrent(e.model) || llama_model_is_hybrid(e.model) ? 0 : 1,
  };
  return static_cast<int>(out().i32.size());
}

int decode(llama_context * ctx, const llama_token * ids, int n, int pos, Logits logits, llama_seq_id seq) {
  llama_batch batch = llama_batch_init(n, 0, 1);
  for (int i = 0; i < n; i++) {
    batch.token[i] = ids[i];
    batch.pos[i] = pos + i;
    batch.n_seq_id[i] = 1;
    batch.seq_id[i][0] = seq;
    batch.logits[i] = logits == Logits::all || (logits == Logits::last && i == n - 1);
  }
  batch.n_tokens = n;
  const int status = llama_decode(ctx, batch);
  llama_batch_free(batch);
  return status;
}
