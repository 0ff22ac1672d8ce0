// Saved states: the generation context's sequence (its KV cells) and the tokens it holds, in
// the layout of llama.cpp's sequence-state file (llama_state_seq_save_file: magic, version, the
// token count and tokens, then the cells' positions and their K and V rows), the file
// llama-server's `POST /slots/{id}?action=save` writes. The bytes are built in the heap with
// llama_state_seq_get_data and read back with llama_state_seq_set_data, one copy each: the
// file API would go through the module's in-memory file system, which took 35 ms per MB.
// The worker moves them to storage: its prompt cache across page loads
// (worker/engine/prompt-cache/) and the slot actions. llama.cpp refuses, on restore, a state of
// another model, cache type or a context too small.
#include <cstring>
#include <new>

#include "engine.h"

namespace {

constexpr size_t HEADER = 3 * sizeof(uint32_t);

void put_u32(uint8_t * at, uint32_t value) { std::memcpy(at, &value, sizeof value); }

uint32_t get_u32(const uint8_t * at) {
  uint32_t value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

}  // namespace

// The tokens whose KV entries the context holds, in ip_out_i32; returns their count.
IP_EXPORT int ip_cached() {
  Engine & e = engine();
  const std::vector<llama_token> & cached = e.slot().cached;
  out().i32.assign(cached.begin(), cached.end());
  return static_cast<int>(cached.size());
}

// The context's state and its tokens as a state file, in ip_out_bytes. Returns its size, or -1.
// The caller copies it out, then frees it with ip_state_release.
IP_EXPORT_MAY_SUSPEND double ip_state_save() {
  Engine & e = engine();
  const std::vector<llama_token> & cached = e.slot().cached;
  const size_t n = cached.size();
  const size_t state = llama_state_seq_get_size(e.ctx, e.current);
  const size_t prefix = HEADER + n * sizeof(llama_token);
  std::vector<uint8_t> & file = out().bytes;
  try {
    file.assign(prefix + state, 0);
  } catch (const std::bad_alloc &) {
    return fail("the engine's heap has no room for the context's state (" + std::to_string(prefix + state) + " bytes)");
  }
  put_u32(file.data(), LLAMA_STATE_SEQ_MAGIC);
  put_u32(file.data() + 4, LLAMA_STATE_SEQ_VERSION);
  put_u32(file.data() + 8, static_cast<uint32_t>(n));
  std::memcpy(file.data() + HEADER, cached.data(), n * sizeof(llama_token));
  if (llama_state_seq_get_data(e.ctx, file.data() + prefix, state, e.current) != state)
    return fail("llama.cpp could not write the context's state");
  return static_cast<double>(file.size());
}

// Frees the state ip_state_save left in ip_out_bytes.
IP_EXPORT void ip_state_release() { std::vector<uint8_t>().swap(out().bytes); }

// Replaces the context's contents with the state file of `size` bytes at `data`. Returns the
// tokens it holds (their KV entries are in the context now), or -1: then the context is empty.
IP_EXPORT_MAY_SUSPEND int ip_state_restore(const uint8_t * data, double size) {
  Engine & e = engine();
  llama_memory_t memory = llama_get_memory(e.ctx);
  const llama_seq_id seq = e.current;
  Slot & slot = e.slot();
  llama_memory_seq_rm(memory, seq, -1, -1);
  slot.clear();
  const size_t bytes = static_cast<size_t>(size);
  if (bytes < HEADER || get_u32(data) != LLAMA_STATE_SEQ_MAGIC || get_u32(data + 4) != LLAMA_STATE_SEQ_VERSION)
    return fail("the file is not a llama.cpp sequence state of this version");
  const size_t n = get_u32(data + 8);
  if (n > static_cast<size_t>(llama_n_ctx_seq(e.ctx)) || HEADER + n * sizeof(llama_token) > bytes)
    return fail("the state holds more tokens than the context (or the file) does");
  const size_t prefix = HEADER + n * sizeof(llama_token);
  // The tokens first: a state of another vocabulary is refused before llama.cpp reads its cells.
  std::vector<llama_token> tokens(n);
  std::memcpy(tokens.data(), data + HEADER, n * sizeof(llama_token));
  const llama_token vocab = llama_vocab_n_tokens(e.vocab);
  for (llama_token id : tokens)
    if (id < 0 || id >= vocab) return fail("the saved state holds a token outside the vocabulary");
  if (llama_state_seq_set_data(e.ctx, data + prefix, bytes - prefix, seq) == 0) {
    llama_memory_seq_rm(memory, seq, -1, -1);
    return fail("llama.cpp refused the saved state (another model or cache type, or a context too small)");
  }
  // The cells must be the tokens' own: one per position, 0 .. n - 1.
  const llama_pos held = llama_memory_seq_pos_max(memory, seq) + 1;
  if (held != static_cast<llama_pos>(n)) {
    llama_memory_seq_rm(memory, seq, -1, -1);
    return fail("the saved state holds " + std::to_string(held) + " positions for " + std::to_string(n) + " tokens");
  }
  slot.cached = std::move(tokens);
  return static_cast<int>(n);
}
