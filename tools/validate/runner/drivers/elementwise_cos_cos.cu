// Driver for kernels/elementwise/cos_cos.cu: y = cos(cos(x)), unfused (two
// launches of cos_kernel through a temporary) and fused (one launch).
#include "kernels/elementwise/cos_cos.cu"
#include "util.h"

namespace {
constexpr int kN = 1 << 24;
double cos_cos(double v) { return std::cos(std::cos(v)); }

struct CosCosUnfused : UnaryInstance {
  DevBuf<float> tmp;
  explicit CosCosUnfused(int n_)
      : UnaryInstance(
            n_, 8, 1e-5, [this](const float *x, float *y, int n) { launch_cos_cos_unfused(x, tmp.p, y, n); },
            cos_cos),
        tmp(n_) {
    tmp.upload(random_floats(n_, 9));
  }
};

REGISTER_CASE(make_case("cos_cos_unfused", "kernels/elementwise/cos_cos.cu", "cos_kernel", {{"n", kN}},
                        "fp32", "cpu", [] { return std::make_unique<CosCosUnfused>(kN); },
                        /*launches=*/2, {"--kernel=cos_kernel"}));
REGISTER_CASE(make_case("cos_cos_fused", "kernels/elementwise/cos_cos.cu", "cos_cos_fused", {{"n", kN}},
                        "fp32", "cpu", [] {
                          return std::make_unique<UnaryInstance>(
                              kN, 8, 1e-5,
                              [](const float *x, float *y, int n) { launch_cos_cos_fused(x, y, n); },
                              cos_cos);
                        },
                        1, {"--kernel=cos_cos_fused"}));
} // namespace
