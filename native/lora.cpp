// LoRA adapters (llama-server's --lora, /lora-adapters and a request's `lora`): GGUF adapters
// loaded after the model, applied to each context at the scales the JavaScript side sets before
// its decodes (a request may ask for scales of its own; docs/lora.md). An adapter at scale 0 is
// off (llama.cpp leaves it out of the graph).
#include "engine.h"

// Loads the LoRA adapter GGUF at `path` for the loaded model; its tensors are placed where the
// model's are (on the GPU with them in the WebGPU build). It starts at scale 0. Returns its
// index (its id), or -1 with llama.cpp's reason (a wrong architecture, a tensor the model does
// not have or of another shape).
IP_EXPORT_MAY_SUSPEND int ip_lora_load(const char * path) {
  Engine & e = engine();
  e.log_error.clear();
  llama_adapter_lora * adapter = llama_adapter_lora_init(e.model, path);
  if (!adapter) {
    // llama.cpp logs why ("...: failed to apply lora adapter: <reason>\n") and returns null.
    const std::string marker = "failed to apply lora adapter: ";
    std::string why = e.log_error;
    const size_t at = why.find(marker);
    if (at != std::string::npos) why = why.substr(at + marker.size());
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    return fail(why.empty() ? "llama.cpp could not load this LoRA adapter" : why);
  }
  e.loras.push_back(adapter);
  e.lora_scales.push_back(0.0f);
  e.embed_lora_scales.push_back(0.0f);
  return static_cast<int>(e.loras.size()) - 1;
}

// Applies `scales` (one per loaded adapter, in load order) to the generation context, or with
// `embedding` to the embedding context, from its next decode on: requests at their own scales
// run on the first while embeddings run at the model's on the second. KV entries decoded before
// keep what the old scales gave: the JavaScript side keeps a slot's cached prefix only under the
// scales it was decoded with (lora-adapters.ts); the embedding context drops its kept prefix.
// 0 on success.
IP_EXPORT int ip_lora_scales(const float * scales, int n, int embedding) {
  Engine & e = engine();
  if (n != static_cast<int>(e.loras.size())) return fail("one scale per LoRA adapter");
  std::vector<float> & now = embedding ? e.embed_lora_scales : e.lora_scales;
  if (std::equal(scales, scales + n, now.begin())) return 0;
  now.assign(scales, scales + n);
  if (!embedding) {
    apply_loras(e.ctx, now);
  } else if (e.embed_ctx) {
    apply_loras(e.embed_ctx, now);
    e.embedded.clear();
  }
  return 0;
}

void apply_loras(llama_context * ctx, std::vector<float> & scales) {
  Engine & e = engine();
  if (e.loras.empty()) return;
  llama_set_adapters_lora(ctx, e.loras.data(), e.loras.size(), scales.data());
}
