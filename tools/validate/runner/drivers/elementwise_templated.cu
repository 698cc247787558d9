// Driver for kernels/elementwise/templated.cu: y = alpha * x through
// scale_items<float, 4>.
#include "kernels/elementwise/templated.cu"
#include "util.h"

namespace {
constexpr int kN = 1 << 24;
constexpr float kAlpha = 1.5f;
REGISTER_CASE(make_case("templated", "kernels/elementwise/templated.cu", "scale_items<float, 4>", {{"n", kN}},
                        "fp32", "cpu", [] {
                          return std::make_unique<UnaryInstance>(
                              kN, 10, 1e-6,
                              [](const float *x, float *y, int n) { launch_scale_items(x, y, kAlpha, n); },
                              [](double v) { return static_cast<double>(kAlpha) * v; });
                        }));
} // namespace
