// Driver for kernels/copy/tma_bulk_copy.cu: out = in over N = 2^24 floats
// (4096 blocks of one 16 KiB tile), checked exactly. Needs sm_90a: run.py
// compiles this driver for sm_90a on a Hopper GPU and leaves it out elsewhere.
#include "kernels/copy/tma_bulk_copy.cu"
#include "util.h"

namespace {
struct BulkCopy : Instance {
  int n;
  std::vector<float> hin;
  DevBuf<float> in, out;
  explicit BulkCopy(int n_) : n(n_), hin(random_floats(n_, 61)), in(n_), out(n_) {
    in.upload(hin);
    out.upload(random_floats(n_, 62)); // not the answer
  }
  void launch() override {
    if (!launch_tma_bulk_copy(in.p, out.p, n))
      DIE("launch_tma_bulk_copy refused the size");
  }
  Verification verify() override {
    std::vector<double> r(hin.begin(), hin.end());
    return compare(out.download(), r, 0.0); // a copy: exact
  }
};
constexpr int kN = 1 << 24;
REGISTER_CASE(make_case("tma_bulk_copy", "kernels/copy/tma_bulk_copy.cu", "tma_bulk_copy", {{"N", kN}}, "fp32", "cpu",
                        [] { return std::make_unique<BulkCopy>(kN); }));
} // namespace
