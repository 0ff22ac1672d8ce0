// Embeddings: a second context on the same weights, made with `embeddings` on first use.
#include "engine.h"

// The context for embeddings: `n_ctx` tokens per input, the model's pooling (mean when it has none).
static llama_context * embedding_context(int n_ctx) {
  Engine & e = engine();
  if (e.embed_ctx) return e.embed_ctx;
  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = n_ctx;
  cp.n_batch = n_ctx;
  cp.n_ubatch = n_ctx;
  cp.n_seq_max = 1;
  cp.n_threads = llama_n_threads(e.ctx);
  cp.n_threads_batch = llama_n_threads_batch(e.ctx);
  cp.embeddings = true;
  cp.no_perf = true;
  e.embed_ctx = llama_init_from_model(e.model, cp);
  if (e.embed_ctx && llama_pooling_type(e.embed_ctx) == LLAMA_POOLING_TYPE_NONE) {
    llama_free(e.embed_ctx);
    cp.pooling_type = LLAMA_POOLING_TYPE_MEAN;
    e.embed_ctx = llama_init_from_model(e.model, cp);
  }
  if (e.embed_ctx) attach_threads(e.embed_ctx);
  return e.embed_ctx;
}

// The pooled embedding of `n` ids (at most `n_ctx`, the size the embedding context is made
// with on first use), unnormalized, in ip_out_f32. Returns its dimension, or -1.
IP_EXPORT_MAY_SUSPEND int ip_embed(const llama_token * ids, int n, int n_ctx) {
  llama_context * ctx = embedding_context(n_ctx);
  if (!ctx) return fail("llama.cpp could not create the embedding context");
  if (n > static_cast<int>(llama_n_ctx(ctx))) return fail("the input is too large to embed at once");
  llama_memory_clear(llama_get_memory(ctx), true);
  if (decode(ctx, ids, n, 0, Logits::all) != 0) return fail("llama_decode failed on the input");
  const float * pooled = llama_get_embeddings_seq(ctx, 0);
  if (!pooled) return fail("the model gave no pooled embedding");
  const int dim = llama_model_n_embd_out(engine().model);
  out().f32.assign(pooled, pooled + dim);
  return dim;
}
