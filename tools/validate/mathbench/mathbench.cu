// Measures what the hardware executes for one division, square root or
// library-math call: each kernel applies one operation to every element, one
// element per thread, so the profiler's executed-instruction counts divided by
// the number of threads are the operation's per-call cost (minus the copy
// kernel's, which holds the loads, stores and indexing alone).
//
// Built twice by tools/validate/mathbench.py: with nvcc's defaults (IEEE
// division and square root) and with -use_fast_math. Run under ncu, every
// kernel is launched once with N threads; without ncu, --check verifies the
// results against the host's math so a broken build is not measured.
//
//   mathbench --list            the kernels, one per line
//   mathbench [--n N]           launch every kernel once (what ncu profiles)
//   mathbench --check           launch and compare with the host, exit 1 on a miss
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "mathbench: %s:%d: %s: %s\n", __FILE__, __LINE__,   \
                   #x, cudaGetErrorString(e_));                                \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

// One kernel per operation. A and B are inputs, O the output; the operands are
// drawn so every call stays on the common path (no denormals, no huge
// arguments for the trigonometric reductions, no division by zero).
#define UNARY(T, NAME, EXPR, HOST)                                             \
  __global__ void k_##NAME(const T *A, const T *B, T *O, int n) {              \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                             \
    if (i < n) {                                                               \
      T a = A[i], b = B[i];                                                    \
      (void)b;                                                                 \
      O[i] = (EXPR);                                                           \
    }                                                                          \
  }                                                                            \
  static double host_##NAME(double a, double b) {                              \
    (void)a;                                                                   \
    (void)b;                                                                   \
    return (HOST);                                                             \
  }
#define UNARY_F(NAME, EXPR, HOST) UNARY(float, NAME, EXPR, HOST)
#define UNARY_D(NAME, EXPR, HOST) UNARY(double, NAME, EXPR, HOST)

// fp32: the baseline, the plain arithmetic whose counts are known, then the
// expanded operations.
UNARY_F(f32_copy, a, a)
UNARY_F(f32_add, a + b, a + b)
UNARY_F(f32_mul, a * b, a * b)
UNARY_F(f32_fma, fmaf(a, b, a), a * b + a)
UNARY_F(f32_div, a / b, a / b)
UNARY_F(f32_rcp, 1.0f / a, 1.0 / a)
UNARY_F(f32_fdividef, __fdividef(a, b), a / b)
UNARY_F(f32_sqrt, sqrtf(a), std::sqrt(a))
UNARY_F(f32_rsqrt, rsqrtf(a), 1.0 / std::sqrt(a))
UNARY_F(f32_one_over_sqrt, 1.0f / sqrtf(a), 1.0 / std::sqrt(a))
UNARY_F(f32_exp, expf(a), std::exp(a))
UNARY_F(f32_exp2, exp2f(a), std::exp2(a))
UNARY_F(f32_fast_exp, __expf(a), std::exp(a))
UNARY_F(f32_log, logf(a), std::log(a))
UNARY_F(f32_log2, log2f(a), std::log2(a))
UNARY_F(f32_sin, sinf(a), std::sin(a))
UNARY_F(f32_cos, cosf(a), std::cos(a))
UNARY_F(f32_fast_sin, __sinf(a), std::sin(a))
UNARY_F(f32_tan, tanf(a), std::tan(a))
UNARY_F(f32_sincos, ([&] { float s, c; sincosf(a, &s, &c); return s + c; }()),
        std::sin(a) + std::cos(a))
UNARY_F(f32_atan2, atan2f(a, b), std::atan2(a, b))
UNARY_F(f32_pow, powf(a, b), std::pow(a, b))
UNARY_F(f32_tanh, tanhf(a), std::tanh(a))
UNARY_F(f32_erf, erff(a), std::erf(a))
UNARY_F(f32_sigmoid, 1.0f / (1.0f + expf(-a)), 1.0 / (1.0 + std::exp(-a)))
// fp64.
UNARY_D(f64_copy, a, a)
UNARY_D(f64_fma, fma(a, b, a), a * b + a)
UNARY_D(f64_div, a / b, a / b)
UNARY_D(f64_rcp, 1.0 / a, 1.0 / a)
UNARY_D(f64_sqrt, sqrt(a), std::sqrt(a))
UNARY_D(f64_rsqrt, rsqrt(a), 1.0 / std::sqrt(a))
UNARY_D(f64_exp, exp(a), std::exp(a))
UNARY_D(f64_log, log(a), std::log(a))
UNARY_D(f64_sin, sin(a), std::sin(a))
UNARY_D(f64_pow, pow(a, b), std::pow(a, b))

// Idioms whose executed counts differ from the IR's (issue 19): a multiply
// with two users that the backend contracts into two FMAs, float atomics on
// shared memory (one address: every lane of the block contends; one address
// per lane: none do), and a float4 load with three lanes used.
UNARY_F(f32_contract_multiuse,
        ([&] { float t = 2.0f * a; float x = t + b, y = t + a; return x * y; }()),
        (2 * a + b) * (3 * a))
__global__ void k_f32_shared_atomic_one(const float *A, const float *B, float *O,
                                        int n) {
  __shared__ float S;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    S = 0.0f;
  __syncthreads();
  if (i < n)
    atomicAdd(&S, A[i]);
  __syncthreads();
  if (i < n)
    O[i] = S;
}
__global__ void k_f32_shared_atomic_lane(const float *A, const float *B,
                                         float *O, int n) {
  __shared__ float S[1024];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  S[threadIdx.x] = 1.0f;
  __syncthreads();
  if (i < n)
    atomicAdd(&S[threadIdx.x], A[i]);
  __syncthreads();
  if (i < n)
    O[i] = S[threadIdx.x];
}
__global__ void k_f32_float4_three_lanes(const float *A, const float *B,
                                         float *O, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 4) {
    const float4 P = reinterpret_cast<const float4 *>(A)[i];
    O[i] = P.x + P.y + P.z;
  }
}
static double host_none(double, double) { return 0; }

struct Kernel {
  const char *Name;
  bool Double;
  void *F;
  double (*Host)(double, double);
  double Tolerance; // relative, against the host in double
};

#define KF(NAME, TOL) {#NAME, false, (void *)k_##NAME, host_##NAME, TOL}
#define KD(NAME, TOL) {#NAME, true, (void *)k_##NAME, host_##NAME, TOL}
// The fast-math build approximates: its tolerances are those of the CUDA
// programming guide's intrinsic error bounds, loosely (2^-21 relative for
// __fdividef and __expf in these ranges, 2^-21.41 absolute for __sinf).
static const Kernel Kernels[] = {
    KF(f32_copy, 0),       KF(f32_add, 1e-6),          KF(f32_mul, 1e-6),
    KF(f32_fma, 1e-6),     KF(f32_div, 1e-5),          KF(f32_rcp, 1e-5),
    KF(f32_fdividef, 1e-5), KF(f32_sqrt, 1e-5),        KF(f32_rsqrt, 1e-5),
    KF(f32_one_over_sqrt, 1e-5), KF(f32_exp, 1e-5),    KF(f32_exp2, 1e-5),
    KF(f32_fast_exp, 1e-5), KF(f32_log, 1e-5),         KF(f32_log2, 1e-5),
    KF(f32_sin, 1e-5),     KF(f32_cos, 1e-4),          KF(f32_fast_sin, 1e-5),
    KF(f32_tan, 1e-4),     KF(f32_sincos, 1e-5),       KF(f32_atan2, 1e-5),
    KF(f32_pow, 1e-4),     KF(f32_tanh, 1e-5),         KF(f32_erf, 1e-5),
    KF(f32_sigmoid, 1e-5), KD(f64_copy, 0),            KD(f64_fma, 1e-14),
    KD(f64_div, 1e-14),    KD(f64_rcp, 1e-14),         KD(f64_sqrt, 1e-14),
    KD(f64_rsqrt, 1e-14),  KD(f64_exp, 1e-14),         KD(f64_log, 1e-14),
    KD(f64_sin, 1e-14),    KD(f64_pow, 1e-13),
    KF(f32_contract_multiuse, 1e-5),
    // Checked by their counts alone (tolerance < 0: no host reference).
    {"f32_shared_atomic_one", false, (void *)k_f32_shared_atomic_one, host_none, -1},
    {"f32_shared_atomic_lane", false, (void *)k_f32_shared_atomic_lane, host_none, -1},
    {"f32_float4_three_lanes", false, (void *)k_f32_float4_three_lanes, host_none, -1},
};

// Operands: a in [1, 2), b in [0.5, 4): normal numbers, arguments below the
// trigonometric functions' large-argument reduction.
static double operandA(int I) { return 1.0 + (I * 2654435761u % 1000003u) / 1000003.0; }
static double operandB(int I) { return 0.5 + 3.5 * ((I * 40503u + 7u) % 999983u) / 999983.0; }

template <typename T>
static bool runOne(const Kernel &K, int N, bool Check) {
  std::vector<T> HA(N), HB(N), HO(N);
  for (int I = 0; I < N; ++I) {
    HA[I] = static_cast<T>(operandA(I));
    HB[I] = static_cast<T>(operandB(I));
  }
  T *A, *B, *O;
  CHECK(cudaMalloc(&A, N * sizeof(T)));
  CHECK(cudaMalloc(&B, N * sizeof(T)));
  CHECK(cudaMalloc(&O, N * sizeof(T)));
  CHECK(cudaMemcpy(A, HA.data(), N * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, HB.data(), N * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(O, 0xff, N * sizeof(T)));
  int Block = 256, Grid = (N + Block - 1) / Block;
  void *Args[] = {&A, &B, &O, &N};
  CHECK(cudaLaunchKernel(K.F, Grid, Block, Args, 0, nullptr));
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  bool Ok = true;
  if (Check && K.Tolerance < 0) {
    std::printf("%-20s n/a   no host reference (counts only)\n", K.Name);
  } else if (Check) {
    CHECK(cudaMemcpy(HO.data(), O, N * sizeof(T), cudaMemcpyDeviceToHost));
    double Worst = 0;
    for (int I = 0; I < N; ++I) {
      double Want = K.Host(HA[I], HB[I]);
      double Err = std::fabs(HO[I] - Want) / std::fmax(std::fabs(Want), 1e-30);
      if (!(Err <= Worst))
        Worst = std::isnan(Err) ? INFINITY : std::fmax(Worst, Err);
    }
    Ok = Worst <= K.Tolerance;
    std::printf("%-20s %s  worst relative error %.3g (tolerance %.3g)\n", K.Name,
                Ok ? "ok  " : "FAIL", Worst, K.Tolerance);
  }
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(O));
  return Ok;
}

int main(int Argc, char **Argv) {
  int N = 1 << 20;
  bool Check = false, List = false;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--check"))
      Check = true;
    else if (!std::strcmp(Argv[I], "--list"))
      List = true;
    else if (!std::strcmp(Argv[I], "--n") && I + 1 < Argc)
      N = std::atoi(Argv[++I]);
    else {
      std::fprintf(stderr, "usage: mathbench [--list] [--check] [--n N]\n");
      return 2;
    }
  }
  if (List) {
    for (const Kernel &K : Kernels)
      std::printf("%s\n", K.Name);
    return 0;
  }
  if (N <= 0) {
    std::fprintf(stderr, "mathbench: --n must be positive\n");
    return 2;
  }
  bool Ok = true;
  for (const Kernel &K : Kernels)
    Ok &= K.Double ? runOne<double>(K, N, Check) : runOne<float>(K, N, Check);
  return Ok ? 0 : 1;
}
