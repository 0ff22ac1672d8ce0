// Speculative decoding without a draft model (llama-server's `--spec-type ngram-simple`, with a
// copy that also drafts short loops: ip_draft_ngram): a draft is the tokens that followed the
// last occurrence of the context's final n-gram; the model reads the sampled token and the draft
// in one batch, with logits at every position, and the JavaScript loop samples each position in
// turn (ip_sample at its index), keeping the draft up to its first token that was not sampled
// (ip_keep). Each output token is still one sample from the model's logits, so the output is the
// one without a draft, for any sampler.
#include "engine.h"

// The draft after `sampled` (not in the context yet) from the context's tokens, with n-grams of
// `size_n` tokens and drafts of up to `size_m` (out.i32; returns its length). The match is
// llama.cpp's ngram-simple one (common_ngram_simple_draft): the last earlier occurrence of the
// context's final `size_n - 1` tokens and `sampled`, searched from `size_n + 1` tokens back,
// position 0 ignored, once the context holds more than `size_n + size_m + 1` tokens. The copy
// differs: llama.cpp's stops at the present, and drafts nothing when that leaves fewer than
// `size_n` tokens, so a loop shorter than twice the n-gram (the usual greedy loop) is never
// drafted; this one goes on through the tokens it copies, as an LZ77 copy overlaps its output,
// and drafts the loop's next `size_m` tokens. Where llama.cpp drafts, this draft starts with its.
IP_EXPORT int ip_draft_ngram(llama_token sampled, int size_n, int size_m) {
  Engine & e = engine();
  std::vector<int32_t> & draft = out().i32;
  draft.clear();
  const std::vector<llama_token> & cached = e.slot().cached;
  const size_t n = static_cast<size_t>(size_n), m = static_cast<size_t>(size_m), len = cached.size();
  if (size_n < 1 || size_m < 1 || len <= n + m + 1) return 0;
  // The sequence so far: the context's tokens, then `sampled` at index len, then the draft.
  auto at = [&](size_t i) { return i < len ? cached[i] : i == len ? sampled : draft[i - len - 1]; };
  size_t match = 0;
  for (size_t j = len - n - 1; j > 0 && match == 0; --j) {
    size_t k = 0;
    while (k < n && at(j + k) == at(len + 1 - n + k)) k++;
    if (k == n) match = j;
  }
  if (match == 0) return 0;
  for (size_t i = 0; i < m; i++) draft.push_back(at(match + n + i));
  return static_cast<int>(draft.size());
}

// Decodes `n` tokens after the context's (the sampled token and its draft) in one batch, with
// logits at each of them: ip_sample(i, ...) samples after the i-th. -2: they do not fit the context.
IP_EXPORT_MAY_SUSPEND int ip_push_draft(const llama_token * ids, int n) {
  Engine & e = engine();
  Slot & s = e.slot();
  if (n <= 0 || n > e.n_batch) return fail("a draft batch holds 1 to n_batch tokens");
  if (s.cached.size() + n > llama_n_ctx_seq(e.ctx)) return -2;
  const int status = decode(e.ctx, ids, n, s.pos_at(s.cached.size()), Logits::all, e.current);
  if (status == 1) return -3;
  if (status != 0) return fail("llama_decode failed on a draft (" + std::to_string(status) + ")");
  s.cached.insert(s.cached.end(), ids, ids + n);
  return 0;
}

// Keeps the context's first `n` tokens (a draft's accepted part) and drops the cells after them.
IP_EXPORT int ip_keep(int n) {
  Engine & e = engine();
  Slot & s = e.slot();
  if (n < 0 || static_cast<size_t>(n) > s.cached.size()) return fail("ip_keep past the context's tokens");
  // A recurrent state cannot go back (drafts are off for such a model: ip_info's partial_rm).
  if (cut_cells(s, e.current, static_cast<size_t>(n)) != static_cast<size_t>(n))
    return fail("this model's memory cannot drop its last tokens");
  return 0;
}
