//===- FootprintSetTest.cpp - Lattice footprints and their overlaps -------===//
//
// Part of cuda-roofline.
//
// A FootprintSet keeps an access of Width bytes at C0 + sum(Coef_i * v_i),
// v_i in [0, N_i), as a lattice key {(Coef, N)} (the variables whose stride
// exceeds the contiguous run) plus the run [C0, C0 + Run) it translates.
// overlap() sizes |A|, |B| and |A n B| for reads and writes of one buffer,
// multiplying when both sides share a lattice whose copies cannot overlap,
// else expanding the lattices into plain ranges within a budget of 2^22.
//
//===----------------------------------------------------------------------===//

#include "Footprint.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <utility>
#include <vector>

using namespace roofline;

namespace {

using Ranges = std::vector<std::pair<int64_t, int64_t>>;
using Key = FootprintSet::Key;

constexpr int64_t MiB = int64_t(1) << 20;

/// The accesses x[4*t + Lane] (floats) for t in [0, Threads): one per lane,
/// offset 16*t + 4*Lane, width 4 -- a float4 read lane by lane.
FootprintSet lanes(int64_t Threads, std::vector<int64_t> Lanes) {
  FootprintSet S;
  for (int64_t L : Lanes)
    EXPECT_TRUE(S.addBox(4 * L, {{16, Threads}}, 4));
  return S;
}

//===----------------------------------------------------------------------===//
// addBox / canonicalize
//===----------------------------------------------------------------------===//

TEST(FootprintSetTest, AddBoxKeysAndRuns) {
  // Stride 4 = width: contiguous, no lattice left: [0, 4*100) under key {}.
  FootprintSet Flat;
  ASSERT_TRUE(Flat.addBox(0, {{4, 100}}, 4));
  ASSERT_EQ(Flat.groups().size(), 1u);
  EXPECT_EQ(Flat.groups().begin()->first, Key());
  EXPECT_EQ(Flat.groups().begin()->second.ranges(), (Ranges{{0, 400}}));
  // Stride 16 > width 4: key {(16, 100)}, run [8, 12) (C0 = 8).
  FootprintSet Strided;
  ASSERT_TRUE(Strided.addBox(8, {{16, 100}}, 4));
  ASSERT_EQ(Strided.groups().size(), 1u);
  EXPECT_EQ(Strided.groups().begin()->first, (Key{{16, 100}}));
  EXPECT_EQ(Strided.groups().begin()->second.ranges(), (Ranges{{8, 12}}));
  // A 2-D tile: columns 4*c (c < 16) join into a 64-byte run; rows 4096*r
  // (r < 8) stay the lattice. Unsorted input is sorted.
  FootprintSet Tile;
  ASSERT_TRUE(Tile.addBox(0, {{4096, 8}, {4, 16}}, 4));
  EXPECT_EQ(Tile.groups().begin()->first, (Key{{4096, 8}}));
  EXPECT_EQ(Tile.groups().begin()->second.ranges(), (Ranges{{0, 64}}));
  // Negative coefficient: 1000 - 16v, v < 4 -> lowest 1000 - 48 = 952,
  // key {(16, 4)}, run [952, 956).
  FootprintSet Neg;
  ASSERT_TRUE(Neg.addBox(1000, {{-16, 4}}, 4));
  EXPECT_EQ(Neg.groups().begin()->first, (Key{{16, 4}}));
  EXPECT_EQ(Neg.groups().begin()->second.ranges(), (Ranges{{952, 956}}));
  // Broadcast (coef 0) and count 1 vanish; an empty range adds nothing.
  FootprintSet Deg;
  ASSERT_TRUE(Deg.addBox(8, {{0, 1000}, {64, 1}}, 4));
  EXPECT_EQ(Deg.groups().begin()->first, Key());
  EXPECT_EQ(Deg.groups().begin()->second.ranges(), (Ranges{{8, 12}}));
  FootprintSet Empty;
  ASSERT_TRUE(Empty.addBox(0, {{16, 0}}, 4));
  EXPECT_TRUE(Empty.empty());
}

TEST(FootprintSetTest, InterleavedLanesCanonicalizeToOneRange) {
  // 1M threads, each reading floats at 16t, 16t + 4, 16t + 8, 16t + 12.
  // Each access alone: key {(16, 2^20)} with runs [0,4), [4,8), [8,12),
  // [12,16); together the run is [0, 16).
  const int64_t T = int64_t(1) << 20;
  FootprintSet S = lanes(T, {0, 1, 2, 3});
  ASSERT_EQ(S.groups().size(), 1u);
  EXPECT_EQ(S.groups().begin()->first, (Key{{16, T}}));
  EXPECT_EQ(S.groups().begin()->second.ranges(), (Ranges{{0, 16}}));
  // Stride 16 = run length: the copies touch, so the lattice folds into one
  // range of 16 + 16*(2^20 - 1) = 16*2^20 bytes = 16 MiB.
  S.canonicalize();
  ASSERT_EQ(S.groups().size(), 1u);
  EXPECT_EQ(S.groups().begin()->first, Key());
  EXPECT_EQ(S.groups().begin()->second.ranges(), (Ranges{{0, 16 * MiB}}));
  EXPECT_EQ(S.groups().begin()->second.size(), uint64_t(16 * MiB));
  // Lanes 0 and 2 only: runs [0,4) and [8,12) are two ranges, which stay a
  // lattice (nothing to fold).
  FootprintSet Half = lanes(T, {0, 2});
  Half.canonicalize();
  ASSERT_EQ(Half.groups().size(), 1u);
  EXPECT_EQ(Half.groups().begin()->first, (Key{{16, T}}));
  EXPECT_EQ(Half.groups().begin()->second.ranges(), (Ranges{{0, 4}, {8, 12}}));
}

TEST(FootprintSetTest, CanonicalizeFoldsOnlyTouchingStrides) {
  // A single run [0, 64) under key {(64, 8), (4096, 4)} (8 rows of 64
  // bytes at stride 64, 4 such blocks at stride 4096): the first stride
  // equals the run -> run 64*8 = 512; 4096 > 512 stays.
  FootprintSet S;
  ASSERT_TRUE(S.addBox(0, {{4, 16}, {64, 8}, {4096, 4}}, 4));
  // addBox alone already folds 4*c (c < 16) -> run 64, and then 64 <= 64
  // -> run 512; the key is {(4096, 4)}.
  EXPECT_EQ(S.groups().begin()->first, (Key{{4096, 4}}));
  EXPECT_EQ(S.groups().begin()->second.ranges(), (Ranges{{0, 512}}));
  // The same shape arrived at by merging two half runs: [0,32) and [32,64)
  // from two accesses with key {(64, 8), (4096, 4)}; canonicalize joins the
  // run [0, 64), folds stride 64 (-> 512), keeps 4096.
  FootprintSet T;
  ASSERT_TRUE(T.addBox(0, {{4, 8}, {64, 8}, {4096, 4}}, 4));
  ASSERT_TRUE(T.addBox(32, {{4, 8}, {64, 8}, {4096, 4}}, 4));
  EXPECT_EQ(T.groups().begin()->first, (Key{{64, 8}, {4096, 4}}));
  T.canonicalize();
  ASSERT_EQ(T.groups().size(), 1u);
  EXPECT_EQ(T.groups().begin()->first, (Key{{4096, 4}}));
  EXPECT_EQ(T.groups().begin()->second.ranges(), (Ranges{{0, 512}}));
  // Sizes: 4 blocks x 512 = 2048 bytes either way.
  auto O = overlap(S, T);
  ASSERT_TRUE(O.has_value());
  EXPECT_EQ(O->A, 2048u);
  EXPECT_EQ(O->B, 2048u);
  EXPECT_EQ(O->Both, 2048u);
}

TEST(FootprintSetTest, Merge) {
  // Lanes 0 and 1 in one set, 2 and 3 in another: merged, the same run
  // [0, 16) under key {(16, 64)}.
  FootprintSet A = lanes(64, {0, 1}), B = lanes(64, {2, 3});
  A.merge(B);
  ASSERT_EQ(A.groups().size(), 1u);
  EXPECT_EQ(A.groups().begin()->first, (Key{{16, 64}}));
  EXPECT_EQ(A.groups().begin()->second.ranges(), (Ranges{{0, 16}}));
  // Plain ranges go under the empty key, beside it.
  A.addRange(5000, 5010);
  EXPECT_EQ(A.groups().size(), 2u);
  EXPECT_EQ(A.groups()[Key()].ranges(), (Ranges{{5000, 5010}}));
}

//===----------------------------------------------------------------------===//
// overlap
//===----------------------------------------------------------------------===//

TEST(FootprintOverlapTest, InterleavedExactWithoutEnumerating) {
  // 8M threads (2^23), four lanes each on both sides: each side folds to
  // one range of 16*2^23 = 128 MiB, so |R| = |W| = |R n W| = 128 MiB.
  // Unfolded, one lattice of 2^23 copies alone exceeds the 2^22 expansion
  // budget: only the fold makes this computable.
  const int64_t T = int64_t(1) << 23;
  FootprintSet R = lanes(T, {0, 1, 2, 3}), W = lanes(T, {0, 1, 2, 3});
  auto O = overlap(R, W);
  ASSERT_TRUE(O.has_value());
  EXPECT_EQ(O->A, uint64_t(128 * MiB));
  EXPECT_EQ(O->B, uint64_t(128 * MiB));
  EXPECT_EQ(O->Both, uint64_t(128 * MiB));
}

TEST(FootprintOverlapTest, InterleavedAgainstOneLane) {
  // 1M threads reading all four lanes (one 16 MiB range) and writing lane 0
  // (bytes [16t, 16t + 4), 2^20 ranges, within the budget): |R| = 16 MiB,
  // |W| = 4 * 2^20 = 4 MiB, all written bytes are read: |R n W| = 4 MiB.
  const int64_t T = int64_t(1) << 20;
  FootprintSet R = lanes(T, {0, 1, 2, 3}), W = lanes(T, {0});
  auto O = overlap(R, W);
  ASSERT_TRUE(O.has_value());
  EXPECT_EQ(O->A, uint64_t(16 * MiB));
  EXPECT_EQ(O->B, uint64_t(4 * MiB));
  EXPECT_EQ(O->Both, uint64_t(4 * MiB));
}

TEST(FootprintOverlapTest, SameLatticeMultiplies) {
  // Reads: 8 bytes at 64t (a double per 64-byte record), t < 1000.
  // Writes: 8 bytes at 64t + 4. Both key {(64, 1000)}; runs [0, 8) and
  // [4, 12) span 12 <= 64 bytes, so copies cannot overlap:
  // |R| = 1000*8 = 8000, |W| = 8000, |R n W| = 1000 * |[4, 8)| = 4000.
  FootprintSet R, W;
  ASSERT_TRUE(R.addBox(0, {{64, 1000}}, 8));
  ASSERT_TRUE(W.addBox(4, {{64, 1000}}, 8));
  auto O = overlap(R, W);
  ASSERT_TRUE(O.has_value());
  EXPECT_EQ(O->A, 8000u);
  EXPECT_EQ(O->B, 8000u);
  EXPECT_EQ(O->Both, 4000u);
  // With 2^30 records the same holds by multiplication (expansion would be
  // far past the budget): 8 * 2^30, 8 * 2^30, 4 * 2^30.
  const int64_t Big = int64_t(1) << 30;
  FootprintSet RB, WB;
  ASSERT_TRUE(RB.addBox(0, {{64, Big}}, 8));
  ASSERT_TRUE(WB.addBox(4, {{64, Big}}, 8));
  auto OB = overlap(RB, WB);
  ASSERT_TRUE(OB.has_value());
  EXPECT_EQ(OB->A, uint64_t(8) * uint64_t(Big));
  EXPECT_EQ(OB->B, uint64_t(8) * uint64_t(Big));
  EXPECT_EQ(OB->Both, uint64_t(4) * uint64_t(Big));
  // Disjoint runs of one lattice: reads [0,4), writes [8,12) at stride 16,
  // t < 100: 400, 400, 0.
  FootprintSet RD, WD;
  ASSERT_TRUE(RD.addBox(0, {{16, 100}}, 4));
  ASSERT_TRUE(WD.addBox(8, {{16, 100}}, 4));
  auto OD = overlap(RD, WD);
  ASSERT_TRUE(OD.has_value());
  EXPECT_EQ(OD->A, 400u);
  EXPECT_EQ(OD->B, 400u);
  EXPECT_EQ(OD->Both, 0u);
}

TEST(FootprintOverlapTest, TwoLevelLatticeMultiplies) {
  // A 16x16 tile of floats (rows of 64 bytes at stride 4096) repeated for 32
  // tiles at stride 2^20: key {(4096, 16), (2^20, 32)}, run [0, 64).
  // Extent of one tile: 64 + 4096*15 = 61504 <= 2^20, so copies are
  // disjoint. Reads the tile, writes its first half-row [0, 32):
  // |R| = 16*32*64 = 32768, |W| = 16*32*32 = 16384, |R n W| = 16384.
  FootprintSet R, W;
  ASSERT_TRUE(R.addBox(0, {{4, 16}, {4096, 16}, {MiB, 32}}, 4));
  ASSERT_TRUE(W.addBox(0, {{4, 8}, {4096, 16}, {MiB, 32}}, 4));
  auto O = overlap(R, W);
  ASSERT_TRUE(O.has_value());
  EXPECT_EQ(O->A, 32768u);
  EXPECT_EQ(O->B, 16384u);
  EXPECT_EQ(O->Both, 16384u);
}

TEST(FootprintOverlapTest, OverlappingCopiesOfOneLattice) {
  // Two accesses on the same lattice {(16, 10)}: x[4t] at 16t and x[4t + 8]
  // at 16t + 32, t < 10. The runs [0, 4) and [32, 36) span 36 > 16, so the
  // copies may collide and the sizes come from expansion:
  // {16t : t < 10} u {16t : 2 <= t < 12} = {16t : t < 12} -> 12 * 4 = 48
  // bytes (not 10 * 8 = 80).
  FootprintSet R;
  ASSERT_TRUE(R.addBox(0, {{16, 10}}, 4));
  ASSERT_TRUE(R.addBox(32, {{16, 10}}, 4));
  FootprintSet None;
  auto O = overlap(R, None);
  ASSERT_TRUE(O.has_value());
  EXPECT_EQ(O->A, 48u);
  EXPECT_EQ(O->B, 0u);
  EXPECT_EQ(O->Both, 0u);
  // Against writes of x[4t] for t < 12 (16t, key {(16, 12)}): a different
  // lattice, expanded too; 48 bytes, all shared.
  FootprintSet W;
  ASSERT_TRUE(W.addBox(0, {{16, 12}}, 4));
  auto OW = overlap(R, W);
  ASSERT_TRUE(OW.has_value());
  EXPECT_EQ(OW->A, 48u);
  EXPECT_EQ(OW->B, 48u);
  EXPECT_EQ(OW->Both, 48u);
}

TEST(FootprintOverlapTest, DifferentLatticesExpand) {
  // Reads 4 bytes at 16k (k < 100): 400 bytes. Writes 8 bytes at 32j
  // (j < 50): 400 bytes. Read ranges with k = 2j lie inside [32j, 32j + 8):
  // 4 bytes each for j < 50 = 200; odd k (32j + 16) miss. |R n W| = 200.
  FootprintSet R, W;
  ASSERT_TRUE(R.addBox(0, {{16, 100}}, 4));
  ASSERT_TRUE(W.addBox(0, {{32, 50}}, 8));
  auto O = overlap(R, W);
  ASSERT_TRUE(O.has_value());
  EXPECT_EQ(O->A, 400u);
  EXPECT_EQ(O->B, 400u);
  EXPECT_EQ(O->Both, 200u);
  // A lattice against plain ranges: [0, 100) holds the read ranges at
  // 0, 16, ..., 96 (7 of them) -> 28 shared bytes.
  FootprintSet P;
  P.addRange(0, 100);
  auto OP = overlap(R, P);
  ASSERT_TRUE(OP.has_value());
  EXPECT_EQ(OP->A, 400u);
  EXPECT_EQ(OP->B, 100u);
  EXPECT_EQ(OP->Both, 28u);
}

TEST(FootprintOverlapTest, ExpansionFollowsTheSet) {
  // A wave of blocks as the cache model sees it: a partial row and whole
  // rows of C's stores, two lattices of one buffer. Rows: 4 bytes at
  // 16384*t + 4*y + 524288*x (t < 32, y < 32, x < 2) and, for the partial
  // row, 4 bytes at 16384*t + 4*y + 128 + 1048576 (t < 32, y < 32): 2 * 32
  // runs of 128 bytes and 32 runs of 128 bytes, 8192 + 4096 = 12288 bytes,
  // every run apart from the others.
  FootprintSet C;
  ASSERT_TRUE(C.addBox(0, {{16384, 32}, {4, 32}, {524288, 2}}, 4));
  ASSERT_TRUE(C.addBox(1048576 + 128, {{16384, 32}, {4, 32}}, 4));
  FootprintSet None;
  auto O = overlap(C, None);
  ASSERT_TRUE(O.has_value());
  EXPECT_EQ(O->A, 12288u);
  // The expansion was kept for the next comparison; a range added since
  // is in the next one: [1048576, 1048576 + 128) is the 128 bytes before
  // the partial row's first run, new -> 12416; and the run it abuts is
  // not counted twice.
  C.addRange(1048576, 1048576 + 128);
  auto O2 = overlap(C, None);
  ASSERT_TRUE(O2.has_value());
  EXPECT_EQ(O2->A, 12416u);
  // Against itself after a merge: every byte shared.
  FootprintSet D;
  D.merge(C);
  auto O3 = overlap(C, D);
  ASSERT_TRUE(O3.has_value());
  EXPECT_EQ(O3->A, 12416u);
  EXPECT_EQ(O3->B, 12416u);
  EXPECT_EQ(O3->Both, 12416u);
}

TEST(FootprintOverlapTest, EmptySides) {
  // Nothing on either side: all zero.
  FootprintSet E1, E2;
  auto O = overlap(E1, E2);
  ASSERT_TRUE(O.has_value());
  EXPECT_EQ(O->A, 0u);
  EXPECT_EQ(O->B, 0u);
  EXPECT_EQ(O->Both, 0u);
  // One lattice side only (2^30 copies of 8 bytes, by multiplication).
  FootprintSet R, None;
  ASSERT_TRUE(R.addBox(0, {{64, int64_t(1) << 30}}, 8));
  auto OR = overlap(None, R);
  ASSERT_TRUE(OR.has_value());
  EXPECT_EQ(OR->A, 0u);
  EXPECT_EQ(OR->B, uint64_t(8) << 30);
  EXPECT_EQ(OR->Both, 0u);
}

TEST(FootprintOverlapTest, BeyondBudgetIsNullopt) {
  // Reads at stride 16 over 2^23 threads (lanes 0 and 2: two ranges per
  // copy, no fold) against writes at stride 32 over 2^22: different keys,
  // so the reads must be expanded: 2^23 copies x 2 ranges = 2^24 > 2^22.
  FootprintSet R = lanes(int64_t(1) << 23, {0, 2});
  FootprintSet W;
  ASSERT_TRUE(W.addBox(0, {{32, int64_t(1) << 22}}, 4));
  EXPECT_FALSE(overlap(R, W).has_value());
  // A single lattice too many copies to expand, against a plain range:
  // 2^22 + 1 copies > 2^22.
  FootprintSet L, P;
  ASSERT_TRUE(L.addBox(0, {{16, (int64_t(1) << 22) + 1}}, 4));
  P.addRange(0, 4);
  EXPECT_FALSE(overlap(L, P).has_value());
  // Exactly at the budget (2^22 copies of one range) still works:
  // |L2| = 4 * 2^22 = 16 MiB; only [0, 4) is shared with P.
  FootprintSet L2, P2;
  ASSERT_TRUE(L2.addBox(0, {{16, int64_t(1) << 22}}, 4));
  P2.addRange(0, 4);
  auto O = overlap(L2, P2);
  ASSERT_TRUE(O.has_value());
  EXPECT_EQ(O->A, uint64_t(16 * MiB));
  EXPECT_EQ(O->B, 4u);
  EXPECT_EQ(O->Both, 4u);
}

} // namespace
