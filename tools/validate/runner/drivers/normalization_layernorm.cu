// Driver for kernels/normalization/layernorm.cu: row-wise layer norm of an
// M x N matrix (the test's EVEN size).
#include "kernels/normalization/layernorm.cu"
#include "util.h"

namespace {
struct LayerNorm : Instance {
  int M, N;
  float eps = 1e-5f;
  std::vector<float> hx, hg, hb;
  DevBuf<float> x, g, b, y;
  LayerNorm(int M_, int N_)
      : M(M_), N(N_), hx(random_floats(size_t(M_) * N_, 14)), hg(random_floats_range(N_, 15, 0.5f, 1.5f)),
        hb(random_floats(N_, 16)), x(size_t(M_) * N_), g(N_), b(N_), y(size_t(M_) * N_) {
    x.upload(hx);
    g.upload(hg);
    b.upload(hb);
    y.upload(random_floats(y.n, 17));
  }
  void launch() override { launch_layernorm(x.p, g.p, b.p, y.p, M, N, eps); }
  Verification verify() override {
    std::vector<double> r(size_t(M) * N);
    for (int i = 0; i < M; ++i) {
      const float *xr = &hx[size_t(i) * N];
      double mean = 0.0, var = 0.0;
      for (int j = 0; j < N; ++j)
        mean += xr[j];
      mean /= N;
      for (int j = 0; j < N; ++j)
        var += (xr[j] - mean) * (xr[j] - mean);
      var /= N;
      double rstd = 1.0 / std::sqrt(var + eps);
      for (int j = 0; j < N; ++j)
        r[size_t(i) * N + j] = (xr[j] - mean) * rstd * hg[j] + hb[j];
    }
    return compare(y.download(), r, 1e-4);
  }
};
constexpr int kM = 8192, kN = 1024;
REGISTER_CASE(make_case("layernorm", "kernels/normalization/layernorm.cu", "layernorm_rows",
                        {{"M", kM}, {"N", kN}}, "fp32", "cpu",
                        [] { return std::make_unique<LayerNorm>(kM, kN); }));
} // namespace
