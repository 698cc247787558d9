// Driver for kernels/reduction/sum.cu: one partial sum per 256-element block.
#include "kernels/reduction/sum.cu"
#include "util.h"

namespace {
struct Sum : Instance {
  int n, blocks;
  std::vector<float> hin;
  DevBuf<float> in, out;
  explicit Sum(int n_)
      : n(n_), blocks((n_ + kSumThreads - 1) / kSumThreads), hin(random_floats(n_, 12)), in(n_),
        out((n_ + kSumThreads - 1) / kSumThreads) {
    in.upload(hin);
    out.upload(random_floats(out.n, 13));
  }
  void launch() override { launch_reduce_sum(in.p, out.p, n); }
  Verification verify() override {
    std::vector<double> r(blocks, 0.0);
    for (int i = 0; i < n; ++i)
      r[i / kSumThreads] += hin[i];
    // 256 fp32 additions in a tree: ~1e-7 of the partial sums' magnitude.
    return compare(out.download(), r, 1e-5);
  }
};
constexpr int kN = 1 << 24;
REGISTER_CASE(make_case("sum", "kernels/reduction/sum.cu", "reduce_sum", {{"n", kN}}, "fp32", "cpu",
                        [] { return std::make_unique<Sum>(kN); }));
} // namespace
