// Driver for kernels/normalization/softmax.cu: row-wise softmax of an M x N
// matrix (the test's EVEN size). Inputs span [-4, 4].
#include "kernels/normalization/softmax.cu"
#include "util.h"

namespace {
struct Softmax : Instance {
  int M, N;
  std::vector<float> hx;
  DevBuf<float> x, y;
  Softmax(int M_, int N_)
      : M(M_), N(N_), hx(random_floats_range(size_t(M_) * N_, 18, -4.0f, 4.0f)), x(size_t(M_) * N_),
        y(size_t(M_) * N_) {
    x.upload(hx);
    y.upload(random_floats(y.n, 19));
  }
  void launch() override { launch_softmax(x.p, y.p, M, N); }
  Verification verify() override {
    std::vector<double> r(size_t(M) * N);
    for (int i = 0; i < M; ++i) {
      const float *xr = &hx[size_t(i) * N];
      double m = -INFINITY, s = 0.0;
      for (int j = 0; j < N; ++j)
        m = std::max(m, static_cast<double>(xr[j]));
      for (int j = 0; j < N; ++j)
        s += std::exp(xr[j] - m);
      for (int j = 0; j < N; ++j)
        r[size_t(i) * N + j] = std::exp(xr[j] - m) / s;
    }
    return compare(y.download(), r, 1e-4);
  }
};
constexpr int kM = 4096, kN = 2048;
REGISTER_CASE(make_case("softmax", "kernels/normalization/softmax.cu", "softmax_rows", {{"M", kM}, {"N", kN}},
                        "fp32", "cpu", [] { return std::make_unique<Softmax>(kM, kN); }));
} // namespace
