// The kernel check: ggml-cpu's quantized dot products as this variant built them (the wasm
// arch kernels, relaxed SIMD in the relaxed variant) beside ggml's own scalar reference
// (`*_generic`), both from the same libggml-cpu.a. Linked by build-engine.sh into a small
// standalone wasm that test/unit/worker/engine/backends/llamacpp/engine-kernels.test.ts runs on random blocks.
#include <stddef.h>
#include <stdlib.h>

#define IP_EXPORT __attribute__((used, visibility("default")))

typedef void vec_dot_t(int n, float * s, size_t bs, const void * vx, size_t bx, const void * vy, size_t by, int nrc);

vec_dot_t ggml_vec_dot_q4_0_q8_0, ggml_vec_dot_q4_0_q8_0_generic;
vec_dot_t ggml_vec_dot_q8_0_q8_0, ggml_vec_dot_q8_0_q8_0_generic;
vec_dot_t ggml_vec_dot_q4_K_q8_K, ggml_vec_dot_q4_K_q8_K_generic;
vec_dot_t ggml_vec_dot_q6_K_q8_K, ggml_vec_dot_q6_K_q8_K_generic;

// By kind (0 q4_0, 1 q8_0, 2 q4_K, 3 q6_K): the kernel and ggml's reference.
static vec_dot_t * const kernels[4][2] = {
    {ggml_vec_dot_q4_0_q8_0, ggml_vec_dot_q4_0_q8_0_generic},
    {ggml_vec_dot_q8_0_q8_0, ggml_vec_dot_q8_0_q8_0_generic},
    {ggml_vec_dot_q4_K_q8_K, ggml_vec_dot_q4_K_q8_K_generic},
    {ggml_vec_dot_q6_K_q8_K, ggml_vec_dot_q6_K_q8_K_generic},
};

void ggml_cpu_init(void);

// ggml-cpu's tables (fp16 -> fp32 among them), as the engine fills them when it starts.
IP_EXPORT void kc_init(void) { ggml_cpu_init(); }

IP_EXPORT void * kc_malloc(size_t bytes) { return malloc(bytes); }

// The dot product of `n` values: x's blocks (the weights' type) with y's (q8_0 or q8_K).
// `reference` 1 runs ggml's scalar code, 0 the kernel under test. -1 on an unknown kind.
IP_EXPORT float kc_dot(int kind, int reference, int n, const void * x, const void * y) {
    if (kind < 0 || kind > 3) return -1;
    float s = 0;
    kernels[kind][reference ? 1 : 0](n, &s, 0, x, 0, y, 0, 1);
    return s;
}
