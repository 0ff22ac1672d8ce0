// The engine's state and the buffers that carry results to JavaScript.
//
// The glue is a small C API (ip_*) over llama.h and llama.cpp's common sampler, called by
// worker/engine/backends/llamacpp/ one step at a time: the JavaScript side owns the loop (prompt
// chunks, sampling, stops, abort), so an abort lands between two steps and nothing here blocks
// for longer than one batch. One model per module instance; all calls are on one thread (the
// pthreads build's ggml pool runs inside a call and sleeps between them: threads.cpp).
//
// The generation context holds up to `slots` sequences (llama-server's --parallel), each with a
// KV cache stream of its own (llama_n_ctx_seq cells): a slot is one sequence with what is per
// request. ip_use selects the slot the
// per-slot calls (begin, prefill, push, sampler, sample, accept, drafts, states) act on;
// ip_step (batch.cpp) decodes one token for each of several slots in one llama_decode.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "llama.h"

#include <algorithm>

struct common_sampler;
struct mtmd_context;
struct MediaPrompt;  // media.cpp

// A saved copy of the part of a sequence's memory that cannot go back (checkpoints.cpp): a
// recurrent state, a sliding window's cells. `n_tokens`: the cached tokens it follows.
struct Checkpoint {
  size_t n_tokens = 0;
  llama_pos pos_min = 0;
  llama_pos pos_max = 0;
  std::vector<uint8_t> data;
};

// One sequence of the generation context (seq_id = its index in Engine::slots).
struct Slot {
  std::vector<llama_token> cached;      // the tokens whose KV entries the sequence holds
  std::vector<llama_token> prompt;      // the prompt of its current generation
  size_t pending = 0;                   // prompt tokens (from the end) not decoded yet
  common_sampler * sampler = nullptr;   // its request's sampler
  // The current prompt's media chunks (media.cpp), else null. In `prompt` and `cached` a media
  // chunk's cells hold LLAMA_TOKEN_NULL, which never matches a prefix (see ip_media_begin).
  std::shared_ptr<MediaPrompt> media;
  std::vector<Checkpoint> checkpoints;  // oldest first (checkpoints.cpp)
  size_t kept = 0;                      // the current prompt's tokens kept from the cache
  bool after_media = false;             // the last prompt step decoded a media chunk

  // The position that follows the first `n` cached cells: `n`, less what the M-RoPE media chunks
  // among them save (a picture of w x h tokens takes max(w, h) positions there, as llama-server's
  // server_tokens::pos_next counts them; media.cpp). Every decode, and every cut of the cache
  // (llama_memory_seq_rm takes positions), goes through it.
  llama_pos pos_at(size_t n) const;
  // How many of the cached cells come before position `pos` (a media chunk counts whole, at
  // the first position past it; llama-server's server_tokens::size_up_to_pos).
  size_t size_up_to_pos(llama_pos pos) const;
  // Forgets the cells' tokens, media and checkpoints (the caller empties the sequence).
  void clear();
};

struct Engine {
  llama_model * model = nullptr;
  const llama_vocab * vocab = nullptr;
  llama_context * ctx = nullptr;        // generation and scoring
  llama_context * embed_ctx = nullptr;  // embeddings (made on first use)
  std::vector<llama_token> embedded;    // the ids whose KV entries embed_ctx holds (embed.cpp)
  ggml_threadpool * threads = nullptr;  // the pthreads build's pool (threads.cpp), else null
  mtmd_context * mtmd = nullptr;        // the projector (media.cpp), else null
  std::vector<Slot> slots = std::vector<Slot>(1);
  int current = 0;                      // the slot the per-slot calls act on (ip_use)
  std::vector<llama_token> eog;         // the vocabulary's end-of-generation tokens
  int n_batch = 512;
  bool f32_cache = false;               // the generation context's KV cache is F32 (attention.cpp)
  bool checkpoints = false;             // the memory cannot go back everywhere: checkpoints.cpp
  std::vector<llama_adapter_lora *> loras;  // LoRA adapters, in load order (lora.cpp)
  std::vector<float> lora_scales;       // their scales now on the generation context (0: off)
  std::vector<float> embed_lora_scales; // and on the embedding context
  std::string error;
  std::string log_error;                // llama.cpp's last error line in its log (load.cpp's on_log)

  Slot & slot() { return slots[current]; }
};

Engine & engine();

// The generation context's attention (attention.cpp): an F32 KV cache with flash attention off
// where it fits `max_f32_cache_mib` (true), else llama.cpp's defaults (F16, flash attention).
bool choose_attention(const llama_model * model, int n_ctx, int max_f32_cache_mib, llama_context_params & cp);

// Makes the engine's ggml threadpool for `max(n_threads, n_threads_batch)` threads (threads.cpp;
// none for 1). False where this build has no threads or the pool could not start.
bool make_threads(int n_threads, int n_threads_batch);

// Attaches the engine's pool (if any) to `ctx`, for its decodes and its prompt steps.
void attach_threads(llama_context * ctx);

// Results of the last call: JavaScript reads them through ip_out_* right after the call.
struct Out {
  std::vector<int32_t> i32;
  std::vector<float> f32;
  std::vector<uint8_t> bytes;
};

Out & out();

// Records `message` as the last error (ip_error) and returns -1.
int fail(const std::string & message);

// Where slot `s`'s prompt has a media chunk starting at position `from` (a LLAMA_TOKEN_NULL
// there), encodes it with the projector and decodes its embeddings at `from` (media.cpp).
// Returns the chunk's token count, or -1 (ip_error says why).
int decode_media(Slot & s, size_t from);

// Sets the engine's LoRA adapters on `ctx` at `scales` (lora.cpp); none loaded: nothing.
void apply_loras(llama_context * ctx, std::vector<float> & scales);

// Drops slot `s`'s cells (sequence `seq`) from its `keep`-th on, and returns how many it kept:
// `keep`, or 0 where the memory no longer holds what the kept cells need. A recurrent state
// (Mamba, RWKV; the recurrent half of LFM2, Granite 4 H, Qwen3-Next) is one state at the last
// position, not a cell per position, so it cannot go back to an earlier one; a sliding-window
// layer's cache (load.cpp) holds only the last window and a batch. llama-server's rule (the
// memory's first position at or past the start of the next token's window) then starts the
// sequence again, as a refused cut does (generate.cpp).
// A context checkpoint, where one was saved, takes the sequence back instead (checkpoints.cpp).
size_t cut_cells(Slot & s, llama_seq_id seq, size_t keep);

// Context checkpoints (checkpoints.cpp), llama-server's for the same models: where the memory
// cannot go back (a recurrent state, a sliding window), a copy of that part is saved before the
// prompt's last steps, so a later prompt that shares all but the end with it (a regenerated
// answer, an edited last message, the next turn of a chat) goes back to it and not to the start.
//   prompt_step_size: the tokens of a prompt step from `from` (at most `most`): it ends at the
//     points where a checkpoint is saved.
//   save_checkpoint: saves one before the text step at `from`, where that is such a point.
//   restore_checkpoint: the newest checkpoint that lets the next token at cached cell `keep`
//     see its window, put back; returns the cells kept (at most `keep`), 0 where none does.
//   drop_checkpoints: forgets those past position `pos` (their tokens are gone).
size_t prompt_step_size(const Slot & s, size_t from, size_t most);
void save_checkpoint(Slot & s, llama_seq_id seq, size_t from);
size_t restore_checkpoint(Slot & s, llama_seq_id seq, size_t keep, llama_pos needed);
void drop_checkpoints(Slot & s, llama_pos pos);
// Gives `dst` the newest of `src`'s checkpoints that fit in the budget (ip_slot_copy).
void copy_checkpoints(const Slot & src, Slot & dst);

// Which positions of a batch get logits.
enum class Logits { none, last, all };

// Decodes `n` tokens at positions [pos, pos + n) on sequence `seq` of `ctx`, with logits where
// `logits` says (every position for scoring, the last for the next token). 0 on success.
int decode(llama_context * ctx, const llama_token * ids, int n, int pos, Logits logits, llama_seq_id seq = 0);

#define IP_EXPORT extern "C" __attribute__((used, visibility("default")))
// An export that may wait for the GPU (a decode, a tensor read back, the load): in the WebGPU
// build it suspends the wasm stack (JSPI), so link-engine.sh names it in -sJSPI_EXPORTS and it
// returns a promise there. engine-module.ts types the same exports `MaySuspend` (a unit test
// compares the two lists). In the CPU builds it is a plain export.
#define IP_EXPORT_MAY_SUSPEND IP_EXPORT
