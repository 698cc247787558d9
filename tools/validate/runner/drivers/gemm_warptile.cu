// Driver for kernels/gemm/warptile.cu at the GEMM tests' size, M = N = K = 4096,
// C = alpha * A * B + beta * C (alpha = 1, beta = 0.5, C random), verified
// against cuBLAS.
#include "kernels/gemm/warptile.cu"
#include "util.h"

namespace {
constexpr int kM = 4096, kN = 4096, kK = 4096;
REGISTER_CASE(make_case(
    "sgemm_warptile", "kernels/gemm/warptile.cu", "sgemm_warptile<128, 128, 16, 64, 64, 2, 2, 4, 8>", {{"M", kM}, {"N", kN}, {"K", kK}}, "fp32",
    "cublas", [] {
      return std::make_unique<SgemmInstance>(kM, kN, kK, [](int M, int N, int K, float alpha, const float *A,
                                                    const float *B, float beta, float *C) {
        if (!launch_sgemm_warptile(M, N, K, alpha, A, B, beta, C))
          DIE("launch_sgemm_warptile refused the problem size");
      });
    }));
} // namespace
