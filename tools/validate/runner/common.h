// common.h: shared pieces of the validation runner (tools/validate/runner).
//
// Each driver (drivers/*.cu) #includes one bundled kernel file and registers
// one or more cases: how to set up inputs, how to call the kernel file's own
// host launcher, and how to verify the result. main.cu times, verifies and
// reports them. Nothing here fakes a measurement: every number the runner
// prints comes from the GPU it runs on.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

// ---- error checking: every CUDA / cuBLAS call goes through these
// -------------

void cuda_fail(cudaError_t e, const char *expr, const char *file, int line);
#define CK(expr)                                                               \
  do {                                                                         \
    cudaError_t ck_e_ = (expr);                                                \
    if (ck_e_ != cudaSuccess)                                                  \
      cuda_fail(ck_e_, #expr, __FILE__, __LINE__);                             \
  } while (0)

// After calling a kernel file's launcher: the launch itself must have
// succeeded.
#define CK_LAUNCH() CK(cudaGetLastError())

void cublas_fail(cublasStatus_t s, const char *expr, const char *file,
                 int line);
#define CKB(expr)                                                              \
  do {                                                                         \
    cublasStatus_t ckb_s_ = (expr);                                            \
    if (ckb_s_ != CUBLAS_STATUS_SUCCESS)                                       \
      cublas_fail(ckb_s_, #expr, __FILE__, __LINE__);                          \
  } while (0)

// The cuBLAS handle (created on first use, bound to cudaStreamPerThread).
cublasHandle_t cublas_handle();

[[noreturn]] void die(const char *file, int line, const std::string &msg);
#define DIE(msg) die(__FILE__, __LINE__, (msg))

// ---- device buffers
// ----------------------------------------------------------

template <typename T> struct DevBuf {
  T *p = nullptr;
  size_t n = 0;
  DevBuf() = default;
  explicit DevBuf(size_t count) : n(count) {
    CK(cudaMalloc(reinterpret_cast<void **>(&p), bytes()));
  }
  ~DevBuf() {
    if (p)
      cudaFree(p); // not checked: destructors run at exit too
  }
  DevBuf(const DevBuf &) = delete;
  DevBuf &operator=(const DevBuf &) = delete;
  size_t bytes() const { return n * sizeof(T); }
  void upload(const std::vector<T> &h) {
    if (h.size() != n)
      DIE("upload: size mismatch");
    CK(cudaMemcpy(p, h.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> h(n);
    CK(cudaMemcpy(h.data(), p, bytes(), cudaMemcpyDeviceToHost));
    return h;
  }
  void copy_from(const DevBuf &o) {
    if (o.n != n)
      DIE("copy_from: size mismatch");
    CK(cudaMemcpy(p, o.p, bytes(), cudaMemcpyDeviceToDevice));
  }
};

// ---- deterministic random inputs (host side: no kernel runs before the case)
// -

// n values with magnitude uniform in [0.25, 1) and a random sign (never zero).
std::vector<float> random_floats(size_t n, uint64_t seed);
// Same, but only positive: [lo, hi).
std::vector<float> random_floats_range(size_t n, uint64_t seed, float lo,
                                       float hi);
// bf16 values as raw 16-bit patterns (round to nearest even of random_floats).
std::vector<uint16_t> random_bf16_bits(size_t n, uint64_t seed);
uint16_t float_to_bf16_bits(float f);
// fp16 values as raw 16-bit patterns (round to nearest even of random_floats).
std::vector<uint16_t> random_fp16_bits(size_t n, uint64_t seed);
float fp16_bits_to_float(uint16_t b);
float bf16_bits_to_float(uint16_t b);

// ---- verification
// ------------------------------------------------------------

struct Verification {
  std::string reference = "cpu"; // "cpu" | "cublas"
  double max_abs_error = 0.0;
  double max_rel_error =
      0.0; // max_abs_error / max |reference| (see docs/validation-records.md)
  double tolerance = 0.0; // bound on max_rel_error
  bool passed = false;
  size_t checked = 0;   // elements compared
  size_t nonfinite = 0; // NaN/Inf outputs (each one fails the check)
  std::string note;
  std::string
      extra_json; // extra object members, already JSON ("\"k\":v,...") or empty
};

// Compare out against ref (double) over all elements.
Verification compare(const float *out, const double *ref, size_t n, double tol,
                     const char *reference = "cpu");
Verification compare(const std::vector<float> &out,
                     const std::vector<double> &ref, double tol,
                     const char *reference = "cpu");

// GEMM references on row-major matrices (A: M x K, B: K x N, C: M x N, fp32 C):
// C_ref = alpha * A * B + beta * C0 through cuBLAS (fp32 SGEMM without TF32,
// or bf16 inputs with fp32 compute), then compared with C_kernel; 64 entries
// are also recomputed on the CPU in double to check both results (this also
// guards the row-major-to-cuBLAS operand swap).
Verification verify_sgemm(int M, int N, int K, float alpha, const float *dA,
                          const float *dB, float beta, const float *dC0,
                          const float *dC, double tol);
Verification verify_gemm_bf16(int M, int N, int K, float alpha, const void *dA,
                              const void *dB, float beta, const float *dC0,
                              const float *dC, double tol);
// The same with fp16 A and B (cuBLAS GemmEx, CUDA_R_16F inputs, fp32 compute).
Verification verify_gemm_fp16(int M, int N, int K, float alpha, const void *dA,
                              const void *dB, float beta, const float *dC0,
                              const float *dC, double tol);

// ---- cases
// -------------------------------------------------------------------

// One prepared problem: inputs on the device, ready to launch.
struct Instance {
  virtual ~Instance() = default;
  // One call of the kernel file's host launcher (one or more kernel launches).
  virtual void launch() = 0;
  // Restore the operands the launch updates in place (saxpy's y, GEMM's C)
  // to their initial values, so that verify() sees one launch on fresh inputs.
  virtual void reset() {}
  // Check the output of the last launch (called after reset() + launch()).
  virtual Verification verify() = 0;
};

struct CaseInfo {
  std::string id;   // stable id, used for the record file name
  std::string file; // repo-relative kernel file
  std::string name; // kernel name as cuda-roofline's JSON reports it
  std::vector<std::pair<std::string, long long>>
      params; // --param values, in order
  std::vector<std::string>
      analyzer_extra;    // extra analyzer args (e.g. --kernel=X)
  int launches = 1;      // kernel launches per launcher call
  std::string precision; // "fp32" | "bf16"
  std::string reference; // "cpu" | "cublas"
  std::function<std::unique_ptr<Instance>()> make;
  std::string size_tag() const; // e.g. M4096_N4096_K4096, n16777216
};

std::vector<CaseInfo> &case_registry();
struct RegisterCase {
  explicit RegisterCase(CaseInfo c) { case_registry().push_back(std::move(c)); }
};

// ---- small JSON helpers
// ------------------------------------------------------

std::string json_str(const std::string &s);
std::string json_num(double v); // null when not finite
std::string verification_json(const Verification &v);
