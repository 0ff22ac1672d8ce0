// Slots: several sequences in the one generation context, and one decode step for all of them
// (llama-server's continuous batching). The JavaScript scheduler (slot-steps.ts) collects each
// generating slot's sampled token, decodes them in one batch with ip_step, then samples each
// slot from its row of that batch's logits (ip_use, then ip_sample at the row).
#include "engine.h"

// Selects the slot that the per-slot calls act on. -1 when there is no such slot.
IP_EXPORT int ip_use(int slot) {
  Engine & e = engine();
  if (slot < 0 || slot >= static_cast<int>(e.slots.size())) return fail("no slot " + std::to_string(slot));
  e.current = slot;
  return 0;
}

// Decodes `ids[i]` after slot `slots[i]`'s tokens, for i < n, in one batch with logits at each
// row (row i: slot slots[i]'s next token). A slot appears at most once. 0 on success; -2: a slot's
// tokens already fill its cache stream; -3: llama.cpp found no room for them (nothing was
// decoded); -1 on failure.
IP_EXPORT_MAY_SUSPEND int ip_step(const int32_t * slots, const llama_token * ids, int n) {
  Engine & e = engine();
  if (n <= 0 || n > e.n_batch) return fail("a step holds 1 to n_batch tokens");
  const int n_ctx = static_cast<int>(llama_n_ctx_seq(e.ctx));
  llama_batch batch = llama_batch_init(n, 0, 1);
  for (int i = 0; i < n; i++) {
    const int s = slots[i];
    if (s < 0 || s >= static_cast<int>(e.slots.size())) {
      llama_batch_free(batch);
      return fail("no slot " + std::to_string(s));
    }
    const Slot & slot = e.slots[s];
    if (static_cast<int>(slot.cached.size()) >= n_ctx) {
      llama_batch_free(batch);
      return -2;
    }
    batch.token[i] = ids[i];
    batch.pos[i] = slot.pos_at(slot.cached.size());
    batch.n_seq_id[i] = 1;
    batch.seq_id[i][0] = s;
    batch.logits[i] = true;
  }
  batch.n_tokens = n;
  const int status = llama_decode(e.ctx, batch);
  llama_batch_free(batch);
  if (status == 1) return -3;
  if (status != 0) return fail("llama_decode failed on a step (" + std::to_string(status) + ")");
  for (int i = 0; i < n; i++) e.slots[slots[i]].cached.push_back(ids[i]);
  return 0;
}

// Drops the cells of slot `slot` (`/slots/{id}?action=erase`).
IP_EXPORT int ip_slot_clear(int slot) {
  Engine & e = engine();
  if (slot < 0 || slot >= static_cast<int>(e.slots.size())) return fail("no slot " + std::to_string(slot));
  llama_memory_seq_rm(llama_get_memory(e.ctx), slot, -1, -1);
  e.slots[slot].clear();
  return 0;
}

// Copies slot `src`'s cells into slot `dst`, which then holds src's tokens: a prompt that another
// slot has just read is not read again (llama-server's copy_state_to, for `n` > 1). Each slot has
// its own cache stream, and llama.cpp copies a whole stream, at the start of the next decode.
IP_EXPORT_MAY_SUSPEND int ip_slot_copy(int src, int dst) {
  Engine & e = engine();
  const int n = static_cast<int>(e.slots.size());
  if (src < 0 || src >= n || dst < 0 || dst >= n) return fail("no slot " + std::to_string(src < 0 || src >= n ? src : dst));
  if (src == dst) return 0;
  llama_memory_t mem = llama_get_memory(e.ctx);
  llama_memory_seq_rm(mem, dst, -1, -1);
  llama_memory_seq_cp(mem, src, dst, -1, -1);
  e.slots[dst].cached = e.slots[src].cached;
  // Its cells' media chunks are src's now (media.cpp matches a cached chunk by the slot's media).
  e.slots[dst].media = e.slots[src].media;
  // And its checkpoints, as many as the budget takes (llama-server's copy_state_to clones the
  // slot's prompt with them all).
  copy_checkpoints(e.slots[src], e.slots[dst]);
  e.slots[dst].pending = 0;
  return 0;
}
