//===- TileCostTest.cpp - The L2 traffic a tile would save, by hand -------===//
//
// Part of cuda-roofline.
//
// priceTiles on a load written out in the test. The GPU is the built-in
// H200: 256 KiB of L1/shared per SM; blocks of 256 threads without shared
// memory fit 8 to an SM, so each has 32768 bytes of L1.
//
// The load: 64 blocks; each thread reads a float 4096 times (a loop nest of
// 4096 iterations), each warp request 128 bytes in 4 sectors. Block
// (0,0,0) requests 256 x 4096 x 4 = 4194304 bytes of a 16384-byte vector:
// 32768 warp requests fetch 32768 x 4 x 32 = 4194304 bytes, of which
// 4194304 - 16384 = 4177920 are re-reads, 64 x 4177920 = 267386880 over
// the grid. The block loads 1 MiB in all (this vector and its other
// buffers).
//
//===----------------------------------------------------------------------===//

#include "TileCost.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

AccessInfo vectorLoad(std::optional<double> ReuseIterations) {
  AccessInfo A;
  A.Space = MemSpace::Global;
  A.Width = 4;
  SectorReport S;
  S.ActiveLanes = 32;
  S.Sectors = 4;
  S.BytesUsed = 128;
  A.Sectors = S;
  A.CountPerThread = Rational(4096);
  A.BlockRequested = 4194304;
  A.BlockDistinct = 16384;
  A.GridRequested = 64 * uint64_t(4194304);
  A.ReuseIterations = ReuseIterations;
  if (ReuseIterations)
    A.NestIterations = 4096;
  return A;
}

TileSaving price(std::optional<double> ReuseIterations) {
  const GpuSpec *Gpu = GpuDatabase::builtin().find("h200");
  EXPECT_NE(Gpu, nullptr);
  std::vector<AccessInfo> Accesses{vectorLoad(ReuseIterations)};
  Dim3 Block;
  Block.V[0] = 256;
  priceTiles(Accesses, *Gpu, Block, /*SharedPerBlock=*/0,
             /*BlockLoads=*/uint64_t(1) << 20);
  EXPECT_TRUE(Accesses[0].Tile.has_value());
  return Accesses[0].Tile.value_or(TileSaving());
}

// A lane reads a sector again 8 iterations later: the block loads
// 1048576 x 8 / 4096 = 2048 bytes in between, which its 32768 bytes of L1
// keep. Nothing comes from L2.
TEST(TileCost, NearReReadsHitL1) {
  TileSaving T = price(8.0);
  EXPECT_EQ(T.Why, "");
  EXPECT_EQ(T.L1PerBlock, 32768u);
  EXPECT_EQ(T.ReReadBytes, 267386880u);
  EXPECT_EQ(T.WindowBytes, 2048u);
  EXPECT_EQ(T.L2Bytes, 0u);
  EXPECT_EQ(T.Seconds, 0.0);
}

// 256 iterations apart: 1048576 x 256 / 4096 = 65536 bytes in between, so
// 1 - 32768 / 65536 = 1/2 of the re-reads miss: 133693440 bytes, at the
// H200's 9500 GB/s 14.073 us.
TEST(TileCost, ReReadsMissTheShareThatOverflowsL1) {
  TileSaving T = price(256.0);
  EXPECT_EQ(T.WindowBytes, 65536u);
  EXPECT_EQ(T.L2Bytes, 133693440u);
  EXPECT_NEAR(T.Seconds, 133693440 / 9500e9, 1e-12);
  EXPECT_FALSE(T.AtDram);
}

// A whole walk of the nest apart, or apart by iterations that are not
// known: the window is the block's whole footprint, 1 MiB, and
// 1 - 32768 / 1048576 = 31/32 of the re-reads miss: 259031040 bytes.
TEST(TileCost, FarOrUnknownReReadsNeedTheWholeFootprint) {
  for (std::optional<double> Distance : {std::optional<double>(4096.0),
                                         std::optional<double>()}) {
    TileSaving T = price(Distance);
    EXPECT_EQ(T.WindowBytes, 1048576u);
    EXPECT_EQ(T.L2Bytes, 259031040u);
  }
}

} // namespace
