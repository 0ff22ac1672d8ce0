// Mixed prompts: a rendered chat whose template markup may hold control tokens while the
// request's text (messages, tool results) never does. llama.cpp's own tokenizer splits text at
// special-token texts first (tokenizer_st_partition) and then tokenizes each piece between
// them; this does the same split, but a control (or unknown) token's text that overlaps a
// literal range stays text. User-defined tokens split everywhere, as llama.cpp does for plain
// text too. Each piece is then tokenized by llama.cpp without special parsing, so text that
// holds no control-token spelling tokenizes exactly as llama-server tokenizes it.
#include "engine.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace {

struct Piece {
  llama_token id;  // a special token, or LLAMA_TOKEN_NULL for text
  size_t start, end;
};

struct Special {
  llama_token id;
  std::string text;
  llama_token_attr attr;
};

// The vocabulary's special tokens, longest text first (llama.cpp's order).
const std::vector<Special> & specials() {
  static std::vector<Special> list;
  static const llama_vocab * made_for = nullptr;
  const llama_vocab * vocab = engine().vocab;
  if (made_for == vocab) return list;
  list.clear();
  const int mask = LLAMA_TOKEN_ATTR_CONTROL | LLAMA_TOKEN_ATTR_USER_DEFINED | LLAMA_TOKEN_ATTR_UNKNOWN;
  for (llama_token id = 0; id < llama_vocab_n_tokens(vocab); id++) {
    const llama_token_attr attr = llama_vocab_get_attr(vocab, id);
    const char * text = llama_vocab_get_text(vocab, id);
    if ((attr & mask) && text && *text) list.push_back({id, text, attr});
  }
  std::stable_sort(list.begin(), list.end(),
                   [](const Special & a, const Special & b) { return a.text.size() > b.text.size(); });
  made_for = vocab;
  return list;
}

bool overlaps(const std::vector<std::pair<size_t, size_t>> & literal, size_t start, size_t end) {
  for (const auto & [from, to] : literal)
    if (start < to && from < end) return true;
  return false;
}

}  // namespace

// Tokenizes `len` bytes of `text`, where the `n_ranges` byte ranges in `ranges` ([start, end)
// pairs) are literal: no control token is read inside them. `add_special` adds the BOS/EOS the
// vocabulary asks for. The ids are in ip_out_i32; returns their count.
IP_EXPORT int ip_tokenize_mixed(const char * text, int len, const int32_t * ranges, int n_ranges, int add_special) {
  const llama_vocab * vocab = engine().vocab;
  std::vector<std::pair<size_t, size_t>> literal;
  for (int i = 0; i < n_ranges; i++) literal.emplace_back(ranges[2 * i], ranges[2 * i + 1]);
  const std::string_view all(text, len);
  std::vector<Piece> pieces = {{LLAMA_TOKEN_NULL, 0, static_cast<size_t>(len)}};
  for (const Special & special : specials()) {
    const bool control = special.attr & (LLAMA_TOKEN_ATTR_CONTROL | LLAMA_TOKEN_ATTR_UNKNOWN);
    std::vector<Piece> next;
    for (const Piece & piece : pieces) {
      if (piece.id != LLAMA_TOKEN_NULL) {
        next.push_back(piece);
        continue;
      }
      size_t from = piece.start;
      size_t search = piece.start;
      for (;;) {
        const size_t at = all.substr(0, piece.end).find(special.text, search);
        if (at == std::string_view::npos) break;
        const size_t after = at + special.text.size();
        if (control && overlaps(literal, at, after)) {
          search = at + 1;
          continue;
        }
        size_t left_end = at;
        if (special.attr & LLAMA_TOKEN_ATTR_LSTRIP)
          while (left_end > from && isspace(static_cast<unsigned char>(all[left_end - 1]))) left_end--;
        if (left_end > from) next.push_back({LLAMA_TOKEN_NULL, from, left_end});
        next.push_back({special.id, at, after});
        from = after;
        if (special.attr & LLAMA_TOKEN_ATTR_RSTRIP)
          while (from < piece.end && isspace(static_cast<unsigned char>(all[from]))) from++;
        search = from;
      }
      if (from < piece.end) next.push_back({LLAMA_TOKEN_NULL, from, piece.end});
    }
    pieces = std::move(next);
  }
  std::vector<llama_token> ids;
  if (add_special && llama_vocab_get_add_bos(vocab)) ids.push_back(llama_vocab_bos(vocab));
  std::vector<llama_token> part;
  for (const Piece & piece : pieces) {
    if (piece.id != LLAMA_TOKEN_NULL) {
      ids.push_back(piece.id);
      continue;
    }
    const int n_text = static_cast<int>(piece.end - piece.start);
    part.resize(n_text + 2);
    int n = llama_tokenize(vocab, text + piece.start, n_text, part.data(), part.size(), false, false);
    if (n < 0) {
      part.resize(-n);
      n = llama_tokenize(vocab, text + piece.start, n_text, part.data(), part.size(), false, false);
    }
    if (n < 0) return fail("the text could not be tokenized");
    ids.insert(ids.end(), part.begin(), part.begin() + n);
  }
  if (add_special && llama_vocab_get_add_eos(vocab)) ids.push_back(llama_vocab_eos(vocab));
  out().i32 = std::move(ids);
  return static_cast<int>(out().i32.size());
}
