// Driver for kernels/gemm/mma_sync_fp8.cu at the GEMM tests' size, M = N = K = 4096,
// C = alpha * A * B + beta * C (alpha = 1, beta = 0.5, C random) with A and B in
// fp8 e4m3 (B passed transposed, N x K, as the kernel takes it). cuBLAS has no
// plain GemmEx for fp8, so the reference is the CPU, in double, on the fp8
// values: every 64th row of C in full (64 x 4096 outputs). Needs sm_89 or newer:
// run.py leaves this driver out of the runner on older GPUs.
#include "kernels/gemm/mma_sync_fp8.cu"
#include "util.h"

#include <cuda_fp8.h>

namespace {
struct Fp8Gemm : Instance {
  static constexpr int kRowStep = 64;
  int M, N, K;
  float alpha = 1.0f, beta = 0.5f;
  std::vector<float> hA, hBt, hC0; // the fp8 inputs as floats, C's initial value
  DevBuf<__nv_fp8_e4m3> A, Bt;
  DevBuf<float> C, C0;
  static std::vector<__nv_fp8_e4m3> quantize(const std::vector<float> &f, std::vector<float> &back) {
    std::vector<__nv_fp8_e4m3> q(f.size());
    back.resize(f.size());
    for (size_t i = 0; i < f.size(); ++i) {
      q[i] = __nv_fp8_e4m3(f[i]);
      back[i] = static_cast<float>(q[i]);
    }
    return q;
  }
  Fp8Gemm(int M_, int N_, int K_)
      : M(M_), N(N_), K(K_), hC0(random_floats(size_t(M_) * N_, 53)), A(size_t(M_) * K_),
        Bt(size_t(N_) * K_), C(size_t(M_) * N_), C0(size_t(M_) * N_) {
    A.upload(quantize(random_floats(A.n, 51), hA));
    Bt.upload(quantize(random_floats(Bt.n, 52), hBt));
    C0.upload(hC0);
    C.copy_from(C0);
  }
  void launch() override {
    if (!launch_gemm_mma_sync_fp8(M, N, K, alpha, A.p, Bt.p, beta, C.p))
      DIE("launch_gemm_mma_sync_fp8 refused the problem size");
  }
  void reset() override { C.copy_from(C0); }
  Verification verify() override {
    std::vector<float> all = C.download(), out;
    std::vector<double> ref;
    for (int i = 0; i < M; i += kRowStep)
      for (int j = 0; j < N; ++j) {
        double acc = 0.0;
        const float *a = &hA[size_t(i) * K], *b = &hBt[size_t(j) * K];
        for (int k = 0; k < K; ++k)
          acc += static_cast<double>(a[k]) * b[k];
        ref.push_back(alpha * acc + beta * static_cast<double>(hC0[size_t(i) * N + j]));
        out.push_back(all[size_t(i) * N + j]);
      }
    // e4m3 products are exact in fp32; the tensor cores accumulate fp8 MMAs
    // with fewer mantissa bits than fp32, hence a looser bound than bf16's 1e-3.
    Verification v = compare(out, ref, 1e-2);
    v.note = "CPU double reference on every 64th row of C";
    return v;
  }
};
constexpr int kM = 4096, kN = 4096, kK = 4096;
REGISTER_CASE(make_case("gemm_mma_sync_fp8", "kernels/gemm/mma_sync_fp8.cu", "gemm_mma_sync_fp8<128, 128, 64, 64, 32>",
                        {{"M", kM}, {"N", kN}, {"K", kK}}, "fp8", "cpu",
                        [] { return std::make_unique<Fp8Gemm>(kM, kN, kK); }));
} // namespace
