// The media probe: a projector's graph node by node, as the encoder computes it (mtmd's cb_eval):
// each F32 node's sum, absolute sum and first values, every value of a GELU (`G index value`:
// ggml's GELU reads an F16 table, where a tiny difference in its input can move the output a whole
// half step), then the embeddings. media-probe.sh builds it natively and for the web against the
// same llama.cpp and compares the two runs (docs/multimodal.md: the image logprob gap).
// One thread, flash attention off, no warmup: the engine's projector (native/media.cpp).
//   usage: media-probe MODEL MMPROJ MEDIA
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
#include "ggml.h"
#include "ggml-backend.h"
#include "llama.h"
#include "mtmd.h"
#include "mtmd-helper.h"

static bool observe(ggml_tensor * t, bool ask, void *) {
  if (ask) return true;
  if (t->type != GGML_TYPE_F32 || !ggml_is_contiguous(t)) {
    printf("%-28s %-12s %s\n", t->name, ggml_op_desc(t), ggml_type_name(t->type));
    return true;
  }
  std::vector<float> v(ggml_nelements(t));
  ggml_backend_tensor_get(t, v.data(), 0, v.size() * sizeof(float));
  double sum = 0, asum = 0;
  for (float x : v) { sum += x; asum += std::fabs(x); }
  if (t->op == GGML_OP_UNARY && ggml_get_unary_op(t) == GGML_UNARY_OP_GELU) {
    for (size_t i = 0; i < v.size(); i++) printf("G %zu %.9g\n", i, v[i]);
  }
  printf("%-28s %-12s [%lld,%lld,%lld] sum=%.9g asum=%.9g v=%.9g,%.9g,%.9g\n", t->name, ggml_op_desc(t),
         (long long) t->ne[0], (long long) t->ne[1], (long long) t->ne[2], sum, asum, v[0], v.size() > 1 ? v[1] : 0.f,
         v.size() > 2 ? v[2] : 0.f);
  return true;
}

int main(int argc, char ** argv) {
  if (argc < 4) return 2;
  llama_backend_init();
  llama_model_params mp = llama_model_default_params();
  mp.n_gpu_layers = 0;
  llama_model * model = llama_model_load_from_file(argv[1], mp);
  mtmd_context_params p = mtmd_context_params_default();
  p.use_gpu = false;
  p.n_threads = 1;
  p.warmup = false;
  p.print_timings = false;
  p.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
  p.cb_eval = observe;
  mtmd_context * ctx = mtmd_init_from_file(argv[2], model, p);
  mtmd_bitmap * bitmap = mtmd_helper_bitmap_init_from_file(ctx, argv[3], false, mtmd_helper_init_opt_default()).bitmap;
  const std::string prompt = std::string(mtmd_default_marker()) + "describe";
  mtmd_input_text text = { prompt.c_str(), prompt.size(), true, true };
  mtmd_input_chunks * chunks = mtmd_input_chunks_init();
  const mtmd_bitmap * bitmaps[] = { bitmap };
  if (mtmd_tokenize(ctx, chunks, &text, bitmaps, 1) != 0) return 1;
  for (size_t i = 0; i < mtmd_input_chunks_size(chunks); i++) {
    const mtmd_input_chunk * chunk = mtmd_input_chunks_get(chunks, i);
    if (mtmd_input_chunk_get_type(chunk) == MTMD_INPUT_CHUNK_TYPE_TEXT) continue;
    if (mtmd_encode_chunk(ctx, chunk) != 0) return 1;
    const float * e = mtmd_get_output_embd(ctx);
    const int n = mtmd_input_chunk_get_n_tokens(chunk) * llama_model_n_embd_inp(model);
    double sum = 0;
    for (int j = 0; j < n; j++) sum += e[j];
    printf("embd n=%d sum=%.9g v=%.9g,%.9g,%.9g\n", n, sum, e[0], e[1], e[2]);
  }
  return 0;
}
