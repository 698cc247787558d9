// common.cu: error handling, random inputs, verification and the case registry
// of the validation runner (see common.h).
#include "common.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstring>

void cuda_fail(cudaError_t e, const char *expr, const char *file, int line) {
  std::fprintf(stderr, "%s:%d: CUDA error %s (%s) in %s\n", file, line, cudaGetErrorName(e),
               cudaGetErrorString(e), expr);
  std::exit(3);
}

void cublas_fail(cublasStatus_t s, const char *expr, const char *file, int line) {
  std::fprintf(stderr, "%s:%d: cuBLAS error %d (%s) in %s\n", file, line, static_cast<int>(s),
               cublasGetStatusString(s), expr);
  std::exit(3);
}

void die(const char *file, int line, const std::string &msg) {
  std::fprintf(stderr, "%s:%d: %s\n", file, line, msg.c_str());
  std::exit(3);
}

cublasHandle_t cublas_handle() {
  static cublasHandle_t h = nullptr;
  if (!h) {
    CKB(cublasCreate(&h));
    CKB(cublasSetStream(h, cudaStreamPerThread));
    // Plain fp32 SGEMM (no TF32 tensor-core shortcut) unless a call asks otherwise.
    CKB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  }
  return h;
}

// ---- random inputs -----------------------------------------------------------

namespace {
struct SplitMix64 {
  uint64_t s;
  explicit SplitMix64(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 24 random bits.
  float unit() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
};
} // namespace

std::vector<float> random_floats(size_t n, uint64_t seed) {
  SplitMix64 r(seed);
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t bits = r.next();
    float mag = 0.25f + 0.75f * (static_cast<float>(bits >> 40) * (1.0f / 16777216.0f));
    v[i] = (bits & 1) ? -mag : mag;
  }
  return v;
}

std::vector<float> random_floats_range(size_t n, uint64_t seed, float lo, float hi) {
  SplitMix64 r(seed);
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = lo + (hi - lo) * r.unit();
  return v;
}

uint16_t float_to_bf16_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7FFFu + ((u >> 16) & 1u); // round to nearest even (inputs are finite)
  return static_cast<uint16_t>(u >> 16);
}

float bf16_bits_to_float(uint16_t b) {
  uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

std::vector<uint16_t> random_bf16_bits(size_t n, uint64_t seed) {
  std::vector<float> f = random_floats(n, seed);
  std::vector<uint16_t> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = float_to_bf16_bits(f[i]);
  return v;
}

std::vector<uint16_t> random_fp16_bits(size_t n, uint64_t seed) {
  std::vector<float> f = random_floats(n, seed);
  std::vector<uint16_t> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = __half_as_ushort(__float2half_rn(f[i]));
  return v;
}

float fp16_bits_to_float(uint16_t b) { return __half2float(__ushort_as_half(b)); }

// ---- verification ------------------------------------------------------------

Verification compare(const float *out, const double *ref, size_t n, double tol,
                     const char *reference) {
  Verification v;
  v.reference = reference;
  v.tolerance = tol;
  v.checked = n;
  double scale = 0.0;
  for (size_t i = 0; i < n; ++i) {
    scale = std::max(scale, std::fabs(ref[i]));
    if (!std::isfinite(out[i])) {
      ++v.nonfinite;
      continue;
    }
    v.max_abs_error = std::max(v.max_abs_error, std::fabs(static_cast<double>(out[i]) - ref[i]));
  }
  v.max_rel_error = v.max_abs_error / (scale > 0.0 ? scale : 1.0);
  v.passed = v.nonfinite == 0 && v.max_rel_error <= tol;
  return v;
}

Verification compare(const std::vector<float> &out, const std::vector<double> &ref, double tol,
                     const char *reference) {
  if (out.size() != ref.size())
    DIE("compare: size mismatch");
  return compare(out.data(), ref.data(), out.size(), tol, reference);
}

namespace {

// Spot check of a row-major GEMM on the CPU, in double, at 64 fixed points.
// Returns {max |kernel - cpu|, max |cublas - cpu|, max |cpu|}.
struct Spot {
  double kernel_abs = 0.0, cublas_abs = 0.0, scale = 0.0;
  int points = 0;
};

template <typename GetA, typename GetB>
Spot spot_check(int M, int N, int K, float alpha, GetA getA, GetB getB, float beta,
                const std::vector<float> &C0, const std::vector<float> &Ck,
                const std::vector<float> &Cr) {
  Spot s;
  SplitMix64 r(12345);
  for (int p = 0; p < 64; ++p) {
    int i = static_cast<int>(r.next() % static_cast<uint64_t>(M));
    int j = static_cast<int>(r.next() % static_cast<uint64_t>(N));
    if (p == 0) { i = 0; j = 0; }
    if (p == 1) { i = M - 1; j = N - 1; }
    double acc = 0.0;
    for (int k = 0; k < K; ++k)
      acc += static_cast<double>(getA(static_cast<size_t>(i) * K + k)) *
             static_cast<double>(getB(static_cast<size_t>(k) * N + j));
    size_t idx = static_cast<size_t>(i) * N + j;
    double ref = alpha * acc + beta * static_cast<double>(C0[idx]);
    s.scale = std::max(s.scale, std::fabs(ref));
    s.kernel_abs = std::max(s.kernel_abs, std::isfinite(Ck[idx]) ? std::fabs(Ck[idx] - ref) : INFINITY);
    s.cublas_abs = std::max(s.cublas_abs, std::isfinite(Cr[idx]) ? std::fabs(Cr[idx] - ref) : INFINITY);
    ++s.points;
  }
  return s;
}

Verification finish_gemm(const std::vector<float> &Ck, const std::vector<float> &Cr, const Spot &s,
                         double tol) {
  std::vector<double> ref(Cr.begin(), Cr.end());
  Verification v = compare(Ck, ref, tol, "cublas");
  double scale = s.scale > 0.0 ? s.scale : 1.0;
  double krel = s.kernel_abs / scale, crel = s.cublas_abs / scale;
  bool kok = krel <= tol, cok = crel <= tol;
  v.extra_json = "\"spot_check\":{\"points\":" + std::to_string(s.points) +
                 ",\"kernel_max_rel_error\":" + json_num(krel) +
                 ",\"cublas_max_rel_error\":" + json_num(crel) + ",\"reference\":\"cpu-double\"}";
  if (!cok) {
    // The cuBLAS reference disagrees with the CPU: do not blame the kernel for it.
    v.reference = "cpu";
    v.note = "cuBLAS reference failed its CPU spot check; passed reflects the CPU spot check only";
    v.passed = kok && v.nonfinite == 0;
  } else {
    v.passed = v.passed && kok;
  }
  return v;
}

} // namespace

Verification verify_sgemm(int M, int N, int K, float alpha, const float *dA, const float *dB,
                          float beta, const float *dC0, const float *dC, double tol) {
  size_t mn = static_cast<size_t>(M) * N;
  DevBuf<float> ref(mn);
  CK(cudaMemcpy(ref.p, dC0, mn * sizeof(float), cudaMemcpyDeviceToDevice));
  // Row-major C = A B is column-major C^T = B^T A^T: swap the operands.
  CKB(cublasSgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, dB, N, dA, K, &beta,
                  ref.p, N));
  CK(cudaDeviceSynchronize());
  std::vector<float> Cr = ref.download();
  std::vector<float> Ck(mn), C0(mn), A(static_cast<size_t>(M) * K), B(static_cast<size_t>(K) * N);
  CK(cudaMemcpy(Ck.data(), dC, mn * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(C0.data(), dC0, mn * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(A.data(), dA, A.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(B.data(), dB, B.size() * sizeof(float), cudaMemcpyDeviceToHost));
  Spot s = spot_check(
      M, N, K, alpha, [&](size_t i) { return A[i]; }, [&](size_t i) { return B[i]; }, beta, C0, Ck,
      Cr);
  return finish_gemm(Ck, Cr, s, tol);
}

// A 16-bit-input GEMM (bf16 or fp16 bits) against cuBLAS with fp32
// accumulation, spot-checked in double on the host.
static Verification verify_gemm_16bit(int M, int N, int K, float alpha, const void *dA,
                                      const void *dB, float beta, const float *dC0,
                                      const float *dC, double tol, cudaDataType_t Type,
                                      float (*ToFloat)(uint16_t)) {
  size_t mn = static_cast<size_t>(M) * N;
  DevBuf<float> ref(mn);
  CK(cudaMemcpy(ref.p, dC0, mn * sizeof(float), cudaMemcpyDeviceToDevice));
  CKB(cublasGemmEx(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, dB, Type, N, dA,
                   Type, K, &beta, ref.p, CUDA_R_32F, N, CUBLAS_COMPUTE_32F,
                   CUBLAS_GEMM_DEFAULT));
  CK(cudaDeviceSynchronize());
  std::vector<float> Cr = ref.download();
  std::vector<float> Ck(mn), C0(mn);
  std::vector<uint16_t> A(static_cast<size_t>(M) * K), B(static_cast<size_t>(K) * N);
  CK(cudaMemcpy(Ck.data(), dC, mn * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(C0.data(), dC0, mn * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(A.data(), dA, A.size() * sizeof(uint16_t), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(B.data(), dB, B.size() * sizeof(uint16_t), cudaMemcpyDeviceToHost));
  Spot s = spot_check(
      M, N, K, alpha, [&](size_t i) { return ToFloat(A[i]); },
      [&](size_t i) { return ToFloat(B[i]); }, beta, C0, Ck, Cr);
  return finish_gemm(Ck, Cr, s, tol);
}

Verification verify_gemm_bf16(int M, int N, int K, float alpha, const void *dA, const void *dB,
                              float beta, const float *dC0, const float *dC, double tol) {
  return verify_gemm_16bit(M, N, K, alpha, dA, dB, beta, dC0, dC, tol, CUDA_R_16BF,
                           bf16_bits_to_float);
}

Verification verify_gemm_fp16(int M, int N, int K, float alpha, const void *dA, const void *dB,
                              float beta, const float *dC0, const float *dC, double tol) {
  return verify_gemm_16bit(M, N, K, alpha, dA, dB, beta, dC0, dC, tol, CUDA_R_16F,
                           fp16_bits_to_float);
}

// ---- registry ----------------------------------------------------------------

std::vector<CaseInfo> &case_registry() {
  static std::vector<CaseInfo> r;
  return r;
}

std::string CaseInfo::size_tag() const {
  std::string t;
  for (const auto &p : params) {
    if (!t.empty())
      t += "_";
    t += p.first + std::to_string(p.second);
  }
  return t;
}

// ---- JSON --------------------------------------------------------------------

std::string json_str(const std::string &s) {
  std::string o = "\"";
  for (char c : s) {
    switch (c) {
    case '"': o += "\\\""; break;
    case '\\': o += "\\\\"; break;
    case '\n': o += "\\n"; break;
    case '\t': o += "\\t"; break;
    case '\r': o += "\\r"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char b[8];
        std::snprintf(b, sizeof b, "\\u%04x", c);
        o += b;
      } else {
        o += c;
      }
    }
  }
  return o + "\"";
}

std::string json_num(double v) {
  if (!std::isfinite(v))
    return "null";
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

std::string verification_json(const Verification &v) {
  std::string o = "{\"reference\":" + json_str(v.reference) +
                  ",\"max_abs_error\":" + json_num(v.max_abs_error) +
                  ",\"max_rel_error\":" + json_num(v.max_rel_error) +
                  ",\"tolerance\":" + json_num(v.tolerance) +
                  ",\"passed\":" + (v.passed ? "true" : "false") +
                  ",\"elements_checked\":" + std::to_string(v.checked) +
                  ",\"nonfinite_outputs\":" + std::to_string(v.nonfinite);
  if (!v.note.empty())
    o += ",\"note\":" + json_str(v.note);
  if (!v.extra_json.empty())
    o += "," + v.extra_json;
  return o + "}";
}
