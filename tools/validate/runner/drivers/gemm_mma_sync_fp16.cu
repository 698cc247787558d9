// Driver for kernels/gemm/mma_sync_fp16.cu at the GEMM tests' size, M = N = K = 4096,
// C = alpha * A * B + beta * C (alpha = 1, beta = 0.5, C random) with A and B in
// fp16, verified against cuBLAS GemmEx (fp16 inputs, fp32 compute).
#include "kernels/gemm/mma_sync_fp16.cu"
#include "util.h"

namespace {
struct Fp16Gemm : Instance {
  int M, N, K;
  float alpha = 1.0f, beta = 0.5f;
  DevBuf<uint16_t> A, B;
  DevBuf<float> C, C0;
  Fp16Gemm(int M_, int N_, int K_)
      : M(M_), N(N_), K(K_), A(size_t(M_) * K_), B(size_t(K_) * N_), C(size_t(M_) * N_),
        C0(size_t(M_) * N_) {
    A.upload(random_fp16_bits(A.n, 41));
    B.upload(random_fp16_bits(B.n, 42));
    C0.upload(random_floats(C0.n, 43));
    C.copy_from(C0);
  }
  void launch() override {
    if (!launch_gemm_mma_sync_fp16(M, N, K, alpha, reinterpret_cast<const __half *>(A.p),
                                   reinterpret_cast<const __half *>(B.p), beta, C.p))
      DIE("launch_gemm_mma_sync_fp16 refused the problem size");
  }
  void reset() override { C.copy_from(C0); }
  Verification verify() override {
    // Same fp16 inputs on both sides, fp32 accumulation: only the summation order differs.
    return verify_gemm_fp16(M, N, K, alpha, A.p, B.p, beta, C0.p, C.p, 1e-3);
  }
};
constexpr int kM = 4096, kN = 4096, kK = 4096;
REGISTER_CASE(make_case("gemm_mma_sync_fp16", "kernels/gemm/mma_sync_fp16.cu", "gemm_mma_sync_fp16<64, 128, 32, 32, 64>",
                        {{"M", kM}, {"N", kN}, {"K", kK}}, "fp16", "cublas",
                        [] { return std::make_unique<Fp16Gemm>(kM, kN, kK); }));
} // namespace
