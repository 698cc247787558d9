//===- FootprintTest.cpp - Unit tests for byte-interval footprints --------===//
//
// Part of cuda-roofline.
//
//===----------------------------------------------------------------------===//

#include "Footprint.h"

#include "gtest/gtest.h"

#include <utility>
#include <vector>

using namespace roofline;

namespace {

using Ranges = std::vector<std::pair<int64_t, int64_t>>;

TEST(IntervalSetTest, AddNormalizeSize) {
  IntervalSet S;
  S.add(30, 40);
  S.add(0, 10);
  S.add(5, 20);  // Overlaps [0, 10): merges to [0, 20).
  S.add(40, 45); // Touches [30, 40): merges to [30, 45).
  S.add(50, 50); // Empty: ignored.
  S.add(60, 55); // Reversed: ignored.
  EXPECT_EQ(S.ranges(), (Ranges{{0, 20}, {30, 45}}));
  // 20 + 15 = 35 bytes.
  EXPECT_EQ(S.size(), 35u);
  EXPECT_FALSE(S.overflowed());
  // Adding a range that covers the gap joins everything: [0, 45).
  S.add(18, 32);
  EXPECT_EQ(S.ranges(), (Ranges{{0, 45}}));
  EXPECT_EQ(S.size(), 45u);
  // Duplicates count once.
  IntervalSet D;
  for (int I = 0; I < 5; ++I)
    D.add(100, 104);
  EXPECT_EQ(D.size(), 4u);
  // Negative offsets are fine: [-8, 8) is 16 bytes.
  IntervalSet N;
  N.add(-8, 0);
  N.add(0, 8);
  EXPECT_EQ(N.ranges(), (Ranges{{-8, 8}}));
  EXPECT_EQ(N.size(), 16u);
}

TEST(IntervalSetTest, IntersectionSize) {
  IntervalSet A, B;
  A.add(0, 20);
  A.add(30, 45);
  B.add(15, 35);
  // [15, 20) + [30, 35) = 5 + 5 = 10.
  EXPECT_EQ(IntervalSet::intersectionSize(A, B), 10u);
  EXPECT_EQ(IntervalSet::intersectionSize(B, A), 10u);
  // Disjoint sets: 0. Touching ranges [45, 50) share no byte.
  IntervalSet C;
  C.add(45, 50);
  C.add(-10, 0);
  EXPECT_EQ(IntervalSet::intersectionSize(A, C), 0u);
  // A set with itself: its size, 35.
  EXPECT_EQ(IntervalSet::intersectionSize(A, A), 35u);
  // Many small ranges against one big one: 10 ranges of 4 bytes at stride
  // 16 from 0 (0..148) against [0, 80): ranges at 0,16,32,48,64 -> 5*4 = 20.
  IntervalSet Strided, Big;
  for (int I = 0; I < 10; ++I)
    Strided.add(16 * I, 16 * I + 4);
  Big.add(0, 80);
  EXPECT_EQ(IntervalSet::intersectionSize(Strided, Big), 20u);
  // Ranges ending at the same point on both sides.
  IntervalSet E1, E2;
  E1.add(0, 10);
  E2.add(0, 10);
  E2.add(12, 20);
  // [0,10) & ([0,10) | [12,20)) = 10.
  EXPECT_EQ(IntervalSet::intersectionSize(E1, E2), 10u);
}

TEST(AffineBoxTest, Contiguous) {
  // x[v] for v in [0, 100), 4-byte floats: offset 4v, width 4 -> one range
  // [0, 400).
  IntervalSet S;
  ASSERT_TRUE(addAffineBox(S, 0, {{4, 100}}, 4, 1000));
  EXPECT_EQ(S.ranges(), (Ranges{{0, 400}}));
  EXPECT_EQ(S.size(), 400u);
  // With a base offset of 1000 bytes: [1000, 1400).
  IntervalSet T;
  ASSERT_TRUE(addAffineBox(T, 1000, {{4, 100}}, 4, 1000));
  EXPECT_EQ(T.ranges(), (Ranges{{1000, 1400}}));
}

TEST(AffineBoxTest, Strided) {
  // Offset 16v, width 4, v in [0, 100): 100 separate ranges [16v, 16v + 4),
  // 100*4 = 400 bytes; the last one starts at 16*99 = 1584.
  IntervalSet S;
  ASSERT_TRUE(addAffineBox(S, 0, {{16, 100}}, 4, 1000));
  const Ranges &R = S.ranges();
  ASSERT_EQ(R.size(), 100u);
  EXPECT_EQ(R.front(), std::make_pair(int64_t(0), int64_t(4)));
  EXPECT_EQ(R.back(), std::make_pair(int64_t(1584), int64_t(1588)));
  EXPECT_EQ(S.size(), 400u);
  // More ranges than allowed: refused, nothing added.
  IntervalSet Small;
  EXPECT_FALSE(addAffineBox(Small, 0, {{16, 100}}, 4, 50));
  EXPECT_EQ(Small.size(), 0u);
}

TEST(AffineBoxTest, RowMajorMergesToOneRange) {
  // A[r][c] of a 8x64 float matrix, row-major: offset 4*(64r + c) = 256r +
  // 4c. Column stride 4 = width -> run of 64*4 = 256 bytes; row stride 256 =
  // run -> all 8 rows join: one range of 8*256 = 2048 bytes from C0 = 1000.
  IntervalSet S;
  ASSERT_TRUE(addAffineBox(S, 1000, {{256, 8}, {4, 64}}, 4, 1));
  EXPECT_EQ(S.ranges(), (Ranges{{1000, 3048}}));
  EXPECT_EQ(S.size(), 2048u);
}

TEST(AffineBoxTest, SubmatrixTile) {
  // A 8x16 float tile of a matrix with 1024 floats per row: row stride
  // 4096 bytes, 16 columns -> 8 ranges of 64 bytes = 512 bytes.
  IntervalSet S;
  ASSERT_TRUE(addAffineBox(S, 0, {{4096, 8}, {4, 16}}, 4, 1000));
  const Ranges &R = S.ranges();
  ASSERT_EQ(R.size(), 8u);
  EXPECT_EQ(R[1], std::make_pair(int64_t(4096), int64_t(4160)));
  EXPECT_EQ(S.size(), 512u);
}

TEST(AffineBoxTest, NegativeCoefficient) {
  // Offset 400 - 4v for v in [0, 100): lowest 400 - 396 = 4, highest 400;
  // with width 4 the bytes are [4, 404) = 400 bytes in one range.
  IntervalSet S;
  ASSERT_TRUE(addAffineBox(S, 400, {{-4, 100}}, 4, 1000));
  EXPECT_EQ(S.ranges(), (Ranges{{4, 404}}));
  EXPECT_EQ(S.size(), 400u);
  // Negative and strided: 1000 - 16v, v in [0, 4): 952, 968, 984, 1000.
  IntervalSet T;
  ASSERT_TRUE(addAffineBox(T, 1000, {{-16, 4}}, 4, 1000));
  EXPECT_EQ(T.ranges(),
            (Ranges{{952, 956}, {968, 972}, {984, 988}, {1000, 1004}}));
}

TEST(AffineBoxTest, OverlappingStrides) {
  // 4a + 8b, a, b in [0, 10): every multiple of 4 from 0 to 36 + 72 = 108,
  // so with width 4 the bytes are [0, 112).
  IntervalSet S;
  ASSERT_TRUE(addAffineBox(S, 0, {{4, 10}, {8, 10}}, 4, 1));
  EXPECT_EQ(S.ranges(), (Ranges{{0, 112}}));
  EXPECT_EQ(S.size(), 112u);
  // Accesses wider than their stride overlap: 12v, v in [0, 3), width 16:
  // [0,16) [12,28) [24,40) -> [0, 40).
  IntervalSet T;
  ASSERT_TRUE(addAffineBox(T, 0, {{12, 3}}, 16, 1));
  EXPECT_EQ(T.ranges(), (Ranges{{0, 40}}));
  // Stride 4 with 8-byte accesses, v in [0, 10): [0, 36 + 8) = [0, 44).
  IntervalSet U;
  ASSERT_TRUE(addAffineBox(U, 0, {{4, 10}}, 8, 1));
  EXPECT_EQ(U.size(), 44u);
  // A stride larger than the run after merging: 4a (a in [0,2)) + 16b (b in
  // [0,3)): run [0,8) repeated at 0, 16, 32 -> 3 ranges, 24 bytes.
  IntervalSet V;
  ASSERT_TRUE(addAffineBox(V, 0, {{16, 3}, {4, 2}}, 4, 100));
  EXPECT_EQ(V.ranges(), (Ranges{{0, 8}, {16, 24}, {32, 40}}));
}

TEST(AffineBoxTest, DegenerateVariables) {
  // Coefficient 0 (a broadcast) and count 1 add nothing: one 4-byte range.
  IntervalSet S;
  ASSERT_TRUE(addAffineBox(S, 8, {{0, 1000}, {4, 1}}, 4, 1));
  EXPECT_EQ(S.ranges(), (Ranges{{8, 12}}));
  // An empty variable range means an empty box.
  IntervalSet E;
  ASSERT_TRUE(addAffineBox(E, 0, {{4, 0}}, 4, 1));
  EXPECT_EQ(E.size(), 0u);
}

} // namespace
