// Driver for kernels/elementwise/saxpy.cu: y = a * x + y, in place.
#include "kernels/elementwise/saxpy.cu"
#include "util.h"

namespace {
struct Saxpy : Instance {
  int n;
  float a = 1.5f;
  std::vector<float> hx, hy0;
  DevBuf<float> x, y, y0;
  explicit Saxpy(int n_)
      : n(n_), hx(random_floats(n_, 4)), hy0(random_floats(n_, 5)), x(n_), y(n_), y0(n_) {
    x.upload(hx);
    y0.upload(hy0);
    y.copy_from(y0);
  }
  void launch() override { launch_saxpy(n, a, x.p, y.p); }
  void reset() override { y.copy_from(y0); }
  Verification verify() override {
    std::vector<double> r(n);
    for (int i = 0; i < n; ++i)
      r[i] = static_cast<double>(a) * hx[i] + hy0[i];
    return compare(y.download(), r, 1e-6);
  }
};
constexpr int kN = 1 << 24;
REGISTER_CASE(make_case("saxpy", "kernels/elementwise/saxpy.cu", "saxpy", {{"n", kN}}, "fp32", "cpu",
                        [] { return std::make_unique<Saxpy>(kN); }));
} // namespace
