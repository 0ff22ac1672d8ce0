// The decode probe: llama-batched-bench's decode measure on the engine's own libraries, for
// working on the kernels (docs/slots.md). B sequences, each with a cache stream of its own as
// the page's slots have (kv_unified off), read a short prompt each; then every step decodes one
// token of each, in one llama_decode, and the probe prints the total tok/s and ms per step.
// The context is the engine's where its KV cache fits in F32 (native/attention.cpp: an F32
// cache, flash attention off, 64-token micro-batches); `f16` gives llama.cpp's defaults (an F16
// cache, flash attention where the backend has it), as a model too large for that budget has.
// With `profile`, each graph node is timed through the scheduler's eval callback (which makes
// every node a compute of its own: the total grows a little) and the time per step is summed by
// op (matrix products by weight type): where a step's time goes, 1 sequence against B.
//   usage: decode-probe MODEL PROMPT_TOKENS TOKENS B[,B...] [profile] [f16]
// Built and run by decode-probe.sh. One thread (the single-threaded libraries).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>
#include "ggml.h"
#include "llama.h"

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Seconds per op, summed while `timing` is on; `last` is when the previous node finished.
static std::map<std::string, double> op_seconds;
static double last = 0;
static bool timing = false;

// The eval callback: asked first whether to observe a node (every one), then called once it is computed.
static bool observe(ggml_tensor * t, bool ask, void *) {
  if (ask) return true;
  const double at = now();
  if (timing) {
    std::string key = ggml_op_desc(t);
    if (t->op == GGML_OP_MUL_MAT) key += std::string(":") + ggml_type_name(t->src[0]->type);
    op_seconds[key] += at - last;
  }
  last = at;
  return true;
}

static void add(llama_batch & batch, llama_token id, int pos, int seq, bool logits) {
  const int k = batch.n_tokens++;
  batch.token[k] = id;
  batch.pos[k] = pos;
  batch.n_seq_id[k] = 1;
  batch.seq_id[k][0] = seq;
  batch.logits[k] = logits;
}

int main(int argc, char ** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: decode-probe MODEL PROMPT_TOKENS TOKENS B[,B...] [profile] [f16]\n");
    return 2;
  }
  const int n_prompt = atoi(argv[2]), n_tokens = atoi(argv[3]);
  std::vector<int> sizes;
  for (char * p = argv[4]; *p;) {
    sizes.push_back(static_cast<int>(strtol(p, &p, 10)));
    if (*p == ',') p++;
  }
  bool profile = false, f16 = false;
  for (int i = 5; i < argc; ++i) {
    profile |= strcmp(argv[i], "profile") == 0;
    f16 |= strcmp(argv[i], "f16") == 0;
  }
  llama_backend_init();
  llama_log_set([](ggml_log_level, const char *, void *) {}, nullptr);
  llama_model * model = llama_model_load_from_file(argv[1], llama_model_default_params());
  if (!model) {
    fprintf(stderr, "decode-probe: cannot load %s\n", argv[1]);
    return 1;
  }
  for (const int b : sizes) {
    llama_context_params params = llama_context_default_params();
    params.n_ctx = 4096;
    params.n_batch = 512;
    params.n_ubatch = f16 ? 512 : 64;
    if (!f16) {
      params.type_k = params.type_v = GGML_TYPE_F32;
      params.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
    }
    params.n_seq_max = b;
    params.n_threads = params.n_threads_batch = 1;
    params.kv_unified = false;
    if (profile) params.cb_eval = observe;
    llama_context * ctx = llama_init_from_model(model, params);
    llama_batch batch = llama_batch_init(512, 0, 1);
    // Distinct prompts (token ids 10..209: any vocabulary has them).
    for (int s = 0; s < b; ++s) {
      batch.n_tokens = 0;
      for (int i = 0; i < n_prompt; ++i) add(batch, (i * 7 + s + 1) % 200 + 10, i, s, i == n_prompt - 1);
      llama_decode(ctx, batch);
    }
    llama_synchronize(ctx);
    op_seconds.clear();
    timing = true;
    const double started = last = now();
    for (int t = 0; t < n_tokens; ++t) {
      batch.n_tokens = 0;
      for (int s = 0; s < b; ++s) add(batch, (t * 13 + s) % 200 + 10, n_prompt + t, s, true);
      llama_decode(ctx, batch);
    }
    llama_synchronize(ctx);
    const double seconds = now() - started;
    timing = false;
    printf("B=%d: %.1f tok/s, %.2f ms a step\n", b, b * n_tokens / seconds, 1000 * seconds / n_tokens);
    for (const auto & [op, s] : op_seconds)
      if (1000 * s / n_tokens >= 0.1) printf("  %-24s %8.2f ms a step\n", op.c_str(), 1000 * s / n_tokens);
    fflush(stdout);
    llama_batch_free(batch);
    llama_free(ctx);
  }
  llama_model_free(model);
  return 0;
}
