//===- LowerBoundTest.cpp - The speed of light from the known work --------===//
//
// Part of cuda-roofline.
//
// With unknown counts the speed of light is max(known FLOPs at their peaks,
// known compulsory bytes / bandwidth), marked as a lower bound; numbers on
// the built-in H100 SXM (67 TFLOP/s fp32, 989.4 TFLOP/s bf16 tensor,
// 3350 GB/s).
//
//===----------------------------------------------------------------------===//

#include "Metrics.h"

#include "Counters.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

const GpuSpec &h100() {
  const GpuSpec *G = GpuDatabase::builtin().find("h100-sxm");
  EXPECT_TRUE(G);
  static GpuSpec None;
  return G ? *G : None;
}

/// Counts with the FLOPs unknown (an uncountable asm) and the known part
/// KnownFlops in fp32, Bytes compulsory.
KernelCounts unknownFlops(double KnownFlops, std::optional<uint64_t> Bytes) {
  KernelCounts KC;
  KC.PerThread[counter::FlopsTotal] = Quantity();
  KC.PerThread["flops.fp32"] = Quantity();
  KC.Totals[counter::FlopsTotal] = std::nullopt;
  KC.Totals["flops.fp32"] = std::nullopt;
  KC.KnownTotals["flops.fp32"] = Rational(int64_t(KnownFlops));
  KC.KnownTotals[counter::FlopsTotal] = Rational(int64_t(KnownFlops));
  KC.Compulsory.Lower = Bytes;
  UnknownReason Why;
  Why.Reason = "inline assembly 'foo' is not analyzed";
  KC.Unknowns.push_back(Why);
  return KC;
}

} // namespace

TEST(LowerBound, MemoryFromTheKnownFootprint) {
  // 670e6 known FLOPs take 10 us at 67e12; 67 MB of compulsory bytes take
  // 67e6 / 3.35e12 = 20 us: the bound is 20 us.
  RooflineMetrics M =
      computeMetrics(unknownFlops(670e6, uint64_t(67000000)), h100(), true);
  EXPECT_FALSE(M.Seconds);
  EXPECT_EQ(M.Bound, "unknown");
  ASSERT_TRUE(M.LowerBound);
  EXPECT_NEAR(*M.LowerBound, 20e-6, 1e-12);
  EXPECT_EQ(M.LowerBoundWhy, "inline assembly 'foo' is not analyzed");
}

TEST(LowerBound, ComputeFromTheKnownFlops) {
  // 6.7e9 known FLOPs: 100 us, above the 20 us of the bytes.
  RooflineMetrics M =
      computeMetrics(unknownFlops(6.7e9, uint64_t(67000000)), h100(), true);
  ASSERT_TRUE(M.LowerBound);
  EXPECT_NEAR(*M.LowerBound, 100e-6, 1e-12);
  // Without a footprint, the FLOPs alone.
  M = computeMetrics(unknownFlops(6.7e9, std::nullopt), h100(), true);
  ASSERT_TRUE(M.LowerBound);
  EXPECT_NEAR(*M.LowerBound, 100e-6, 1e-12);
}

TEST(LowerBound, EachPrecisionAtItsPeak) {
  // 989.4e6 bf16 tensor FLOPs take 1 us at 989.4 TFLOP/s; 67e6 fp32 FLOPs
  // 1 us at 67: 2 us together.
  KernelCounts KC = unknownFlops(67e6, std::nullopt);
  KC.KnownTotals["flops.tensor_bf16"] = Rational(int64_t(989400000));
  RooflineMetrics M = computeMetrics(KC, h100(), true);
  ASSERT_TRUE(M.LowerBound);
  EXPECT_NEAR(*M.LowerBound, 2e-6, 1e-12);
}

TEST(LowerBound, NothingKnownNoBound) {
  // No known work: no bound, and the note says why.
  RooflineMetrics M =
      computeMetrics(unknownFlops(0, std::nullopt), h100(), true);
  EXPECT_FALSE(M.LowerBound);
  EXPECT_EQ(M.Note, "counts with unknowns have no speed of light");
  // Known counts: the exact speed of light, no lower bound.
  KernelCounts Exact;
  Exact.PerThread["flops.fp32"] = Quantity{std::string("2"), Rational(2)};
  Exact.Totals["flops.fp32"] = Rational(int64_t(6700000000));
  Exact.Totals[counter::FlopsTotal] = Rational(int64_t(6700000000));
  Exact.Upper = 67000000;
  Exact.Compulsory.Lower = 67000000;
  M = computeMetrics(Exact, h100(), true);
  ASSERT_TRUE(M.Seconds);
  EXPECT_NEAR(*M.Seconds, 100e-6, 1e-12);
  EXPECT_FALSE(M.LowerBound);
}
