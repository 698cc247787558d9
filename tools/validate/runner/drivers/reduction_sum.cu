// Driver for kernels/reduction/sum.cu: one partial sum per 256-element block.
#include "kernels/reduction/sum.cu"
#include "util.h"

namespace {
constexpr int kN = 1 << 24;
REGISTER_CASE(make_case("sum", "kernels/reduction/sum.cu", "reduce_sum", {{"n", kN}}, "fp32", "cpu", [] {
  return std::make_unique<BlockSumInstance>(kN, kSumThreads, 12, launch_reduce_sum);
}));
} // namespace
