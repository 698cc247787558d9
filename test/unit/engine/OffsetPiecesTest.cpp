//===- OffsetPiecesTest.cpp - Cutting boxes where offsets are affine ------===//
//
// Part of cuda-roofline.
//
// Every expected value below is derived by hand; the derivation is in the
// comment next to the assertion.
//
//===----------------------------------------------------------------------===//

#include "OffsetPieces.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

Expr sym(const std::string &Name) {
  return Expr::symbol(Name, SymbolKind::Thread);
}
Interval range(int64_t Lo, int64_t Hi) {
  return Interval{Rational(Lo), Rational(Hi)};
}

/// A leaf that accepts pieces on which the offset is affine with constant
/// coefficients, and records how many points and distinct offsets' extent
/// they cover.
struct Recorder {
  int Pieces = 0;
  Rational Points = Rational(0);
  Rational MinOffset = Rational(1000000000), MaxOffset = Rational(-1);

  std::optional<bool> operator()(OffsetBox P) {
    Rational Size(1);
    for (const std::string &V : P.Vars) {
      const Interval &I = P.Env.at(V);
      Size = Size * (I.Hi - I.Lo + Rational(1));
      if (I.isPoint())
        continue;
      auto S = P.Offset.splitAffine(V);
      if (!S || !S->first.asConstant())
        return std::nullopt;
    }
    auto B = P.Offset.bound(P.Env);
    if (!B)
      return std::nullopt;
    ++Pieces;
    Points = Points + Size;
    if (B->Lo < MinOffset)
      MinOffset = B->Lo;
    if (MaxOffset < B->Hi)
      MaxOffset = B->Hi;
    return true;
  }
};

TEST(OffsetPiecesTest, FlatIndexWithClampedNeighbour) {
  // heat2d_flat's left neighbour u[y*w + (x > 0 ? x - 1 : x)] as the
  // optimizer writes it, with w = 4096: x = idx % 4096, y = idx / 4096,
  // the clamp max(x, 1) - 1, idx = 256*blockIdx.x + threadIdx.x.
  Expr Idx = Expr(256) * sym("blockIdx.x") + sym("threadIdx.x");
  Expr X = Expr::mod(Idx, Expr(4096)), Y = Expr::floorDiv(Idx, Expr(4096));
  Expr Off = Expr(4096) * Y + Expr::max(X, Expr(1)) - Expr(1);
  OffsetBox Box{
      Off,
      {{"threadIdx.x", range(0, 255)}, {"blockIdx.x", range(0, 65535)}},
      {"threadIdx.x", "blockIdx.x"}};
  Recorder R;
  ASSERT_TRUE(forEachAffinePiece(
      Box, [&](OffsetBox P) { return R(std::move(P)); }, 256));
  // The grid is 4096 whole rows: one product of row (0..4095) and column
  // (0..4095); the clamp cuts the column at 1 and 2 (max(x, 1) changes arm
  // at x = 1): columns {0}, {1}, 2..4095 -> 3 pieces.
  EXPECT_EQ(R.Pieces, 3);
  // They cover the 65536 * 256 = 16777216 threads once each.
  EXPECT_EQ(R.Points, Rational(16777216));
  // Offsets run from 0 (x = 0 and x = 1 of row 0) to 4096*4095 + 4094.
  EXPECT_EQ(R.MinOffset, Rational(0));
  EXPECT_EQ(R.MaxOffset, Rational(4096 * 4095 + 4094));
}

TEST(OffsetPiecesTest, ReplayedCutTakesTheBoxItIsGiven) {
  // A cp.async copy of A's rows: lane v of 256 copies row
  // r = (v/32)*8 + v%8, column c = ((v/8)%4)*8 of a 64 x 32 slice, at
  // K*r + c + 2^20*by (K = 4096). With v = 32a + 8b + d (a < 8, b < 4,
  // d < 8), r = 8a + d and c = 8b: each of the 64 x 4 (row, column) pairs
  // once, offsets K*r + c from 0 to 4096*63 + 24 = 258072 past 2^20*by.
  Expr V = sym("threadIdx.x"), By = sym("blockIdx.y");
  Expr R = Expr(8) * Expr::floorDiv(V, Expr(32)) + Expr::mod(V, Expr(8));
  Expr C = Expr(8) * Expr::mod(Expr::floorDiv(V, Expr(8)), Expr(4));
  Expr Off = Expr(4096) * R + C + Expr(1 << 20) * By;
  auto cutOver = [&](Interval Threads, Interval Blocks) {
    OffsetBox Box{Off,
                  {{"threadIdx.x", Threads}, {"blockIdx.y", Blocks}},
                  {"threadIdx.x", "blockIdx.y"}};
    Recorder Rec;
    EXPECT_TRUE(forEachAffinePiece(
        Box, [&](OffsetBox P) { return Rec(std::move(P)); }, 256));
    return Rec;
  };
  Recorder First = cutOver(range(0, 255), range(0, 0));
  EXPECT_EQ(First.Points, Rational(256));
  EXPECT_EQ(First.MinOffset, Rational(0));
  EXPECT_EQ(First.MaxOffset, Rational(258072));
  // The same lanes for blocks 3..4: the cut of the lanes is the first
  // one's, the blocks' range this box's: 2 * 256 points, offsets from
  // 3 * 2^20 to 4 * 2^20 + 258072.
  Recorder Again = cutOver(range(0, 255), range(3, 4));
  EXPECT_EQ(Again.Pieces, First.Pieces);
  EXPECT_EQ(Again.Points, Rational(512));
  EXPECT_EQ(Again.MinOffset, Rational(3 << 20));
  EXPECT_EQ(Again.MaxOffset, Rational((4 << 20) + 258072));
  // Lanes 0..127 (a = 0..3) are another box of lanes, cut anew: rows 0..31,
  // 128 points, offsets up to 4096*31 + 24 = 127000.
  Recorder Half = cutOver(range(0, 127), range(0, 0));
  EXPECT_EQ(Half.Points, Rational(128));
  EXPECT_EQ(Half.MinOffset, Rational(0));
  EXPECT_EQ(Half.MaxOffset, Rational(127000));
}

TEST(OffsetPiecesTest, PartialPeriodsAtBothEnds) {
  // i in [100, 10000], offset i % 4096: the head 100..4095, one whole
  // period 4096..8191 and the tail 8192..10000 -> 3 pieces covering
  // 3996 + 4096 + 1809 = 9901 = 10000 - 100 + 1 points.
  Expr I = sym("i");
  OffsetBox Box{Expr::mod(I, Expr(4096)), {{"i", range(100, 10000)}}, {"i"}};
  Recorder R;
  ASSERT_TRUE(forEachAffinePiece(
      Box, [&](OffsetBox P) { return R(std::move(P)); }, 256));
  EXPECT_EQ(R.Pieces, 3);
  EXPECT_EQ(R.Points, Rational(9901));
  EXPECT_EQ(R.MinOffset, Rational(0));
  EXPECT_EQ(R.MaxOffset, Rational(4095));
}

TEST(OffsetPiecesTest, SelectOnTheLastRow) {
  // y < 99 ? y + 1 : y over y in [0, 99] (the lower neighbour, clamped):
  // cut at y = 99 -> [0, 98] gives y + 1 and {99} gives 99.
  Expr Y = sym("y");
  OffsetBox Box{Expr::select(CmpKind::LT, Y, Expr(99), Y + Expr(1), Y),
                {{"y", range(0, 99)}},
                {"y"}};
  Recorder R;
  ASSERT_TRUE(forEachAffinePiece(
      Box, [&](OffsetBox P) { return R(std::move(P)); }, 256));
  EXPECT_EQ(R.Pieces, 2);
  EXPECT_EQ(R.Points, Rational(100));
  EXPECT_EQ(R.MinOffset, Rational(1));
  EXPECT_EQ(R.MaxOffset, Rational(99));
}

TEST(OffsetPiecesTest, DigitUsedOutsideTheIndexIsNotRenamed) {
  // (256*b + t) % 4096 + t sees t outside the flat index: renaming the
  // index would lose t, so no cut applies and the caller splits its way.
  Expr T = sym("t"), B = sym("b");
  Expr Off = Expr::mod(Expr(256) * B + T, Expr(4096)) + T;
  OffsetBox Box{Off, {{"t", range(0, 255)}, {"b", range(0, 63)}}, {"t", "b"}};
  Recorder R;
  EXPECT_FALSE(forEachAffinePiece(
      Box, [&](OffsetBox P) { return R(std::move(P)); }, 256));
}

TEST(OffsetPiecesTest, SelectInEveryRowAndTheBudget) {
  // i % 16 == 0 ? 0 : i over i in [0, 65535]: 4096 rows of 16 with a
  // select in each, yet 3 pieces: the whole rows (q, m) = (i / 16, i % 16)
  // are cut once at m = 0 -> {m = 0} (offset 0) and m in [1, 15] (offset
  // 16*q + m), covering 4096 + 61440 = 65536 points, offsets 0..65535.
  Expr I = sym("i");
  Expr Off =
      Expr::select(CmpKind::EQ, Expr::mod(I, Expr(16)), Expr(0), Expr(0), I);
  OffsetBox Box{Off, {{"i", range(0, 65535)}}, {"i"}};
  Recorder R;
  ASSERT_TRUE(forEachAffinePiece(
      Box, [&](OffsetBox P) { return R(std::move(P)); }, 256));
  EXPECT_EQ(R.Pieces, 2);
  EXPECT_EQ(R.Points, Rational(65536));
  EXPECT_EQ(R.MinOffset, Rational(0));
  EXPECT_EQ(R.MaxOffset, Rational(65535));
  // The rows piece and its two parts are 3 pieces: a budget of 2 gives up.
  Recorder Small;
  EXPECT_FALSE(forEachAffinePiece(
      Box, [&](OffsetBox P) { return Small(std::move(P)); }, 2));
}

} // namespace
