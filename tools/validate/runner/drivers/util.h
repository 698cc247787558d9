// util.h: helpers shared by the drivers (each driver #includes one bundled
// kernel file and registers its cases with REGISTER_CASE).
#pragma once

#include "../common.h"

#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <functional>

#define VALIDATE_CAT2(a, b) a##b
#define VALIDATE_CAT(a, b) VALIDATE_CAT2(a, b)
// REGISTER_CASE(expr): registers the CaseInfo `expr` at program start.
#define REGISTER_CASE(expr)                                                    \
  static const RegisterCase VALIDATE_CAT(validate_case_, __LINE__)(expr)

inline CaseInfo make_case(const char *id, const char *file, const char *name,
                          std::vector<std::pair<std::string, long long>> params,
                          const char *precision, const char *reference,
                          std::function<std::unique_ptr<Instance>()> make,
                          int launches = 1,
                          std::vector<std::string> analyzer_extra = {}) {
  CaseInfo c;
  c.id = id;
  c.file = file;
  c.name = name;
  c.params = std::move(params);
  c.precision = precision;
  c.reference = reference;
  c.make = std::move(make);
  c.launches = launches;
  c.analyzer_extra = std::move(analyzer_extra);
  return c;
}

// Elementwise y = f(x) over n floats, checked against a double reference.
struct UnaryInstance : Instance {
  using Launch = std::function<void(const float *, float *, int)>;
  int n;
  double tol;
  Launch fn;
  std::function<double(double)> ref;
  std::vector<float> hx;
  DevBuf<float> x, y;
  UnaryInstance(int n_, uint64_t seed, double tol_, Launch fn_,
                std::function<double(double)> ref_)
      : n(n_), tol(tol_), fn(std::move(fn_)), ref(std::move(ref_)),
        hx(random_floats(n_, seed)), x(n_), y(n_) {
    x.upload(hx);
    y.upload(random_floats(n_, seed + 1000)); // not zeros, and not the answer
  }
  void launch() override { fn(x.p, y.p, n); }
  Verification verify() override {
    std::vector<double> r(n);
    for (int i = 0; i < n; ++i)
      r[i] = ref(static_cast<double>(hx[i]));
    return compare(y.download(), r, tol);
  }
};

// One partial sum per block of `threads` consecutive elements (0 beyond n),
// checked against a CPU sum: the first pass of a reduction.
struct BlockSumInstance : Instance {
  using Launch = std::function<void(const float *, float *, int)>;
  int n, threads, blocks;
  Launch fn;
  std::vector<float> hin;
  DevBuf<float> in, out;
  BlockSumInstance(int n_, int threads_, uint64_t seed, Launch fn_)
      : n(n_), threads(threads_), blocks((n_ + threads_ - 1) / threads_),
        fn(std::move(fn_)), hin(random_floats(n_, seed)), in(n_), out(blocks) {
    in.upload(hin);
    out.upload(random_floats(out.n, seed + 1));
  }
  void launch() override { fn(in.p, out.p, n); }
  Verification verify() override {
    std::vector<double> r(blocks, 0.0);
    for (int i = 0; i < n; ++i)
      r[i / threads] += hin[i];
    // At most `threads` fp32 additions in a tree: ~1e-7 of the partial
    // sums' magnitude.
    return compare(out.download(), r, 1e-5);
  }
};

// Row-major fp32 GEMM C = alpha * A * B + beta * C (A: M x K, B: K x N),
// checked against cuBLAS SGEMM (plus a CPU spot check).
struct SgemmInstance : Instance {
  using Launch = std::function<void(int, int, int, float, const float *,
                                    const float *, float, float *)>;
  int M, N, K;
  float alpha = 1.0f, beta = 0.5f;
  Launch fn;
  DevBuf<float> A, B, C, C0;
  SgemmInstance(int M_, int N_, int K_, Launch fn_)
      : M(M_), N(N_), K(K_), fn(std::move(fn_)), A(size_t(M_) * K_),
        B(size_t(K_) * N_), C(size_t(M_) * N_), C0(size_t(M_) * N_) {
    A.upload(random_floats(A.n, 11));
    B.upload(random_floats(B.n, 12));
    C0.upload(random_floats(C0.n, 13));
    C.copy_from(C0);
  }
  void launch() override { fn(M, N, K, alpha, A.p, B.p, beta, C.p); }
  void reset() override { C.copy_from(C0); }
  Verification verify() override {
    // fp32 with K = 4096: reordered sums differ by ~1e-6 of the largest entry.
    return verify_sgemm(M, N, K, alpha, A.p, B.p, beta, C0.p, C.p, 1e-4);
  }
};

// Row-major GEMM with bf16 A and B and fp32 C, checked against cuBLAS GemmEx
// (bf16 inputs, CUBLAS_COMPUTE_32F) plus a CPU spot check.
struct Bf16GemmInstance : Instance {
  using Launch = std::function<void(int, int, int, float, const __nv_bfloat16 *,
                                    const __nv_bfloat16 *, float, float *)>;
  int M, N, K;
  float alpha = 1.0f, beta = 0.5f;
  Launch fn;
  DevBuf<uint16_t> A, B;
  DevBuf<float> C, C0;
  Bf16GemmInstance(int M_, int N_, int K_, Launch fn_)
      : M(M_), N(N_), K(K_), fn(std::move(fn_)), A(size_t(M_) * K_),
        B(size_t(K_) * N_), C(size_t(M_) * N_), C0(size_t(M_) * N_) {
    A.upload(random_bf16_bits(A.n, 21));
    B.upload(random_bf16_bits(B.n, 22));
    C0.upload(random_floats(C0.n, 23));
    C.copy_from(C0);
  }
  void launch() override {
    fn(M, N, K, alpha, reinterpret_cast<const __nv_bfloat16 *>(A.p),
       reinterpret_cast<const __nv_bfloat16 *>(B.p), beta, C.p);
  }
  void reset() override { C.copy_from(C0); }
  Verification verify() override {
    // Same bf16 inputs on both sides, fp32 accumulation: only the summation
    // order (and the tensor cores' accumulation) differ.
    return verify_gemm_bf16(M, N, K, alpha, A.p, B.p, beta, C0.p, C.p, 1e-3);
  }
};

// Row-major M x N -> N x M transpose, checked exactly.
struct TransposeInstance : Instance {
  using Launch = std::function<void(const float *, float *, int, int)>;
  int M, N;
  Launch fn;
  std::vector<float> hin;
  DevBuf<float> in, out;
  TransposeInstance(int M_, int N_, Launch fn_)
      : M(M_), N(N_), fn(std::move(fn_)),
        hin(random_floats(size_t(M_) * N_, 31)), in(size_t(M_) * N_),
        out(size_t(M_) * N_) {
    in.upload(hin);
    out.upload(random_floats(out.n, 32));
  }
  void launch() override { fn(in.p, out.p, M, N); }
  Verification verify() override {
    std::vector<double> r(size_t(M) * N);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        r[size_t(j) * M + i] = hin[size_t(i) * N + j];
    return compare(out.download(), r, 0.0); // a copy: exact
  }
};
