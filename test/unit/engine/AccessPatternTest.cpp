//===- AccessPatternTest.cpp - Sectors and banks over lane address sets ---===//
//
// Part of cuda-roofline.
//
// Each case is a warp's lane addresses written out by hand, with the sector
// or bank count derived in the comment.
//
//===----------------------------------------------------------------------===//

#include "AccessPattern.h"
#include "AccessAnalysis.h"

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
  SectorReport R =
      analyzeGlobalRequest(lanes([](unsigned L) { return 4 * L; }), 4);
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
  SectorReport R = analyzeGlobalRequest(
      lanes([](unsigned L) { return 16384 * int64_t(L); }), 4);
  EXPECT_EQ(R.Sectors, 32u);
  EXPECT_EQ(R.BytesFetched, 1024u);
  EXPECT_DOUBLE_EQ(R.efficiency(), 0.125);
  EXPECT_EQ(R.Class, AccessClass::Strided);
  EXPECT_EQ(R.LaneStride, 16384);
  EXPECT_EQ(accessClassName(R.Class, R.LaneStride / 4), "strided:4096");
}

TEST(SectorsTest, StrideOfTwoFloats) {
  // Bytes 0, 8, ..., 248: 256 B span = 8 sectors, half of each used.
  SectorReport R =
      analyzeGlobalRequest(lanes([](unsigned L) { return 8 * L; }), 4);
  EXPECT_EQ(R.Sectors, 8u);
  EXPECT_DOUBLE_EQ(R.efficiency(), 0.5);
  EXPECT_EQ(R.Class, AccessClass::Strided);
}

TEST(SectorsTest, Float4Lanes) {
  // 32 x 16 B = 512 B = 16 sectors, all used.
  SectorReport R =
      analyzeGlobalRequest(lanes([](unsigned L) { return 16 * L; }), 16);
  EXPECT_EQ(R.Sectors, 16u);
  EXPECT_DOUBLE_EQ(R.efficiency(), 1.0);
  EXPECT_EQ(R.Class, AccessClass::Coalesced);
}

TEST(SectorsTest, HalfWarpActive) {
  // Lanes 0..15 only (a guard): 64 B = 2 sectors.
  SectorReport R =
      analyzeGlobalRequest(lanes([](unsigned L) -> std::optional<int64_t> {
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
  SectorReport P =
      analyzeGlobalRequest(lanes([](unsigned L) { return 4 * (L ^ 1); }), 4);
  EXPECT_EQ(P.Sectors, 4u);
  EXPECT_EQ(P.Class, AccessClass::Coalesced);
  SectorReport B =
      analyzeGlobalRequest(lanes([](unsigned L) { return 4 * (31 - L); }), 4);
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
  BankReport R =
      analyzeSharedRequest(lanes([](unsigned L) { return 4 * L; }), 4);
  EXPECT_EQ(R.Wavefronts, 1u);
  EXPECT_EQ(R.MinWavefronts, 1u);
  EXPECT_EQ(R.Ways, 1u);
}

TEST(BanksTest, ColumnOfUnpaddedTile) {
  // tile[l][0] of float tile[32][32]: 128 B apart, every lane in bank 0 with
  // its own word: 32-way, 32 wavefronts.
  BankReport R =
      analyzeSharedRequest(lanes([](unsigned L) { return 128 * L; }), 4);
  EXPECT_EQ(R.Ways, 32u);
  EXPECT_EQ(R.Wavefronts, 32u);
  EXPECT_EQ(R.Bank, 0);
  EXPECT_EQ(R.CollidingLanes.size(), 32u);
}

TEST(BanksTest, ColumnOfPaddedTile) {
  // tile[l][0] of float tile[32][33]: word 33*l, bank l: no conflict.
  BankReport R =
      analyzeSharedRequest(lanes([](unsigned L) { return 132 * L; }), 4);
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
  BankReport R =
      analyzeSharedRequest(lanes([](unsigned L) { return 8 * L; }), 4);
  EXPECT_EQ(R.Ways, 2u);
  EXPECT_EQ(R.Wavefronts, 2u);
  EXPECT_EQ(R.CollidingLanes, (std::vector<unsigned>{0, 16}));
}

TEST(BanksTest, WideAccessesTakeSeveralWavefronts) {
  // float2 consecutive: two half-warp passes of 16 x 8 B = 128 B, banks all
  // distinct in each: 2 wavefronts, no conflict.
  BankReport F2 =
      analyzeSharedRequest(lanes([](unsigned L) { return 8 * L; }), 8);
  EXPECT_EQ(F2.Wavefronts, 2u);
  EXPECT_EQ(F2.MinWavefronts, 2u);
  EXPECT_EQ(F2.Ways, 1u);
  // float4 consecutive: four quarter-warp passes of 8 x 16 B.
  BankReport F4 =
      analyzeSharedRequest(lanes([](unsigned L) { return 16 * L; }), 16);
  EXPECT_EQ(F4.Wavefronts, 4u);
  EXPECT_EQ(F4.Ways, 1u);
  // float4 32 B apart: in a pass, lanes l and l + 4 of the eight hit banks
  // 8l..8l+3 mod 32 twice: 2-way in each of the 4 passes, 8 wavefronts.
  BankReport S =
      analyzeSharedRequest(lanes([](unsigned L) { return 32 * L; }), 16);
  EXPECT_EQ(S.Ways, 2u);
  EXPECT_EQ(S.Wavefronts, 8u);
  EXPECT_EQ(S.MinWavefronts, 4u);
}

TEST(BanksTest, SixteenByteLanePairsArePacked) {
  // All 32 lanes read the same float4 (1-D blocktiling's As row): the
  // pairs (n, n ^ 1) agree, so two passes of 16 lanes, one 16-byte word
  // group each: 2 wavefronts, not 4.
  BankReport B = analyzeSharedRequest(lanes([](unsigned) { return 64; }), 16);
  EXPECT_EQ(B.Wavefronts, 2u);
  EXPECT_EQ(B.MinWavefronts, 2u);
  EXPECT_EQ(B.Ways, 1u);
  // Lanes 0-15 at byte 0, 16-31 at byte 1024 (2-D blocktiling's As, two
  // rows of threads 64 floats apart): pairs agree, and each pass of 16 has
  // one address: 2 wavefronts, although both rows are on banks 0-3.
  BankReport R = analyzeSharedRequest(
      lanes([](unsigned L) { return L < 16 ? 0 : 1024; }), 16);
  EXPECT_EQ(R.Wavefronts, 2u);
  EXPECT_EQ(R.Ways, 1u);
  // Pairs (n, n ^ 2) agree: lanes 0, 2 at 0, lanes 1, 3 at 16, ... ; a
  // pass of 16 lanes reads 8 distinct float4 at 16-byte steps, banks 0-31
  // once: 2 wavefronts.
  BankReport X = analyzeSharedRequest(
      lanes([](unsigned L) { return 16 * ((L & 1) + 2 * (L / 4)); }), 16);
  EXPECT_EQ(X.Wavefronts, 2u);
  // One lane off its pair (lane 5 reads elsewhere): four passes again.
  BankReport O = analyzeSharedRequest(
      lanes([](unsigned L) { return L == 5 ? 4096 : 64; }), 16);
  EXPECT_EQ(O.MinWavefronts, 4u);
}

SharedLayout layout(std::vector<uint64_t> Dims, unsigned ElementBytes,
                    unsigned AlignBytes) {
  SharedLayout L;
  L.Dims = std::move(Dims);
  L.ElementBytes = ElementBytes;
  L.AlignBytes = AlignBytes;
  return L;
}

// Bank advice: each request's fix recomputed by hand, bank = (byte / 4) mod
// 32, a 4-byte request in one pass of 32 lanes, 16-byte ones in four passes
// of 8.

TEST(BankAdviceTest, TransposeColumnIsAcrossRowsAndPaddingOneRemovesIt) {
  // tile[l][0] of float tile[32][32]: row l, word 32l, all in bank 0 and
  // each in its own row, so no two words of one row collide (in-row ways
  // 1). With rows of 33 floats, word 33l is in bank l: one wavefront.
  LaneAddresses A = lanes([](unsigned L) { return 128 * L; });
  BankReport R = analyzeSharedRequest(A, 4);
  BankAdvice Adv = adviseBankConflict(A, 4, R, layout({32, 32}, 4, 4), {0, 4});
  EXPECT_TRUE(Adv.acrossRows());
  EXPECT_FALSE(Adv.CollidingInOneRow);
  EXPECT_EQ(Adv.PadElements, 1u);
  EXPECT_EQ(Adv.Padded.Ways, 1u);
  EXPECT_EQ(Adv.Padded.Wavefronts, 1u);
  EXPECT_EQ(Adv.SwizzleModulo, 0u); // Padding already removes it.
}

TEST(BankAdviceTest, StrideWithinAPaddedRowIsNotFixedByPadding) {
  // tile[0][2l] of float tile[32][65] (a row of 64 padded by one): every
  // lane in row 0 (byte 8l < 260), word 2l, bank 2l mod 32: lanes l and
  // l + 16 collide (words 2l and 2l + 32), 2-way. Both in row 0, so any
  // padding leaves them 32 words apart: in-row ways 2, no padding offered.
  LaneAddresses A = lanes([](unsigned L) { return 8 * L; });
  BankReport R = analyzeSharedRequest(A, 4);
  ASSERT_EQ(R.Ways, 2u);
  BankAdvice Adv = adviseBankConflict(A, 4, R, layout({32, 65}, 4, 4), {0, 8});
  EXPECT_FALSE(Adv.acrossRows());
  EXPECT_EQ(Adv.InRowWays, 2u);
  EXPECT_TRUE(Adv.CollidingInOneRow);
  EXPECT_EQ(Adv.PadElements, 0u);
  EXPECT_EQ(Adv.LaneA, 0u);
  EXPECT_EQ(Adv.LaneB, 16u);
  EXPECT_EQ(Adv.OffsetB - Adv.OffsetA, 128);
  EXPECT_EQ(Adv.LaneStride, 8); // Every 2nd word.
  // The thread also reads tile[0][2l + 1] (run of 8 bytes): one float2 per
  // lane, two passes of 16 lanes over words 0-31 and 32-63, no conflict in
  // either: 2 wavefronts, the minimum. Rows of 65 floats (260 B) would put
  // odd rows' float2 at 4 mod 8: rows of 66 keep them aligned.
  EXPECT_EQ(Adv.VectorBytes, 8u);
  EXPECT_EQ(Adv.Vectorized.Ways, 1u);
  EXPECT_EQ(Adv.Vectorized.Wavefronts, 2u);
  EXPECT_EQ(Adv.VectorRowElements, 66u);
  // Lane l on word l: one wavefront.
  EXPECT_EQ(Adv.Consecutive.Wavefronts, 1u);
  // Recomputed by hand for any padding: all lanes in row 0 stay at 8l.
  for (int64_t P = 1; P < 32; ++P) {
    LaneAddresses Padded = lanes([&](unsigned L) {
      int64_t Addr = 8 * L, Row = Addr / 260;
      return Row * (260 + 4 * P) + Addr % 260;
    });
    EXPECT_EQ(analyzeSharedRequest(Padded, 4).Wavefronts, 2u);
  }
  // Without the second element no vector access is offered.
  EXPECT_EQ(
      adviseBankConflict(A, 4, R, layout({32, 65}, 4, 4), {0, 4}).VectorBytes,
      0u);
  // The second element, tile[0][2l + 1] at byte 8l + 4 (bank 2l + 1, the
  // same 2-way): its float2 starts 4 bytes before it, at the first
  // element, which the thread reads too (run from -4).
  LaneAddresses Second = lanes([](unsigned L) { return 8 * L + 4; });
  BankReport R2 = analyzeSharedRequest(Second, 4);
  ASSERT_EQ(R2.Ways, 2u);
  BankAdvice Adv2 =
      adviseBankConflict(Second, 4, R2, layout({32, 65}, 4, 4), {-4, 4});
  EXPECT_EQ(Adv2.VectorBytes, 8u);
  EXPECT_EQ(Adv2.Vectorized.Wavefronts, 2u);
  EXPECT_EQ(Adv2.VectorRowElements, 66u);
}

TEST(BankAdviceTest, OneDimensionalArrayGetsOnlyInRowAdvice) {
  // s[8l] of float s[256]: word 8l, banks 0, 8, 16, 24, eight lanes each:
  // 8-way (lanes 0, 4, ..., 28 in bank 0). A 1-D array is one row.
  LaneAddresses A = lanes([](unsigned L) { return 32 * L; });
  BankReport R = analyzeSharedRequest(A, 4);
  ASSERT_EQ(R.Ways, 8u);
  BankAdvice Adv = adviseBankConflict(A, 4, R, layout({256}, 4, 4), {0, 4});
  EXPECT_FALSE(Adv.acrossRows());
  EXPECT_EQ(Adv.InRowWays, 8u);
  EXPECT_EQ(Adv.PadElements, 0u);
  EXPECT_EQ(Adv.LaneA, 0u);
  EXPECT_EQ(Adv.LaneB, 4u);
  EXPECT_EQ(Adv.LaneStride, 32);  // Every 8th word.
  EXPECT_EQ(Adv.VectorBytes, 0u); // 32 bytes: wider than any vector.
  EXPECT_EQ(Adv.Consecutive.Wavefronts, 1u);
}

TEST(BankAdviceTest, TwoRowsOfAWarpAreSeparatedByPadding) {
  // t[y][2x] of float t[2][32] with a 16 x 2 block: lanes 0-15 in row 0 at
  // words 0, 2, ..., 30, lanes 16-31 in row 1 at words 32, ..., 62: each
  // even bank has lane l and lane l + 16, from two rows (2-way, in-row 1).
  // Rows of 33 move row 1 to words 33, 35, ...: odd banks, no conflict.
  LaneAddresses A =
      lanes([](unsigned L) { return 128 * (L / 16) + 8 * (L % 16); });
  BankReport R = analyzeSharedRequest(A, 4);
  ASSERT_EQ(R.Ways, 2u);
  BankAdvice Adv = adviseBankConflict(A, 4, R, layout({2, 32}, 4, 4), {0, 4});
  EXPECT_TRUE(Adv.acrossRows());
  EXPECT_EQ(Adv.PadElements, 1u);
  EXPECT_EQ(Adv.Padded.Wavefronts, 1u);
}

TEST(BankAdviceTest, PaddingKeepsWideAccessesAligned) {
  // The 16-byte stores As[v / 4][8 (v % 4)] of bf16 As[128][40] (already
  // padded from 32): lane l at byte 80 (l / 4) + 16 (l % 4). In the pass of
  // lanes 0-7, row 0 covers words 0-15 and row 1 words 20-35: lane 7's
  // words 32-35 meet lane 0's in banks 0-3, 2-way in each pass (8
  // wavefronts where 4 would do). Padding must stay a multiple of 16 B
  // (8 bf16); the second row of a pass must start at 16 mod 32 words:
  // 20 + P / 2 = 16 mod 32, P = 56, rows of 96 (48 words). Then rows 2k
  // start at bank 0 and rows 2k + 1 at bank 16: 4 wavefronts.
  LaneAddresses A =
      lanes([](unsigned L) { return 80 * (L / 4) + 16 * (L % 4); });
  BankReport R = analyzeSharedRequest(A, 16);
  ASSERT_EQ(R.Wavefronts, 8u);
  ASSERT_EQ(R.MinWavefronts, 4u);
  BankAdvice Adv =
      adviseBankConflict(A, 16, R, layout({128, 40}, 2, 16), {0, 16});
  EXPECT_TRUE(Adv.acrossRows());
  EXPECT_EQ(Adv.PadElements, 56u);
  EXPECT_EQ(Adv.Padded.Wavefronts, 4u);
  EXPECT_EQ(Adv.Padded.Ways, 1u);
}

TEST(BankAdviceTest, RowsTooFarApartForPaddingOrSwizzle) {
  // t[16 (l / 16)][2 (l % 16)] of float t[32][32]: lanes 0-15 at words 0,
  // 2, ..., 30 of row 0, lanes 16-31 at the same columns of row 16, 512
  // words on: 2-way on every even bank. Padding by P moves row 16 by 16P
  // words, 0 or 16 mod 32: still even banks, never better. The swizzle
  // c ^ (r % 32) = c ^ 16 keeps columns even too.
  LaneAddresses A =
      lanes([](unsigned L) { return 16 * 128 * (L / 16) + 8 * (L % 16); });
  BankReport R = analyzeSharedRequest(A, 4);
  ASSERT_EQ(R.Ways, 2u);
  BankAdvice Adv = adviseBankConflict(A, 4, R, layout({32, 32}, 4, 4), {0, 4});
  EXPECT_TRUE(Adv.acrossRows());
  EXPECT_EQ(Adv.PadElements, 0u);
  EXPECT_EQ(Adv.SwizzleModulo, 0u);
}

TEST(BankAdviceTest, SwizzleWherePaddingFalls) {
  // 2-byte loads t[l][l % 8] of bf16 t[32][64] (rows of 128 B), which other
  // code reads as 4-byte pairs (padding in steps of 2 bf16). Lane l at byte
  // 128 l + 2 (l % 8), word 32 l + (l % 8) / 2, bank (l % 8) / 2: lanes 0,
  // 1, 8, 9, 16, 17, 24, 25 in bank 0, each in its own row: 8-way. With k
  // words of padding the bank is k l + (l % 8) / 2 mod 32, which some two
  // lanes always share (checked below for every k). The swizzle in 4-byte
  // units, unit u of row r at u ^ r: lane l's unit (l % 8) / 2 goes to
  // l ^ ((l >> 1) & 3), which keeps bits 2-4 of l and gives back bit 1
  // (from bit 2) and then bit 0: a different bank for every lane.
  LaneAddresses A = lanes([](unsigned L) { return 128 * L + 2 * (L % 8); });
  BankReport R = analyzeSharedRequest(A, 2);
  ASSERT_EQ(R.Ways, 8u);
  BankAdvice Adv = adviseBankConflict(A, 2, R, layout({32, 64}, 2, 4), {0, 2});
  EXPECT_TRUE(Adv.acrossRows());
  for (int64_t K = 1; K < 32; ++K) {
    LaneAddresses Padded =
        lanes([&](unsigned L) { return (128 + 4 * K) * L + 2 * (L % 8); });
    EXPECT_GE(analyzeSharedRequest(Padded, 2).Wavefronts, 2u);
  }
  EXPECT_EQ(Adv.Padded.Wavefronts, 2u);
  EXPECT_EQ(Adv.PadElements, 2u); // The first of the 2-wavefront paddings.
  EXPECT_EQ(Adv.SwizzleModulo, 32u);
  EXPECT_EQ(Adv.SwizzleScale, 2u); // bf16 column c at c ^ (r * 2).
  EXPECT_EQ(Adv.Swizzled.Ways, 1u);
  EXPECT_EQ(Adv.Swizzled.Wavefronts, 1u);
}

TEST(BankAdviceTest, PartialPaddingForRowsEightApart) {
  // A transposing 4-byte store t[8l][0] of float t[256][32]: word 256l, all
  // in bank 0, 32-way. Rows of 32 + P put lane l in bank 8lP mod 32: at
  // most 4 banks (0, 8, 16, 24), 8 lanes each: P = 1 gives 8-way, which no
  // padding beats. The swizzle c ^ (r % 32) = 8l mod 32 reaches the same 4
  // banks: no better, not offered.
  LaneAddresses A = lanes([](unsigned L) { return 8 * 128 * L; });
  BankReport R = analyzeSharedRequest(A, 4);
  ASSERT_EQ(R.Ways, 32u);
  BankAdvice Adv = adviseBankConflict(A, 4, R, layout({256, 32}, 4, 4), {0, 4});
  EXPECT_TRUE(Adv.acrossRows());
  EXPECT_EQ(Adv.PadElements, 1u);
  EXPECT_EQ(Adv.Padded.Ways, 8u);
  EXPECT_EQ(Adv.Padded.Wavefronts, 8u);
  EXPECT_EQ(Adv.SwizzleModulo, 0u);
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
  // An ldmatrix or cp.async is located at its asm statement: no expression
  // (the finding names the array).
  const char *Asm = "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
                    "{%0,%1,%2,%3}, [%4];\" : ...);\n"
                    "  __asm__ __volatile__(\"cp.async.cg.shared.global [%0], "
                    "[%1], 16;\" :: ...);\n";
  EXPECT_EQ(expressionAt(Asm, 1, 3), "");
  EXPECT_EQ(expressionAt(Asm, 2, 3), "");
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
