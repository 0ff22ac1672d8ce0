// Embeddings: a second context on the same weights, made with `embeddings` on first use.
// A reranker (a model whose GGUF says `pooling_type` rank) pools through its classification
// head there: its "embedding" is the head's n_cls_out scores, llama-server's /rerank score first.
#include "engine.h"

#include "common.h"

// The context for embeddings: `n_ctx` tokens per batch, the model's pooling (mean when it has
// none), `n_seqs` inputs per batch (more than 1 only for a model without a KV cache, an encoder:
// a cache would be split between them). The first call's sizes stay.
static llama_context * embedding_context(int n_ctx, int n_seqs) {
  Engine & e = engine();
  if (e.embed_ctx) return e.embed_ctx;
  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = n_ctx;
  cp.n_batch = n_ctx;
  cp.n_ubatch = n_ctx;
  cp.n_seq_max = n_seqs;
  cp.n_threads = llama_n_threads(e.ctx);
  cp.n_threads_batch = llama_n_threads_batch(e.ctx);
  cp.embeddings = true;
  cp.no_perf = true;
  // The generation context's attention where it has an F32 cache (attention.cpp; this context is
  // no longer than that one, so its cache fits the same budget), in one micro-batch still. With a
  // prefix kept (reuses_prefix), its K and V come from another micro-batch than a whole decode's,
  // a float's noise apart: in F16 that noise rounds to other values, which moved a test
  // reranker's score by up to 3e-4; in F32 the score stayed within 1e-6 (docs/speed.md).
  if (e.f32_cache) {
    cp.type_k = GGML_TYPE_F32;
    cp.type_v = GGML_TYPE_F32;
    cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
  }
  e.embed_ctx = llama_init_from_model(e.model, cp);
  if (e.embed_ctx && llama_pooling_type(e.embed_ctx) == LLAMA_POOLING_TYPE_NONE) {
    llama_free(e.embed_ctx);
    cp.pooling_type = LLAMA_POOLING_TYPE_MEAN;
    e.embed_ctx = llama_init_from_model(e.model, cp);
  }
  if (e.embed_ctx) {
    attach_threads(e.embed_ctx);
    apply_loras(e.embed_ctx, e.embed_lora_scales);
  }
  return e.embed_ctx;
}

// Whether an input may keep the KV entries of the prefix it shares with the one before: only
// where the pooled output reads the last token alone, which a causal model's KV cache makes
// the same whatever was decoded before it in this sequence (LAST pooling: Qwen3-Embedding; rank
// pooling of qwen3 and qwen3vl, which llama.cpp takes at the last token: Qwen3-Reranker, whose
// rerank template and query open every document's prompt). Mean and CLS pooling read every token
// or the first of the batch, and an encoder (BERT's) has no KV cache: all is decoded again.
static bool reuses_prefix(llama_context * ctx) {
  if (!llama_get_memory(ctx)) return false;
  const enum llama_pooling_type pooling = llama_pooling_type(ctx);
  if (pooling == LLAMA_POOLING_TYPE_LAST) return true;
  if (pooling != LLAMA_POOLING_TYPE_RANK) return false;
  char arch[32] = {0};
  if (llama_model_meta_val_str(engine().model, "general.architecture", arch, sizeof arch) < 0) return false;
  return std::string(arch) == "qwen3" || std::string(arch) == "qwen3vl";
}

// The floats one pooled output has: the classification head's n_cls_out under rank pooling (a
// reranker's scores, what llama.cpp pools to there), else the embedding's width.
static int pooled_dim(llama_context * ctx) {
  const llama_model * model = engine().model;
  const bool rank = llama_pooling_type(ctx) == LLAMA_POOLING_TYPE_RANK;
  return rank ? llama_model_n_cls_out(model) : llama_model_n_embd_out(model);
}

// The pooled embedding of `n` ids (at most `n_ctx`, the size the embedding context is made
// with on first use), unnormalized, in ip_out_f32. Returns its dimension, or -1. With rank
// pooling it is the classification head's n_cls_out floats (what llama.cpp pools to there).
// ip_out_i32 holds one number: how many leading ids were kept from the input before
// (reuses_prefix), not decoded again.
IP_EXPORT_MAY_SUSPEND int ip_embed(const llama_token * ids, int n, int n_ctx) {
  llama_context * ctx = embedding_context(n_ctx, 1);
  if (!ctx) return fail("llama.cpp could not create the embedding context");
  if (n > static_cast<int>(llama_n_ctx(ctx))) return fail("the input is too large to embed at once");
  std::vector<llama_token> & embedded = engine().embedded;
  // The prefix kept (reuses_prefix), short of the last token, which is always decoded.
  int keep = 0;
  if (reuses_prefix(ctx)) {
    const int most = std::min(static_cast<int>(embedded.size()), n - 1);
    while (keep < most && embedded[keep] == ids[keep]) keep++;
  }
  // A memory that cannot drop a tail (a recurrent model's state) is cleared, and all is decoded.
  if (keep > 0 && !llama_memory_seq_rm(llama_get_memory(ctx), 0, keep, -1)) keep = 0;
  if (keep == 0) llama_memory_clear(llama_get_memory(ctx), true);
  embedded.clear();
  if (decode(ctx, ids + keep, n - keep, keep, Logits::all) != 0) return fail("llama_decode failed on the input");
  embedded.assign(ids, ids + n);
  const float * pooled = llama_get_embeddings_seq(ctx, 0);
  if (!pooled) return fail("the model gave no pooled embedding");
  const int dim = pooled_dim(ctx);
  out().f32.assign(pooled, pooled + dim);
  out().i32.assign(1, keep);
  return dim;
}

// The pooled embeddings of `count` inputs in one batch, each its own sequence: `ids` holds them
// one after another, `lens` their lengths (at most `n_ctx` together, the batch size the
// context is made with on first use, for up to `n_seqs` inputs). Only for a model without a KV
// cache (an encoder, BERT's family: its inputs attend only to themselves, and nothing is kept
// between calls); one decode reads the weights once for all of them. Returns the dimension;
// ip_out_f32 holds `count` vectors of it, in order (rank pooling: the head's outputs).
IP_EXPORT_MAY_SUSPEND int ip_embed_batch(const llama_token * ids, const int32_t * lens, int count, int n_ctx, int n_seqs) {
  llama_context * ctx = embedding_context(n_ctx, n_seqs);
  if (!ctx) return fail("llama.cpp could not create the embedding context");
  if (llama_get_memory(ctx)) return fail("only a model without a KV cache embeds inputs in one batch");
  if (count < 1 || count > static_cast<int>(llama_n_seq_max(ctx))) return fail("too many inputs for one batch");
  int total = 0;
  for (int k = 0; k < count; k++) total += lens[k];
  if (total > static_cast<int>(llama_n_ctx(ctx))) return fail("the inputs are too large to embed at once");
  llama_batch batch = llama_batch_init(total, 0, 1);
  for (int k = 0, at = 0; k < count; k++)
    for (int i = 0; i < lens[k]; i++) common_batch_add(batch, ids[at++], i, {k}, true);
  const int status = llama_decode(ctx, batch);
  llama_batch_free(batch);
  if (status != 0) return fail("llama_decode failed on the inputs");
  const int dim = pooled_dim(ctx);
  out().f32.clear();
  for (int k = 0; k < count; k++) {
    const float * pooled = llama_get_embeddings_seq(ctx, k);
    if (!pooled) return fail("the model gave no pooled embedding");
    out().f32.insert(out().f32.end(), pooled, pooled + dim);
  }
  return dim;
}

// The ids llama-server scores a query and a document with (server-common.cpp's
// format_prompt_rerank), in ip_out_i32; returns their count. The model's `rerank` chat template
// (Qwen3-Reranker's) with `{query}` and then `{document}` replaced, tokenized with special
// tokens parsed and none added; without one, [BOS] query [EOS] [SEP] document [EOS], each of
// BOS, EOS (SEP where the vocabulary has no EOS) and SEP where the vocabulary adds it, the texts
// tokenized with special tokens as plain text.
IP_EXPORT int ip_rerank_prompt(const char * query, int query_len, const char * doc, int doc_len) {
  Engine & e = engine();
  const std::string q(query, query_len);
  const std::string d(doc, doc_len);
  std::vector<llama_token> & ids = out().i32;
  ids.clear();
  const char * tmpl = llama_model_chat_template(e.model, "rerank");
  if (tmpl) {
    std::string prompt = tmpl;
    string_replace_all(prompt, "{query}", q);
    string_replace_all(prompt, "{document}", d);
    ids = common_tokenize(e.vocab, prompt, false, true);
    return static_cast<int>(ids.size());
  }
  llama_token eos = llama_vocab_eos(e.vocab);
  if (eos == LLAMA_TOKEN_NULL) eos = llama_vocab_sep(e.vocab);
  const std::vector<llama_token> q_ids = common_tokenize(e.vocab, q, false, false);
  const std::vector<llama_token> d_ids = common_tokenize(e.vocab, d, false, false);
  if (llama_vocab_get_add_bos(e.vocab)) ids.push_back(llama_vocab_bos(e.vocab));
  ids.insert(ids.end(), q_ids.begin(), q_ids.end());
  if (llama_vocab_get_add_eos(e.vocab)) ids.push_back(eos);
  if (llama_vocab_get_add_sep(e.vocab)) ids.push_back(llama_vocab_sep(e.vocab));
  ids.insert(ids.end(), d_ids.begin(), d_ids.end());
  if (llama_vocab_get_add_eos(e.vocab)) ids.push_back(eos);
  return static_cast<int>(ids.size());
}
