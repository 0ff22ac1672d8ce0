// The vocabulary: text to ids (with or without special-token parsing) and ids to bytes.
#include "engine.h"

// Tokenizes `len` bytes of `text`. `add_special` adds the BOS/EOS the vocabulary asks for;
// `parse_special` turns control-token texts into control tokens (else they stay text).
// The ids are in ip_out_i32; returns their count.
IP_EXPORT int ip_tokenize(const char * text, int len, int add_special, int parse_special) {
  Engine & e = engine();
  std::vector<llama_token> & ids = out().i32;
  ids.resize(len + 2);
  int n = llama_tokenize(e.vocab, text, len, ids.data(), ids.size(), add_special, parse_special);
  if (n < 0) {
    ids.resize(-n);
    n = llama_tokenize(e.vocab, text, len, ids.data(), ids.size(), add_special, parse_special);
  }
  ids.resize(n < 0 ? 0 : n);
  return n;
}

// The bytes of token `id` (in ip_out_bytes): control tokens render as their text only with `special`.
IP_EXPORT int ip_piece(int id, int special) {
  Engine & e = engine();
  std::vector<uint8_t> & bytes = out().bytes;
  bytes.resize(64);
  int n = llama_token_to_piece(e.vocab, id, reinterpret_cast<char *>(bytes.data()), bytes.size(), 0, special);
  if (n < 0) {
    bytes.resize(-n);
    n = llama_token_to_piece(e.vocab, id, reinterpret_cast<char *>(bytes.data()), bytes.size(), 0, special);
  }
  bytes.resize(n < 0 ? 0 : n);
  return n;
}

// 1 when `id` ends a generation (EOS, EOT and the model's other end-of-generation tokens).
IP_EXPORT int ip_eog(int id) { return llama_vocab_is_eog(engine().vocab, id) ? 1 : 0; }
