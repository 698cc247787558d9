// Driver for kernels/gemm/vectorized.cu at the GEMM tests' size, M = N = K = 4096,
// C = alpha * A * B + beta * C (alpha = 1, beta = 0.5, C random), verified
// against cuBLAS.
#include "kernels/gemm/vectorized.cu"
#include "util.h"

namespace {
constexpr int kM = 4096, kN = 4096, kK = 4096;
REGISTER_CASE(make_case(
    "sgemm_vectorized", "kernels/gemm/vectorized.cu", "sgemm_vectorized<128, 128, 8, 8, 8>", {{"M", kM}, {"N", kN}, {"K", kK}}, "fp32",
    "cublas", [] {
      return std::make_unique<SgemmInstance>(kM, kN, kK, [](int M, int N, int K, float alpha, const float *A,
                                                    const float *B, float beta, float *C) {
        if (!launch_sgemm_vectorized(M, N, K, alpha, A, B, beta, C))
          DIE("launch_sgemm_vectorized refused the problem size");
      });
    }));
} // namespace
