// One generation: the prompt (reusing the cached prefix), decoded in batches, then one token at a time.
#include "engine.h"

size_t cut_cells(Slot & s, llama_seq_id seq, size_t keep) {
  Engine & e = engine();
  llama_memory_t memory = llama_get_memory(e.ctx);
  // llama-server's rule: the next token (at pos_at(keep)) needs the positions of its window, so
  // the memory's first position must come before pos_at(keep) - n_swa (n_swa 0 without a sliding
  // window; a recurrent state's first position is its last). Else a checkpoint, or the start.
  llama_pos next = s.pos_at(keep);
  const llama_pos needed = std::max(0, next - llama_model_n_swa(e.model));
  if (keep > 0 && llama_memory_seq_pos_min(memory, seq) >= needed) {
    keep = restore_checkpoint(s, seq, keep, needed);
    next = s.pos_at(keep);
  }
  if (!llama_memory_seq_rm(memory, seq, next, -1)) {
    llama_memory_seq_rm(memory, seq, -1, -1);
    keep = 0;
    next = 0;
  }
  drop_checkpoints(s, next);
  s.cached.resize(keep);
  return keep;
}

void Slot::clear() {
  cached.clear();
  prompt.clear();
  pending = 0;
  media.reset();
  checkpoints.clear();
  kept = 0;
  after_media = false;
}

// Starts a generation on `n` prompt ids. With `reuse`, the longest prefix shared with the
// tokens already in the context is kept (at least the last prompt token is decoded again, for
// its logits), as llama-server's prompt cache does. Returns how many tokens were reused.
IP_EXPORT_MAY_SUSPEND int ip_begin(const llama_token * ids, int n, int reuse) {
  Engine & e = engine();
  Slot & s = e.slot();
  if (n <= 0) return fail("the prompt is empty");
  if (n > static_cast<int>(llama_n_ctx_seq(e.ctx))) return fail("the prompt is longer than the context");
  size_t keep = 0;
  if (reuse) {
    while (keep < s.cached.size() && keep < static_cast<size_t>(n) && s.cached[keep] == ids[keep]) keep++;
    if (keep == static_cast<size_t>(n)) keep--;
  }
  keep = cut_cells(s, e.current, keep);
  s.prompt.assign(ids, ids + n);
  // The cells kept are text (a media cell never matches), so no media chunk is left among them.
  s.media.reset();
  s.pending = n - keep;
  s.kept = keep;
  s.after_media = false;
  return static_cast<int>(keep);
}

// Decodes up to `max` of the prompt's pending tokens. Returns how many are still pending (0:
// the prompt is read and the next token's logits are ready), or -1.
IP_EXPORT_MAY_SUSPEND int ip_prefill(int max) {
  Engine & e = engine();
  Slot & s = e.slot();
  const size_t from = s.prompt.size() - s.pending;
  if (s.pending > 0 && s.prompt[from] == LLAMA_TOKEN_NULL) {
    // A media chunk (media.cpp), decoded whole; a prompt never ends with one (ip_media_begin).
    const int n = decode_media(s, from);
    if (n < 0) return -1;
    s.cached.insert(s.cached.end(), n, LLAMA_TOKEN_NULL);
    s.pending -= n;
    s.after_media = true;
    return static_cast<int>(s.pending);
  }
  // Text up to the next media chunk, if any, within this step (which ends where a checkpoint is saved).
  const size_t most = prompt_step_size(s, from, std::min<size_t>({s.pending, static_cast<size_t>(std::max(max, 0)), static_cast<size_t>(e.n_batch)}));
  const auto first = s.prompt.begin() + static_cast<std::ptrdiff_t>(from);
  const int n = static_cast<int>(std::find(first, first + static_cast<std::ptrdiff_t>(most), LLAMA_TOKEN_NULL) - first);
  if (n > 0) {
    // Logits only for the prompt's last token, when this batch holds it.
    const Logits logits = static_cast<size_t>(n) == s.pending ? Logits::last : Logits::none;
    save_checkpoint(s, e.current, from);
    const int status = decode(e.ctx, s.prompt.data() + from, n, s.pos_at(from), logits, e.current);
    // 1: the unified cache has no room for them now (other slots hold it); nothing was decoded.
    if (status == 1) return -3;
    if (status != 0) return fail("llama_decode failed on the prompt (" + std::to_string(status) + ")");
    s.cached.insert(s.cached.end(), s.prompt.begin() + from, s.prompt.begin() + from + n);
    s.pending -= n;
    s.after_media = false;
  }
  return static_cast<int>(s.pending);
}

// Decodes the generated token `id` (its logits give the next token). -2: the context is full.
IP_EXPORT_MAY_SUSPEND int ip_push(llama_token id) {
  Engine & e = engine();
  Slot & s = e.slot();
  if (s.cached.size() >= llama_n_ctx_seq(e.ctx)) return -2;
  const int status = decode(e.ctx, &id, 1, s.pos_at(s.cached.size()), Logits::last, e.current);
  if (status == 1) return -3;
  if (status != 0) return fail("llama_decode failed (" + std::to_string(status) + ")");
  s.cached.push_back(id);
  return 0;
}

