// Driver for kernels/reduction/interleaved.cu: one partial sum per block of
// 256 elements, with the doubling-stride modulo guard.
#include "kernels/reduction/interleaved.cu"
#include "util.h"

namespace {
constexpr int kN = 1 << 24;
REGISTER_CASE(make_case("reduce_interleaved", "kernels/reduction/interleaved.cu", "reduce_interleaved", {{"n", kN}},
                        "fp32", "cpu", [] {
                          return std::make_unique<BlockSumInstance>(kN, kInterleavedThreads, 14,
                                                                    launch_reduce_interleaved);
                        }));
} // namespace
