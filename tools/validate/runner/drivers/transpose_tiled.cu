// Driver for kernels/transpose/tiled.cu: out = transpose(in), M x N row-major
// (the size of the transpose tests' EVEN runs).
#include "kernels/transpose/tiled.cu"
#include "util.h"

namespace {
constexpr int kM = 2048, kN = 4096;
REGISTER_CASE(make_case("transpose_tiled", "kernels/transpose/tiled.cu", "transpose_tiled", {{"M", kM}, {"N", kN}}, "fp32", "cpu", [] {
  return std::make_unique<TransposeInstance>(
      kM, kN, [](const float *in, float *out, int M, int N) { launch_transpose_tiled(in, out, M, N); });
}));
} // namespace
