// Images and audio in: a projector (llama.cpp's mtmd, an `--mmproj` GGUF) beside the model, and
// prompts made of text with media markers plus the media's bytes, read into the current slot.
//
// ip_media_begin tokenizes such a prompt with mtmd into chunks (text, image, audio) and starts a
// generation on it as ip_begin does: the slot's prompt holds the text chunks' tokens and
// LLAMA_TOKEN_NULL for each media position, and ip_prefill (generate.cpp) decodes the text as
// before and each media chunk whole through decode_media. Prefix reuse keeps a media chunk's
// cells where the slot holds the same item at the same position (same content id, mtmd-helper's
// sha256 of the item's bytes, and same size), as llama-server's server_tokens compares them; the
// next request about the same picture does not encode it again.
//
// M-RoPE projectors (Qwen2-VL and its successors) place a picture of w x h tokens on max(w, h)
// positions, so after one a slot's next position is not its cell count: Slot::pos_at (below)
// gives it, as llama-server's server_tokens::pos_next does. The projector runs on the GPU where the caller asks and the build has one (the WebGPU build's
// device: llama-server's `--mmproj-offload`), else on the CPU on one thread: ggml would start
// threads of its own for it inside the call, and the pthreads build's Workers are all held by the
// engine's pool (threads.cpp).
#include "engine.h"

#include <cstring>

#include "mtmd-helper.h"
#include "mtmd.h"

// The prompt's chunks, and where each media chunk starts in the slot's prompt.
struct MediaPrompt {
  mtmd::input_chunks chunks{mtmd_input_chunks_init()};
  std::vector<std::pair<size_t, const mtmd_input_chunk *>> at;

  // The media chunk that starts at `start`, or null.
  const mtmd_input_chunk * chunk_at(size_t start) const {
    for (const auto & [from, chunk] : at)
      if (from == start) return chunk;
    return nullptr;
  }
};

// How much of `ids` (with `media`'s chunks) slot `s` already holds: text tokens that match, and
// media chunks kept whole where the slot's cells hold the same item (its previous prompt's chunk
// at that position with the same content id and size). A slot's cached LLAMA_TOKEN_NULLs all
// belong to `s.media`: ip_begin keeps no cell past the first one.
static size_t kept_prefix(const Slot & s, const std::vector<llama_token> & ids, const MediaPrompt & media) {
  size_t keep = 0;
  while (keep < s.cached.size() && keep < ids.size()) {
    if (ids[keep] != LLAMA_TOKEN_NULL) {
      if (s.cached[keep] != ids[keep]) break;
      keep++;
      continue;
    }
    const mtmd_input_chunk * now = media.chunk_at(keep);
    const mtmd_input_chunk * before = s.media ? s.media->chunk_at(keep) : nullptr;
    if (!now || !before || s.cached[keep] != LLAMA_TOKEN_NULL) break;
    const size_t n = mtmd_input_chunk_get_n_tokens(now);
    const char * id_now = mtmd_input_chunk_get_id(now);
    const char * id_before = mtmd_input_chunk_get_id(before);
    const bool same = id_now && id_before && *id_now && strcmp(id_now, id_before) == 0 &&
                      n == mtmd_input_chunk_get_n_tokens(before) && keep + n <= s.cached.size();
    if (!same) break;
    keep += n;
  }
  return keep;
}

// mtmd's log: errors to the console, and the last one kept (mtmd_init_from_file says why it
// failed only there). clip says which backend each of its encoders got only there too ("CLIP
// using WebGPU backend"; a device that fails to start leaves it on the CPU), so
// `projector_on_gpu` is read from it.
static std::string last_error;
static bool projector_on_gpu = false;
static void on_mtmd_log(ggml_log_level level, const char * text, void *) {
  const char * using_backend = strstr(text, "CLIP using ");
  if (using_backend && strncmp(using_backend, "CLIP using CPU ", 15) != 0) projector_on_gpu = true;
  if (level != GGML_LOG_LEVEL_ERROR) return;
  fputs(text, stderr);
  last_error = text;
  while (!last_error.empty() && last_error.back() == '\n') last_error.pop_back();
}

// Whether `bytes` open as audio: WAV, MP3 or FLAC, as mtmd_helper_bitmap_init_from_buf tells them
// from images (its own check is not exported).
static bool is_audio(const uint8_t * bytes, size_t size) {
  if (size < 12) return false;
  const bool wav = memcmp(bytes, "RIFF", 4) == 0 && memcmp(bytes + 8, "WAVE", 4) == 0;
  const bool mp3 = memcmp(bytes, "ID3", 3) == 0 || (bytes[0] == 0xFF && (bytes[1] & 0xE0) == 0xE0);
  return wav || mp3 || memcmp(bytes, "fLaC", 4) == 0;
}

// The text that stands for one media item in a prompt (ip_mmproj_load's `marker`).
static std::string marker = mtmd_default_marker();

// Loads the projector at `path` for the loaded model (replacing any other), with `marker` as the
// media marker (empty: mtmd's "<__media__>"; llama-server picks a random one per run and says
// which in /props), on the GPU where `use_gpu` is 1 and the build has a GPU device. Returns its
// modalities (1: images, 2: audio, 3: both), plus 4 where it runs on the GPU, or -1 where it does
// not fit the model.
IP_EXPORT_MAY_SUSPEND int ip_mmproj_load(const char * path, const char * media_marker, int use_gpu) {
  Engine & e = engine();
  if (!e.model) return fail("no model is loaded");
  if (e.mtmd) mtmd_free(e.mtmd);
  e.mtmd = nullptr;
  mtmd_log_set(on_mtmd_log, nullptr);
  mtmd_helper_log_set(on_mtmd_log, nullptr);
  mtmd_context_params params = mtmd_context_params_default();
  params.use_gpu = use_gpu != 0;
  params.print_timings = false;
  params.n_threads = 1;
  params.warmup = false;
  marker = *media_marker ? media_marker : mtmd_default_marker();
  params.media_marker = marker.c_str();
  last_error.clear();
  projector_on_gpu = false;
  try {
    e.mtmd = mtmd_init_from_file(path, e.model, params);
  } catch (const std::exception & error) {
    last_error = error.what();
  }
  if (!e.mtmd) return fail("the projector could not be loaded for this model" + (last_error.empty() ? "" : ": " + last_error));
  return (mtmd_support_vision(e.mtmd) ? 1 : 0) | (mtmd_support_audio(e.mtmd) ? 2 : 0) | (projector_on_gpu ? 4 : 0);
}

// The marker that stands for one media item in ip_media_begin's text.
IP_EXPORT const char * ip_media_marker() { return marker.c_str(); }

// Starts a generation on `len` bytes of `text`, whose media markers stand for the `n_media` items
// in `data` (item i is `sizes[i]` bytes: an image stb_image reads, or WAV, MP3 or FLAC audio),
// with prefix reuse as ip_begin's (up to the first media chunk; ip_cached then says how many were
// kept). The prompt's tokens are in ip_out_i32 (LLAMA_TOKEN_NULL for media positions); returns
// their count, -1 when the engine failed, or -4 when the request is at fault (ip_error names
// the item).
IP_EXPORT_MAY_SUSPEND int ip_media_begin(const char * text, int len, const uint8_t * data, const int32_t * sizes, int n_media,
                             int reuse, int add_special, int parse_special) {
  Engine & e = engine();
  Slot & s = e.slot();
  auto refuse = [](const std::string & message) { return fail(message), -4; };
  if (!e.mtmd) return refuse("this model has no projector: it takes text only");
  std::vector<mtmd::bitmap> items;
  size_t offset = 0;
  for (int i = 0; i < n_media; i++) {
    const uint8_t * bytes = data + offset;
    const size_t size = static_cast<size_t>(sizes[i]);
    offset += size;
    const std::string item = "media item " + std::to_string(i);
    const bool audio = is_audio(bytes, size);
    if (audio && !mtmd_support_audio(e.mtmd)) return refuse(item + " is audio, and this model takes no audio");
    if (!audio && !mtmd_support_vision(e.mtmd))
      return refuse(item + " is not audio (WAV, MP3 or FLAC), and this model takes no images");
    mtmd_helper_bitmap_wrapper bitmap =
        mtmd_helper_bitmap_init_from_buf(e.mtmd, bytes, size, false, mtmd_helper_init_opt_default());
    if (!bitmap.bitmap) return refuse(item + (audio ? " could not be decoded as audio" : " could not be decoded as an image"));
    items.emplace_back(bitmap.bitmap);
  }
  auto media = std::make_shared<MediaPrompt>();
  std::vector<const mtmd_bitmap *> bitmaps;
  for (const mtmd::bitmap & item : items) bitmaps.push_back(item.ptr.get());
  const mtmd_input_text input{text, static_cast<size_t>(len), add_special != 0, parse_special != 0};
  int status = 0;
  try {
    status = mtmd_tokenize(e.mtmd, media->chunks.ptr.get(), &input, bitmaps.data(), bitmaps.size());
  } catch (const std::exception & error) {
    return fail(std::string("the prompt could not be tokenized: ") + error.what());
  }
  if (status == 1) return refuse("the prompt's media markers (" + marker + ") are not as many as its " + std::to_string(n_media) + " media items");
  if (status != 0) return refuse("a media item could not be prepared for the projector" + (last_error.empty() ? "" : ": " + last_error));
  std::vector<llama_token> & ids = out().i32;
  ids.clear();
  for (size_t i = 0; i < media->chunks.size(); i++) {
    const mtmd_input_chunk * chunk = media->chunks[i];
    if (mtmd_input_chunk_get_type(chunk) == MTMD_INPUT_CHUNK_TYPE_TEXT) {
      size_t n = 0;
      const llama_token * tokens = mtmd_input_chunk_get_tokens_text(chunk, &n);
      ids.insert(ids.end(), tokens, tokens + n);
    } else {
      media->at.emplace_back(ids.size(), chunk);
      ids.insert(ids.end(), mtmd_input_chunk_get_n_tokens(chunk), LLAMA_TOKEN_NULL);
    }
  }
  // Its logits come from the last token's row, and a media chunk's rows have none.
  if (ids.empty() || ids.back() == LLAMA_TOKEN_NULL) return refuse("the prompt ends with media: put text after the last media item");
  const int n = static_cast<int>(ids.size());
  if (n > static_cast<int>(llama_n_ctx_seq(e.ctx))) return refuse("the prompt is longer than the context");
  size_t keep = 0;
  if (reuse) {
    keep = kept_prefix(s, ids, *media);
    // The last token is decoded again for its logits (a prompt ends with text: checked above).
    if (keep == ids.size()) keep--;
  }
  // The chunks kept are the same items at the same places in both prompts: either one's positions.
  s.media = media;
  keep = cut_cells(s, e.current, keep);
  s.prompt = ids;
  s.pending = n - keep;
  s.kept = keep;
  s.after_media = false;
  return n;
}

int decode_media(Slot & s, size_t from) {
  Engine & e = engine();
  const mtmd_input_chunk * chunk = s.media ? s.media->chunk_at(from) : nullptr;
  if (!chunk) return fail("no media chunk starts at position " + std::to_string(from));
  const llama_pos pos = s.pos_at(from);
  llama_pos next = pos;
  int32_t status = 0;
  try {
    status = mtmd_helper_eval_chunk_single(e.mtmd, e.ctx, chunk, pos, e.current, e.n_batch, false, &next);
  } catch (const std::exception & error) {
    return fail(std::string("the projector failed: ") + error.what());
  }
  if (status != 0) return fail("the projector could not encode or decode a media item (" + std::to_string(status) + ")");
  return static_cast<int>(mtmd_input_chunk_get_n_tokens(chunk));
}

llama_pos Slot::pos_at(size_t n) const {
  llama_pos pos = static_cast<llama_pos>(n);
  if (!media) return pos;
  // `at` is in prompt order; a chunk counts once all its cells are among the first n and cached.
  for (const auto & [from, chunk] : media->at) {
    const size_t tokens = mtmd_input_chunk_get_n_tokens(chunk);
    if (from + tokens > n || from + tokens > cached.size()) break;
    pos += mtmd_input_chunk_get_n_pos(chunk) - static_cast<llama_pos>(tokens);
  }
  return pos;
}

size_t Slot::size_up_to_pos(llama_pos pos) const {
  if (!media) return std::min(static_cast<size_t>(std::max(pos, 0)), cached.size());
  size_t n = 0;
  llama_pos at = 0;
  auto chunk = media->at.begin();
  while (n < cached.size() && at < pos) {
    if (chunk != media->at.end() && chunk->first == n) {
      at += mtmd_input_chunk_get_n_pos(chunk->second);
      n += mtmd_input_chunk_get_n_tokens(chunk->second);
      ++chunk;
    } else {
      at++;
      n++;
    }
  }
  return std::min(n, cached.size());
}
