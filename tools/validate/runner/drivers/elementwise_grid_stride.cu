// Driver for kernels/elementwise/grid_stride.cu: y = a * x + b with a
// grid-stride loop (1024 blocks of 256 threads). n is the test's EVEN size.
#include "kernels/elementwise/grid_stride.cu"
#include "util.h"

namespace {
constexpr int kN = 8388608;
constexpr float kA = 1.5f, kB = 0.25f;
REGISTER_CASE(make_case("grid_stride", "kernels/elementwise/grid_stride.cu", "affine_grid_stride", {{"n", kN}},
                        "fp32", "cpu", [] {
                          return std::make_unique<UnaryInstance>(
                              kN, 11, 1e-6,
                              [](const float *x, float *y, int n) { launch_affine_grid_stride(n, kA, kB, x, y); },
                              [](double v) { return static_cast<double>(kA) * v + kB; });
                        }));
} // namespace
