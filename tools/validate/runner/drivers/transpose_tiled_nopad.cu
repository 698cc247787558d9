// Driver for kernels/transpose/tiled_nopad.cu: out = transpose(in), M x N row-major
// (the size of the transpose tests' EVEN runs).
#include "kernels/transpose/tiled_nopad.cu"
#include "util.h"

namespace {
constexpr int kM = 2048, kN = 4096;
REGISTER_CASE(make_case("transpose_tiled_nopad", "kernels/transpose/tiled_nopad.cu", "transpose_tiled_nopad", {{"M", kM}, {"N", kN}}, "fp32", "cpu", [] {
  return std::make_unique<TransposeInstance>(
      kM, kN, [](const float *in, float *out, int M, int N) { launch_transpose_tiled_nopad(in, out, M, N); });
}));
} // namespace
