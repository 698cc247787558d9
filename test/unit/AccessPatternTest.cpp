//===- AccessPatternTest.cpp - Sectors and banks over lane address sets ---===//
//
// Part of cuda-roofline.
//
// Each case is a warp's lane addresses written out by hand, with the sector
// or bank count derived in the comment.
//
//===----------------------------------------------------------------------===//

#include "AccessAnalysis.h"
#include "AccessPattern.h"

#include "gtest/gtest.h"

#include <functional>

using namespace roofline;

namespace {

LaneAddresses lanes(const std::function<std::optional<int64_t>(unsigned)> &F) {
  LaneAddresses A;
  for (unsigned L = 0; L < WarpSize; ++L)
    A[L] = F(L);
  return A;
}

TEST(SectorsTest, ConsecutiveFloats) {
  // 32 lanes x 4 B from 0: bytes 0..127 = sectors 0..3.
  SectorReport R = analyzeGlobalRequest(lanes([](unsigned L) { return 4 * L; }), 4);
  EXPECT_EQ(R.Sectors, 4u);
  EXPECT_EQ(R.BytesUsed, 128u);
  EXPECT_EQ(R.BytesFetched, 128u);
  EXPECT_DOUBLE_EQ(R.efficiency(), 1.0);
  EXPECT_EQ(R.Class, AccessClass::Coalesced);
}

TEST(SectorsTest, MisalignedByOneElementCostsOneMoreSector) {
  // Bytes 4..131 span sectors 0..4: 5 sectors, 128 of 160 bytes used.
  SectorReport R =
      analyzeGlobalRequest(lanes([](unsigned L) { return 4 + 4 * L; }), 4);
  EXPECT_EQ(R.Sectors, 5u);
  EXPECT_DOUBLE_EQ(R.efficiency(), 0.8);
  EXPECT_EQ(R.Class, AccessClass::Coalesced);
}

TEST(SectorsTest, Broadcast) {
  // Every lane reads the same float: 1 sector, 4 distinct bytes.
  SectorReport R = analyzeGlobalRequest(lanes([](unsigned) { return 256; }), 4);
  EXPECT_EQ(R.Sectors, 1u);
  EXPECT_EQ(R.BytesUsed, 4u);
  EXPECT_EQ(R.Class, AccessClass::Broadcast);
  EXPECT_EQ(accessClassName(R.Class, 0), "broadcast");
}

TEST(SectorsTest, RowStrideOfAMatrix) {
  // Lane l reads A[l*K] with K = 4096 floats: 16384 B apart, one sector
  // each: 32 sectors, 128 of 1024 bytes used (12.5 %).
  SectorReport R =
      analyzeGlobalRequest(lanes([](unsigned L) { return 16384 * int64_t(L); }), 4);
  EXPECT_EQ(R.Sectors, 32u);
  EXPECT_EQ(R.BytesFetched, 1024u);
  EXPECT_DOUBLE_EQ(R.efficiency(), 0.125);
  EXPECT_EQ(R.Class, AccessClass::Strided);
  EXPECT_EQ(R.LaneStride, 16384);
  EXPECT_EQ(accessClassName(R.Class, R.LaneStride / 4), "strided:4096");
}

TEST(SectorsTest, StrideOfTwoFloats) {
  // Bytes 0, 8, ..., 248: 256 B span = 8 sectors, half of each used.
  SectorReport R = analyzeGlobalRequest(lanes([](unsigned L) { return 8 * L; }), 4);
  EXPECT_EQ(R.Sectors, 8u);
  EXPECT_DOUBLE_EQ(R.efficiency(), 0.5);
  EXPECT_EQ(R.Class, AccessClass::Strided);
}

TEST(SectorsTest, Float4Lanes) {
  // 32 x 16 B = 512 B = 16 sectors, all used.
  SectorReport R = analyzeGlobalRequest(lanes([](unsigned L) { return 16 * L; }), 16);
  EXPECT_EQ(R.Sectors, 16u);
  EXPECT_DOUBLE_EQ(R.efficiency(), 1.0);
  EXPECT_EQ(R.Class, AccessClass::Coalesced);
}

TEST(SectorsTest, HalfWarpActive) {
  // Lanes 0..15 only (a guard): 64 B = 2 sectors.
  SectorReport R = analyzeGlobalRequest(
      lanes([](unsigned L) -> std::optional<int64_t> {
        if (L < 16)
          return 4 * L;
        return std::nullopt;
      }),
      4);
  EXPECT_EQ(R.ActiveLanes, 16u);
  EXPECT_EQ(R.Sectors, 2u);
  EXPECT_EQ(R.Class, AccessClass::Coalesced);
}

TEST(SectorsTest, PermutedOrReversedLanesStayCoalesced) {
  // Pairs swapped (lane l reads element l ^ 1): still bytes 0..127.
  SectorReport P = analyzeGlobalRequest(lanes([](unsigned L) { return 4 * (L ^ 1); }), 4);
  EXPECT_EQ(P.Sectors, 4u);
  EXPECT_EQ(P.Class, AccessClass::Coalesced);
  SectorReport B = analyzeGlobalRequest(lanes([](unsigned L) { return 4 * (31 - L); }), 4);
  EXPECT_EQ(B.Sectors, 4u);
  EXPECT_EQ(B.Class, AccessClass::Coalesced);
}

TEST(SectorsTest, Irregular) {
  // Squares: 0, 4, 16, 36, ...: no constant stride; lane l at 4*l^2 bytes.
  SectorReport R = analyzeGlobalRequest(
      lanes([](unsigned L) { return 4 * int64_t(L) * L; }), 4);
  EXPECT_EQ(R.Class, AccessClass::Irregular);
  // Sectors floor(4 l^2 / 32) for l = 0..31: l = 0..2 share sector 0, then
  // l = 3 -> 1, l = 4 -> 2, and from l = 5 on every lane its own: 3 + 27.
  EXPECT_EQ(R.Sectors, 30u);
}

TEST(BanksTest, ConsecutiveWords) {
  BankReport R = analyzeSharedRequest(lanes([](unsigned L) { return 4 * L; }), 4);
  EXPECT_EQ(R.Wavefronts, 1u);
  EXPECT_EQ(R.MinWavefronts, 1u);
  EXPECT_EQ(R.Ways, 1u);
}

TEST(BanksTest, ColumnOfUnpaddedTile) {
  // tile[l][0] of float tile[32][32]: 128 B apart, every lane in bank 0 with
  // its own word: 32-way, 32 wavefronts.
  BankReport R = analyzeSharedRequest(lanes([](unsigned L) { return 128 * L; }), 4);
  EXPECT_EQ(R.Ways, 32u);
  EXPECT_EQ(R.Wavefronts, 32u);
  EXPECT_EQ(R.Bank, 0);
  EXPECT_EQ(R.CollidingLanes.size(), 32u);
}

TEST(BanksTest, ColumnOfPaddedTile) {
  // tile[l][0] of float tile[32][33]: word 33*l, bank l: no conflict.
  BankReport R = analyzeSharedRequest(lanes([](unsigned L) { return 132 * L; }), 4);
  EXPECT_EQ(R.Ways, 1u);
  EXPECT_EQ(R.Wavefronts, 1u);
}

TEST(BanksTest, BroadcastIsNoConflict) {
  BankReport R = analyzeSharedRequest(lanes([](unsigned) { return 64; }), 4);
  EXPECT_EQ(R.Ways, 1u);
  EXPECT_EQ(R.Wavefronts, 1u);
}

TEST(BanksTest, StrideOfTwoWordsIsTwoWay) {
  // Word 2l: bank 2l mod 32, so lanes l and l + 16 share a bank with
  // different words: 2-way.
  BankReport R = analyzeSharedRequest(lanes([](unsigned L) { return 8 * L; }), 4);
  EXPECT_EQ(R.Ways, 2u);
  EXPECT_EQ(R.Wavefronts, 2u);
  EXPECT_EQ(R.CollidingLanes, (std::vector<unsigned>{0, 16}));
}

TEST(BanksTest, WideAccessesTakeSeveralWavefronts) {
  // float2 consecutive: two half-warp passes of 16 x 8 B = 128 B, banks all
  // distinct in each: 2 wavefronts, no conflict.
  BankReport F2 = analyzeSharedRequest(lanes([](unsigned L) { return 8 * L; }), 8);
  EXPECT_EQ(F2.Wavefronts, 2u);
  EXPECT_EQ(F2.MinWavefronts, 2u);
  EXPECT_EQ(F2.Ways, 1u);
  // float4 consecutive: four quarter-warp passes of 8 x 16 B.
  BankReport F4 = analyzeSharedRequest(lanes([](unsigned L) { return 16 * L; }), 16);
  EXPECT_EQ(F4.Wavefronts, 4u);
  EXPECT_EQ(F4.Ways, 1u);
  // float4 32 B apart: in a pass, lanes l and l + 4 of the eight hit banks
  // 8l..8l+3 mod 32 twice: 2-way in each of the 4 passes, 8 wavefronts.
  BankReport S = analyzeSharedRequest(lanes([](unsigned L) { return 32 * L; }), 16);
  EXPECT_EQ(S.Ways, 2u);
  EXPECT_EQ(S.Wavefronts, 8u);
  EXPECT_EQ(S.MinWavefronts, 4u);
}

} // namespace

namespace {

TEST(ExpressionAtTest, SubscriptsStoresAndCasts) {
  const char *Src = "  acc += A[row * K + k] * B[k * N + col];\n"
                    "  C[i] = x;\n"
                    "  *reinterpret_cast<uint4 *>(&As[r][c]) = v;\n"
                    "  s.data[3] += 1;\n";
  unsigned Col = 0;
  EXPECT_EQ(expressionAt(Src, 1, 10), "A[row * K + k]");
  EXPECT_EQ(expressionAt(Src, 1, 27), "B[k * N + col]");
  // A store is located at its '=': the left-hand side, from column 3.
  EXPECT_EQ(expressionAt(Src, 2, 8, &Col), "C[i]");
  EXPECT_EQ(Col, 3u);
  // A cast pointer is located at the cast's '(': the access is As[r][c].
  EXPECT_EQ(expressionAt(Src, 3, 29, &Col), "As[r][c]");
  EXPECT_EQ(Col, 31u);
  // The same store located at its '=' (column 41).
  EXPECT_EQ(expressionAt(Src, 3, 41, &Col), "As[r][c]");
  EXPECT_EQ(Col, 31u);
  EXPECT_EQ(expressionAt(Src, 4, 13, &Col), "s.data[3]");
  EXPECT_EQ(Col, 3u);
  EXPECT_EQ(expressionAt(Src, 9, 1), "");
  // A register copy from shared memory: the load is the right-hand side.
  const char *Copy = "  *reinterpret_cast<float4 *>(&r[j]) = "
                     "*reinterpret_cast<const float4 *>(&Bs[d * 8 + j]);\n";
  EXPECT_EQ(expressionAt(Copy, 1, 38, &Col, /*IsLoad=*/true), "Bs[d * 8 + j]");
  EXPECT_EQ(Col, 75u);
  // The right-hand side on the next line.
  const char *Split = "  *reinterpret_cast<float4 *>(&r[j]) =\n"
                      "      *reinterpret_cast<const float4 *>(&Bs[j]);\n";
  unsigned Line = 0;
  EXPECT_EQ(expressionAt(Split, 1, 38, &Col, true, &Line), "Bs[j]");
  EXPECT_EQ(Line, 2u);
  EXPECT_EQ(Col, 42u);
  EXPECT_EQ(expressionAt(Copy, 1, 38, &Col, /*IsLoad=*/false), "r[j]");
  EXPECT_EQ(Col, 32u);
}

} // namespace
