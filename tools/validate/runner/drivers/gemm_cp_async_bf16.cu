// Driver for kernels/gemm/cp_async_bf16.cu at the GEMM tests' size, M = N = K = 4096,
// C = alpha * A * B + beta * C (alpha = 1, beta = 0.5, C random), verified
// against cuBLAS. Needs sm_80 or newer (cp.async, ldmatrix, bf16 mma.sync).
#include "kernels/gemm/cp_async_bf16.cu"
#include "util.h"

namespace {
constexpr int kM = 4096, kN = 4096, kK = 4096;
REGISTER_CASE(make_case(
    "gemm_cp_async_bf16", "kernels/gemm/cp_async_bf16.cu", "gemm_cp_async_bf16<128, 128, 32, 64, 32>", {{"M", kM}, {"N", kN}, {"K", kK}}, "bf16",
    "cublas", [] {
      return std::make_unique<Bf16GemmInstance>(kM, kN, kK, [](int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                                                    const __nv_bfloat16 *B, float beta, float *C) {
        if (!launch_gemm_cp_async_bf16(M, N, K, alpha, A, B, beta, C))
          DIE("launch_gemm_cp_async_bf16 refused the problem size");
      });
    }));
} // namespace
