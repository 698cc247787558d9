// Driver for kernels/gemm/blocktile_1d.cu at the GEMM tests' size, M = N = K = 4096,
// C = alpha * A * B + beta * C (alpha = 1, beta = 0.5, C random), verified
// against cuBLAS.
#include "kernels/gemm/blocktile_1d.cu"
#include "util.h"

namespace {
constexpr int kM = 4096, kN = 4096, kK = 4096;
REGISTER_CASE(make_case(
    "sgemm_blocktile_1d", "kernels/gemm/blocktile_1d.cu", "sgemm_blocktile_1d<64, 64, 8, 8>", {{"M", kM}, {"N", kN}, {"K", kK}}, "fp32",
    "cublas", [] {
      return std::make_unique<SgemmInstance>(kM, kN, kK, [](int M, int N, int K, float alpha, const float *A,
                                                    const float *B, float beta, float *C) {
        launch_sgemm_blocktile_1d(M, N, K, alpha, A, B, beta, C);
      });
    }));
} // namespace
