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
// the grid. The window between two reads is this vector's share of a walk
// plus the block's other loads' share of the nest.
//
//===----------------------------------------------------------------------===//

#include "TileCost.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

AccessInfo vectorLoad(std::optional<ReuseShape> Reuse) {
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
  A.Reuse = Reuse;
  return A;
}

// Prices the vector load beside a load of Other distinct bytes that
// streams through the nest's 4096 iterations (each byte read once).
TileSaving price(std::optional<ReuseShape> Reuse, uint64_t BlockLoads,
                 uint64_t Other, double OtherWalk = 4096) {
  const GpuSpec *Gpu = GpuDatabase::builtin().find("h200");
  EXPECT_NE(Gpu, nullptr);
  AccessInfo Stream;
  Stream.Space = MemSpace::Global;
  Stream.Width = 4;
  Stream.BlockDistinct = Other;
  ReuseShape Once;
  Once.Nest = 4096;
  Once.Walk = OtherWalk;
  Stream.Reuse = Once;
  std::vector<AccessInfo> Accesses{vectorLoad(Reuse), Stream};
  Dim3 Block;
  Block.V[0] = 256;
  priceTiles(Accesses, *Gpu, Block, /*SharedPerBlock=*/0, BlockLoads);
  EXPECT_TRUE(Accesses[0].Tile.has_value());
  return Accesses[0].Tile.value_or(TileSaving());
}

// The vector walked 4 times, 1024 iterations a walk.
ReuseShape fourWalks() {
  ReuseShape R;
  R.Nest = 4096;
  R.Walk = R.Far = R.FarWalk = 1024;
  R.Repeats = 4;
  return R;
}

ReuseShape walkOnce(double Near) {
  ReuseShape R;
  R.Nest = R.Walk = 4096;
  R.Near = Near;
  return R;
}

// One walk; a lane reads a sector over 8 iterations. The block loads 1 MiB,
// the vector and 1048576 - 16384 = 1032192 bytes streamed: 16384 x 8 / 4096
// + 1032192 x 8 / 4096 = 32 + 2016 = 2048 bytes in between, which its 32768
// bytes of L1 keep. Nothing comes from L2.
TEST(TileCost, NearReReadsHitL1) {
  TileSaving T = price(walkOnce(8), uint64_t(1) << 20, 1032192);
  EXPECT_EQ(T.Why, "");
  EXPECT_EQ(T.L1PerBlock, 32768u);
  EXPECT_EQ(T.ReReadBytes, 267386880u);
  EXPECT_EQ(T.WindowBytes, 2048u);
  EXPECT_EQ(T.FarReReadBytes, 0u);
  EXPECT_EQ(T.L2Bytes, 0u);
  EXPECT_EQ(T.Seconds, 0.0);
}

// 256 iterations apart: 16384 x 256 / 4096 + 1032192 x 256 / 4096 = 1024 +
// 64512 = 65536 bytes in between, so 1 - 32768 / 65536 = 1/2 of the
// re-reads miss: 133693440 bytes, at the H200's 9500 GB/s 14.073 us.
TEST(TileCost, ReReadsMissTheShareThatOverflowsL1) {
  TileSaving T = price(walkOnce(256), uint64_t(1) << 20, 1032192);
  EXPECT_EQ(T.WindowBytes, 65536u);
  EXPECT_EQ(T.L2Bytes, 133693440u);
  EXPECT_NEAR(T.Seconds, 133693440 / 9500e9, 1e-12);
  EXPECT_FALSE(T.AtDram);
  EXPECT_FALSE(T.MostlyFar);
}

// The vector walked 4 times, 1024 iterations a walk, beside 196608 bytes
// streamed: 212992 bytes in all. The walks after the first re-read it: 3 x
// 16384 = 49152 bytes a block, 3145728 over the grid. Between two walks the
// block loads the vector and a quarter of the stream: 16384 + 196608 x
// 1024 / 4096 = 65536 bytes, so half of those re-reads miss: 1572864
// bytes. The others (other warps in the same iteration) are 16384 / 1024 +
// 196608 / 4096 = 64 bytes apart: L1 keeps them.
TEST(TileCost, LaterWalksNeedAWalksLoads) {
  TileSaving T = price(fourWalks(), 212992, 196608);
  EXPECT_EQ(T.FarReReadBytes, 3145728u);
  EXPECT_EQ(T.FarWindowBytes, 65536u);
  EXPECT_EQ(T.WindowBytes, 64u);
  EXPECT_EQ(T.L2Bytes, 1572864u);
  EXPECT_TRUE(T.MostlyFar);
}

// The same walks, beside a load of 245760 bytes that the same loop repeats
// (its walk is 1024 iterations too): between two walks the block loads
// both again, 16384 + 245760 = 262144 bytes, and 1 - 32768 / 262144 = 7/8
// of the 3145728 bytes of later walks miss: 2752512.
TEST(TileCost, LoadsRepeatedTogetherAreLoadedAgain) {
  TileSaving T = price(fourWalks(), 262144, 245760, /*OtherWalk=*/1024);
  EXPECT_EQ(T.FarWindowBytes, 262144u);
  EXPECT_EQ(T.L2Bytes, 2752512u);
}

// Without the loop nest's shape the window is the block's whole footprint,
// 1 MiB, and 1 - 32768 / 1048576 = 31/32 of the re-reads miss: 259031040
// bytes.
TEST(TileCost, UnknownReuseNeedsTheWholeFootprint) {
  TileSaving T = price(std::nullopt, uint64_t(1) << 20, 1032192);
  EXPECT_EQ(T.WindowBytes, 1048576u);
  EXPECT_EQ(T.L2Bytes, 259031040u);
}

} // namespace
