// The kernel check: ggml-cpu's quantized dot products as this variant built them (the wasm
// arch kernels, relaxed SIMD in the relaxed variant) beside ggml's own scalar reference
// (`*_generic`), both from the same libggml-cpu.a. Linked by build-engine.sh into a small
// standalone wasm that test/unit/worker/engine/backends/llamacpp/engine-kernels.test.ts runs on random blocks.
// Also the F16 <-> F32 conversions of the F16 KV cache's attention: simd-mappings.h's SIMD ones
// (patches/ggml-cpu-wasm-f16-simd.patch, compiled here with the variant's flags) beside ggml's
// scalar ones, and the library's ggml_vec_dot_f16 beside a scalar replica of its sum order.
// And F32 mul_mat's ggml_vec_dot_f32 (patches/ggml-cpu-wasm-tiles-f32.patch in the relaxed
// variant) beside a scalar sum in double, and its 2x2 tile beside its single dot.
// And F32 prefill's matrix product, llamafile_sgemm's tinyBLAS on SIMD128
// (patches/ggml-cpu-wasm-sgemm.patch), beside the same sum in double, also with B's rows apart
// (attention's permuted Q, patches/ggml-cpu-wasm-sgemm-strided.patch). And the exponentials of
// softmax and SwiGLU (patches/ggml-cpu-wasm-expf.patch), beside exp in double.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ggml-cpu.h"
#include "ggml-cpu-impl.h"
#include "ggml-impl.h"
#include "llamafile/sgemm.h"
#include "simd-mappings.h"

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

// The 2x2 tile (nrc 2, the prefill path where the variant has one: q4_0, q8_0 and q4_K in the
// relaxed variant) of rows x, x + bx and columns y, y + by into out[0..3]: x.y, (x+bx).y, x.(y+by),
// (x+bx).(y+by). Returns 0 (and writes nothing) where the variant has no such kernel.
IP_EXPORT int kc_dot2(int kind, int n, const void * x, size_t bx, const void * y, size_t by, float * out) {
#if defined(__wasm_relaxed_simd__)
    if (kind < 0 || kind > 2) return 0;
    kernels[kind][0](n, out, 2, x, bx, y, by, 2);
    return 1;
#else
    (void) kind; (void) n; (void) x; (void) bx; (void) y; (void) by; (void) out;
    return 0;
#endif
}

// F16 <-> F32 on `n` values (a multiple of 4): `to_f32` 1 reads halves and writes floats, 0 the
// reverse. `reference` 1 runs ggml's scalar conversion, 0 the SIMD one.
IP_EXPORT void kc_convert(int to_f32, int reference, int n, const void * in, void * out) {
    for (int i = 0; i + 4 <= n; i += 4) {
        const ggml_fp16_t * h = (const ggml_fp16_t *) in + i;
        const float * f = (const float *) in + i;
        if (to_f32 && reference) {
            for (int j = 0; j < 4; j++) ((float *) out)[i + j] = ggml_compute_fp16_to_fp32(h[j]);
        } else if (to_f32) {
            wasm_v128_store((float *) out + i, __wasm_f16x4_load(h));
        } else if (reference) {
            for (int j = 0; j < 4; j++) ((ggml_fp16_t *) out)[i + j] = ggml_compute_fp32_to_fp16(f[j]);
        } else {
            __wasm_f16x4_store((ggml_fp16_t *) out + i, wasm_v128_load(f));
        }
    }
}

void ggml_vec_dot_f16(int n, float * s, size_t bs, ggml_fp16_t * x, size_t bx, ggml_fp16_t * y, size_t by, int nrc);

// ggml_vec_dot_f16 of `n` halves (`reference` 0), or its wasm SIMD path's sum order in scalar
// code with ggml's scalar conversion (`reference` 1): 4 accumulators of 4 lanes over each 16
// values, folded 0+2, 1+3, then 0+1, lanes in order, the leftovers added in double.
IP_EXPORT float kc_dot_f16(int reference, int n, ggml_fp16_t * x, ggml_fp16_t * y) {
    float s = 0;
    if (!reference) {
        ggml_vec_dot_f16(n, &s, 0, x, 0, y, 0, 1);
        return s;
    }
    float sum[4][4] = {{0}};
    const int np = n & ~15;
    for (int i = 0; i < np; i += 16)
        for (int j = 0; j < 4; j++)
            for (int l = 0; l < 4; l++)
                sum[j][l] = ggml_compute_fp16_to_fp32(x[i + 4 * j + l]) * ggml_compute_fp16_to_fp32(y[i + 4 * j + l]) + sum[j][l];
    for (int l = 0; l < 4; l++) {
        sum[0][l] = sum[0][l] + sum[2][l];
        sum[1][l] = sum[1][l] + sum[3][l];
        sum[0][l] = sum[0][l] + sum[1][l];
    }
    double sumf = (double) (sum[0][0] + sum[0][1] + sum[0][2] + sum[0][3]);
    for (int i = np; i < n; i++) sumf += (double) (ggml_compute_fp16_to_fp32(x[i]) * ggml_compute_fp16_to_fp32(y[i]));
    return (float) sumf;
}

void ggml_vec_dot_f32(int n, float * s, size_t bs, const float * x, size_t bx, const float * y, size_t by, int nrc);

// ggml_vec_dot_f32 of `n` floats (`reference` 0), or the plain sum of x[i] * y[i] in double
// (`reference` 1), the exact value up to double's rounding.
IP_EXPORT double kc_dot_f32(int reference, int n, const float * x, const float * y) {
    if (!reference) {
        float s = 0;
        ggml_vec_dot_f32(n, &s, 0, x, 0, y, 0, 1);
        return s;
    }
    double sum = 0;
    for (int i = 0; i < n; i++) sum += (double) x[i] * (double) y[i];
    return sum;
}

// ggml_vec_dot_f32's 2x2 tile (nrc 2, F32 prefill in the relaxed variant) of rows x, x + bx and
// columns y, y + by (strides in bytes) into out[0..3]: x.y, (x+bx).y, x.(y+by), (x+bx).(y+by).
// Returns 0 (and writes nothing) where the variant has no such kernel.
IP_EXPORT int kc_dot2_f32(int n, const float * x, size_t bx, const float * y, size_t by, float * out) {
#if defined(__wasm_relaxed_simd__)
    ggml_vec_dot_f32(n, out, 2, x, bx, y, by, 2);
    return 1;
#else
    (void) n; (void) x; (void) bx; (void) y; (void) by; (void) out;
    return 0;
#endif
}

// C = A B by llamafile_sgemm as F32 mul_mat calls it: A is m rows of k floats (the weights), B n
// rows of k floats `ldb` floats apart (the batch; ldb > k: a view whose rows are not one after
// another, as attention's permuted Q), C n rows of m floats, each row C[j] = A . B[j]. Returns 1
// where tinyBLAS took the product, 0 where it declined (ggml then falls back to ggml_vec_dot_f32).
// First the same product goes through a ggml graph (ggml_mul_mat of B's view, one thread) into
// c_graph: the engine's path, so a check can see that mul_mat used tinyBLAS. That also readies
// the thread pool, whose barriers read the thread count a graph sets.
IP_EXPORT int kc_sgemm_f32(int m, int n, int k, int ldb, const float * a, const float * b, float * c, float * c_graph) {
    static struct ggml_threadpool * pool = NULL;
    if (pool == NULL) {
        struct ggml_threadpool_params tpp = ggml_threadpool_params_default(1);
        pool = ggml_threadpool_new(&tpp);
    }
    const size_t floats = (size_t) m * k + (size_t) n * ldb + (size_t) m * n;
    struct ggml_init_params init = {
        floats * sizeof(float) + 5 * ggml_tensor_overhead() + ggml_graph_overhead() + 1024, NULL, false};
    struct ggml_context * ctx = ggml_init(init);
    struct ggml_tensor * ta = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, k, m);
    struct ggml_tensor * tb_rows = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, ldb, n);
    struct ggml_tensor * tb = ggml_view_2d(ctx, tb_rows, k, n, (size_t) ldb * sizeof(float), 0);
    memcpy(ta->data, a, (size_t) m * k * sizeof(float));
    memcpy(tb_rows->data, b, (size_t) n * ldb * sizeof(float));
    struct ggml_tensor * tc = ggml_mul_mat(ctx, ta, tb);
    struct ggml_cgraph * graph = ggml_new_graph(ctx);
    ggml_build_forward_expand(graph, tc);
    struct ggml_cplan plan = ggml_graph_plan(graph, 1, pool);
    plan.work_data = plan.work_size > 0 ? malloc(plan.work_size) : NULL;
    ggml_graph_compute(graph, &plan);
    memcpy(c_graph, tc->data, (size_t) m * n * sizeof(float));
    free(plan.work_data);
    ggml_free(ctx);

    struct ggml_compute_params params = {0, 1, 0, NULL, pool, false};
    return llamafile_sgemm(&params, m, n, k, a, k, b, ldb, c, m, GGML_TYPE_F32, GGML_TYPE_F32, GGML_TYPE_F32);
}

double ggml_vec_soft_max_f32(const int n, float * y, const float * x, float max);
void ggml_vec_swiglu_f32(const int n, float * y, const float * x, const float * g);

// Softmax's exponentials as ggml's softmax takes them: y[i] = exp(x[i] - max), returning their
// sum (in double, as ggml sums them).
IP_EXPORT double kc_softmax_f32(int n, const float * x, float max, float * y) {
    return ggml_vec_soft_max_f32(n, y, x, max);
}

// SwiGLU as the FFN takes it: y[i] = x[i] / (1 + exp(-x[i])) * g[i].
IP_EXPORT void kc_swiglu_f32(int n, const float * x, const float * g, float * y) {
    ggml_vec_swiglu_f32(n, y, x, g);
}
