// Driver for kernels/elementwise/gelu.cu: tanh-approximated GELU.
#include "kernels/elementwise/gelu.cu"
#include "util.h"

namespace {
constexpr int kN = 1 << 24;
REGISTER_CASE(make_case("gelu", "kernels/elementwise/gelu.cu", "gelu_tanh", {{"n", kN}}, "fp32", "cpu", [] {
  return std::make_unique<UnaryInstance>(
      kN, 7, 1e-5, [](const float *x, float *y, int n) { launch_gelu(x, y, n); },
      [](double v) { return 0.5 * v * (1.0 + std::tanh(0.7978845608 * (v + 0.044715 * v * v * v))); });
}));
} // namespace
