// Driver for kernels/reduction/interleaved.cu: one partial sum per block of
// 256 elements, with the doubling-stride modulo guard.
#include "kernels/reduction/interleaved.cu"
#include "util.h"

namespace {
struct Interleaved : Instance {
  int n, blocks;
  std::vector<float> hin;
  DevBuf<float> in, out;
  explicit Interleaved(int n_)
      : n(n_), blocks((n_ + kInterleavedThreads - 1) / kInterleavedThreads),
        hin(random_floats(n_, 14)), in(n_), out(blocks) {
    in.upload(hin);
    out.upload(random_floats(out.n, 15));
  }
  void launch() override { launch_reduce_interleaved(in.p, out.p, n); }
  Verification verify() override {
    std::vector<double> r(blocks, 0.0);
    for (int i = 0; i < n; ++i)
      r[i / kInterleavedThreads] += hin[i];
    // 255 fp32 additions in a tree: ~1e-7 of the partial sums' magnitude.
    return compare(out.download(), r, 1e-5);
  }
};
constexpr int kN = 1 << 24;
REGISTER_CASE(make_case("reduce_interleaved",
                        "kernels/reduction/interleaved.cu",
                        "reduce_interleaved", {{"n", kN}}, "fp32", "cpu",
                        [] { return std::make_unique<Interleaved>(kN); }));
} // namespace
