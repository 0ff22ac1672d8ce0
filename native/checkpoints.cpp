// Context checkpoints: llama-server's (server-context.cpp: create_checkpoint, and the search at a
// prompt's start), for the models whose memory cannot drop a sequence's last tokens: a recurrent
// state (Mamba, RWKV; LFM2, Granite 4 H, Qwen3-Next beside their KV cache) and sliding-window
// layers, which keep only their window and a batch (load.cpp). Without one, a prompt that shares
// all but its end with the cached one is read again from its start (cut_cells, generate.cpp).
// LLAMA_STATE_SEQ_FLAGS_PARTIAL_ONLY saves only that part (the recurrent state, the window's
// cells); the other cells stay in the cache and are cut at the checkpoint's position as usual.
//
// When, as llama-server does (its batch is bigger, its micro-batch is the engine's batch, 512):
// a prompt's steps end 4 + 512 and 4 tokens before its end, and a checkpoint is saved before each
// of those two steps, and before the first step after the cached prefix where that starts within
// 4 + 512 tokens of the end; never on an empty memory, nor right after a media chunk. llama-server
// also saves one at the start of a chat's user messages (its template's spans): the engine sees
// token ids, not those.
// How many: llama-server keeps 32 a slot, in the host's memory. In the browser's heap, 8 a slot
// and 256 MiB in all (a sliding-window checkpoint holds the window's K and V rows: for Gemma 3 4B
// about 29 layers x 1,536 cells x 4 KiB, 174 MiB); the oldest go first, one that does not fit in
// the budget is not saved.
#include <iterator>
#include <new>

#include "engine.h"

namespace {

constexpr llama_state_seq_flags PARTIAL = LLAMA_STATE_SEQ_FLAGS_PARTIAL_ONLY;
// The last step's tokens (llama-server's checkpoint offsets: 4, and 4 + its micro-batch).
constexpr size_t LAST_STEP = 4;
constexpr size_t MAX_PER_SLOT = 8;
constexpr size_t BUDGET = size_t{256} << 20;

size_t bytes_held(const Engine & e) {
  size_t bytes = 0;
  for (const Slot & slot : e.slots)
    for (const Checkpoint & c : slot.checkpoints) bytes += c.data.size();
  return bytes;
}

template <typename Test>
void drop_if(std::vector<Checkpoint> & checkpoints, Test test) {
  checkpoints.erase(std::remove_if(checkpoints.begin(), checkpoints.end(), test), checkpoints.end());
}

}  // namespace

size_t prompt_step_size(const Slot & s, size_t from, size_t most) {
  const Engine & e = engine();
  if (!e.checkpoints) return most;
  const size_t n = s.prompt.size();
  for (size_t offset : {LAST_STEP + e.n_batch, LAST_STEP})
    if (from + offset < n) most = std::min(most, n - offset - from);
  return most;
}

void save_checkpoint(Slot & s, llama_seq_id seq, size_t from) {
  Engine & e = engine();
  const size_t n = s.prompt.size();
  const size_t before_last = LAST_STEP + e.n_batch;
  const bool point = from + before_last == n || from + LAST_STEP == n || (from == s.kept && n <= from + before_last);
  if (!e.checkpoints || s.after_media || !point) return;
  llama_memory_t memory = llama_get_memory(e.ctx);
  const llama_pos pos_min = llama_memory_seq_pos_min(memory, seq);
  if (pos_min < 0) return;
  const size_t size = llama_state_seq_get_size_ext(e.ctx, seq, PARTIAL);
  if (size == 0 || size > BUDGET) return;
  // One at the same tokens is replaced; then the oldest make room.
  drop_if(s.checkpoints, [&](const Checkpoint & c) { return c.n_tokens == from; });
  size_t held = bytes_held(e);
  while (!s.checkpoints.empty() && (s.checkpoints.size() >= MAX_PER_SLOT || held + size > BUDGET)) {
    held -= s.checkpoints.front().data.size();
    s.checkpoints.erase(s.checkpoints.begin());
  }
  if (held + size > BUDGET) return;
  Checkpoint c{from, pos_min, llama_memory_seq_pos_max(memory, seq), {}};
  try {
    c.data.resize(size);
  } catch (const std::bad_alloc &) {
    return;
  }
  if (llama_state_seq_get_data_ext(e.ctx, c.data.data(), size, seq, PARTIAL) != size) return;
  s.checkpoints.push_back(std::move(c));
}

size_t restore_checkpoint(Slot & s, llama_seq_id seq, size_t keep, llama_pos needed) {
  Engine & e = engine();
  const llama_pos next = s.pos_at(keep);
  for (auto it = s.checkpoints.rbegin(); it != s.checkpoints.rend(); ++it) {
    // llama-server's test: saved no later than the next token, and the memory it holds starts
    // before the window the next token needs (a recurrent state's first position is its last).
    if (it->pos_max > next || (it->pos_min >= needed && it->pos_min != 0)) continue;
    if (llama_state_seq_set_data_ext(e.ctx, it->data.data(), it->data.size(), seq, PARTIAL) == 0) return 0;
    // llama-server goes back to the checkpoint's last position (or the one after its first).
    const llama_pos to = std::min(next, std::max(it->pos_min + 1, it->pos_max));
    return std::min({keep, s.size_up_to_pos(to), it->n_tokens});
  }
  return 0;
}

void copy_checkpoints(const Slot & src, Slot & dst) {
  Engine & e = engine();
  dst.checkpoints.clear();
  // The newest that fit in the budget beside every slot's own (llama-server's copy_state_to
  // clones them all, in the host's memory).
  size_t held = bytes_held(e);
  std::vector<Checkpoint> kept;
  for (auto it = src.checkpoints.rbegin(); it != src.checkpoints.rend(); ++it) {
    if (held + it->data.size() > BUDGET) break;
    try {
      kept.push_back(*it);
    } catch (const std::bad_alloc &) {
      break;
    }
    held += it->data.size();
  }
  dst.checkpoints.assign(std::make_move_iterator(kept.rbegin()), std::make_move_iterator(kept.rend()));
}

void drop_checkpoints(Slot & s, llama_pos pos) {
  drop_if(s.checkpoints, [&](const Checkpoint & c) { return c.pos_max > pos; });
}
