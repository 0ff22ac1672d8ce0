// The generation context's attention: where the KV cache fits, F32 with flash attention off.
//
// ggml's wasm kernels have no F16 instructions: a KV cache in F16 (llama.cpp's default) is
// converted one lane at a time on every read, and with flash attention that conversion runs
// for every cached token of every decoded one. With the cache in F32 and flash attention off,
// attention is two F32 matmuls over the cache (SIMD, no conversion): decode at a depth of 256
// ran 1.9-2.5x as fast on the bench models (llama-bench in Node, docs/speed.md), prompts
// 0.83-1x. F32 doubles the cache, so it is used only where the cache in F32 fits the budget the
// worker gives (512 MiB; 0 turns it off) and leaves the weights and the cache within 3 GiB of
// the 4 GiB heap; other models keep llama.cpp's defaults. Without flash attention the scores of a
// whole micro-batch against the cache are held at once, so micro-batches are 64 tokens there
// (the worker's prompt steps).
#include "engine.h"

#include <cstdlib>
#include <string>

namespace {

constexpr int64_t kMaxWeightsAndCache = int64_t(3) << 30;
constexpr uint32_t kF32MicroBatch = 64;

// A GGUF integer of this model's architecture (`<arch>.<key>`), or `fallback` when absent.
int64_t arch_int(const llama_model * model, const char * key, int64_t fallback) {
  char arch[64], value[64];
  if (llama_model_meta_val_str(model, "general.architecture", arch, sizeof arch) < 0) return fallback;
  const std::string name = std::string(arch) + "." + key;
  if (llama_model_meta_val_str(model, name.c_str(), value, sizeof value) < 0) return fallback;
  return std::strtoll(value, nullptr, 10);
}

// The KV cache's bytes for `n_ctx` tokens in F32: per layer and token, a key and a value of
// each KV head (their widths from the GGUF, else the embedding over the heads).
int64_t f32_cache_bytes(const llama_model * model, int n_ctx) {
  const int64_t n_head = llama_model_n_head(model);
  if (n_head <= 0) return -1;  // no attention heads (a recurrent model): keep the defaults
  const int64_t key = arch_int(model, "attention.key_length", llama_model_n_embd(model) / n_head);
  const int64_t value = arch_int(model, "attention.value_length", key);
  return int64_t(llama_model_n_layer(model)) * n_ctx * llama_model_n_head_kv(model) * (key + value) * 4;
}

bool use_f32_cache(const llama_model * model, int n_ctx, int max_f32_cache_mib) {
  const int64_t bytes = f32_cache_bytes(model, n_ctx);
  return bytes > 0 && bytes <= (int64_t(max_f32_cache_mib) << 20) &&
         int64_t(llama_model_size(model)) + bytes <= kMaxWeightsAndCache;
}

}  // namespace

bool choose_attention(const llama_model * model, int n_ctx, int max_f32_cache_mib, llama_context_params & cp) {
  if (!use_f32_cache(model, n_ctx, max_f32_cache_mib)) return false;
  cp.type_k = GGML_TYPE_F32;
  cp.type_v = GGML_TYPE_F32;
  cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
  cp.n_ubatch = kF32MicroBatch;
  return true;
}
