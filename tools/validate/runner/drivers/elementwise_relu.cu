// Driver for kernels/elementwise/relu.cu: y = max(x, 0).
#include "kernels/elementwise/relu.cu"
#include "util.h"

namespace {
constexpr int kN = 1 << 24;
REGISTER_CASE(make_case("relu", "kernels/elementwise/relu.cu", "relu", {{"n", kN}}, "fp32", "cpu", [] {
  return std::make_unique<UnaryInstance>(
      kN, 6, 0.0, [](const float *x, float *y, int n) { launch_relu(x, y, n); },
      [](double v) { return v > 0.0 ? v : 0.0; });
}));
} // namespace
