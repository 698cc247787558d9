//===- FindingsTest.cpp - Which accesses are findings, and merging -------===//
//
// Part of cuda-roofline. Cases the bundled kernels do not produce: an
// access no thread of the launch runs, one without a source location, and
// the merge of one place's findings across reports.
//
//===----------------------------------------------------------------------===//

#include "Findings.h"

#include "gtest/gtest.h"

#include <functional>

using namespace roofline;

namespace {

// A global load whose lanes are 32 floats apart: 32 sectors where 4 would
// do (87.5 % of the fetched bytes unused).
AccessInfo stridedLoad(unsigned Line) {
  AccessInfo A;
  A.Loc.File = "k.cu";
  A.Loc.Line = Line;
  A.Loc.Column = 5;
  A.Base = "x";
  A.Expr = "x[i * 32]";
  A.Width = 4;
  A.Class = AccessClass::Strided;
  A.StrideElements = 32;
  SectorReport S;
  S.ActiveLanes = 32;
  S.Sectors = 32;
  S.BytesUsed = 128;
  S.BytesFetched = 32 * 32;
  S.Class = AccessClass::Strided;
  S.LaneStride = 128;
  A.Sectors = S;
  return A;
}

std::vector<Finding> findingsOf(const AccessInfo &A) {
  KernelFacts K;
  K.Name = "k";
  return buildFindings(K, {A}, FindingOptions());
}

TEST(FindingsTest, StridedLoadIsUncoalesced) {
  std::vector<Finding> F = findingsOf(stridedLoad(7));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Check, "roofline-uncoalesced-access");
  EXPECT_EQ(F[0].Loc.Line, 7u);
}

TEST(FindingsTest, UnreachableOrUnlocatedAccessIsNoFinding) {
  AccessInfo A = stridedLoad(7);
  A.Reachable = false;
  EXPECT_TRUE(findingsOf(A).empty());
  EXPECT_TRUE(findingsOf(stridedLoad(0)).empty());
}

TEST(FindingsTest, RunThatReachesTheNextLaneIsOnlyUnvectorized) {
  // Lanes 8 floats apart, each thread's loop covering 8 floats (32 B):
  // over the loop every fetched byte is used.
  AccessInfo A = stridedLoad(7);
  A.StrideElements = 8;
  A.Sectors->LaneStride = 32;
  A.VectorBytes = 16;
  A.RunBytes = 32;
  A.LoopLoc.Line = 6;
  std::vector<Finding> F = findingsOf(A);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Check, "roofline-unvectorized-access");
  // A run shorter than the lanes' distance leaves gaps: still uncoalesced.
  A.RunBytes = 16;
  F = findingsOf(A);
  ASSERT_EQ(F.size(), 2u);
  EXPECT_EQ(F[0].Check, "roofline-uncoalesced-access");
}

// A shared load of Base with the lanes at the byte offsets of F in an array
// of layout Dims (4-byte elements), each thread accessing Run bytes from
// its address.
AccessInfo sharedLoad(const std::string &Base,
                      const std::function<int64_t(unsigned)> &F,
                      std::vector<uint64_t> Dims, int64_t Run) {
  AccessInfo A;
  A.Loc.File = "k.cu";
  A.Loc.Line = 9;
  A.Loc.Column = 5;
  A.Space = MemSpace::Shared;
  A.Base = Base;
  A.Width = 4;
  LaneAddresses Lanes;
  for (unsigned L = 0; L < WarpSize; ++L)
    Lanes[L] = F(L);
  A.Banks = analyzeSharedRequest(Lanes, 4);
  SharedLayout Layout;
  Layout.Dims = std::move(Dims);
  Layout.ElementBytes = 4;
  Layout.AlignBytes = 4;
  A.BankFix = adviseBankConflict(Lanes, 4, *A.Banks, Layout, {0, Run});
  return A;
}

TEST(FindingsTest, BankConflictAcrossRowsIsPadded) {
  // tile[l][0] of float tile[32][32]: words 32l, all bank 0; rows of 33
  // give bank l (AccessPatternTest).
  std::vector<Finding> F = findingsOf(
      sharedLoad("tile", [](unsigned L) { return 128 * L; }, {32, 32}, 4));
  ASSERT_EQ(F.size(), 1u);
  ASSERT_EQ(F[0].Notes.size(), 1u);
  EXPECT_EQ(F[0].Notes[0].Message,
            "lanes 0, 1, 2, 3, ..., 31 read different words of bank 0, each "
            "in another row of 'tile'; pad each row of 'tile' to 33 elements "
            "([32][33]): no conflict, 1 wavefront per request");
}

TEST(FindingsTest, BankConflictWithinAPaddedRowIsNotPadded) {
  // tile[0][2l] of float tile[32][65], the thread also reading tile[0][2l +
  // 1]: lanes l and l + 16 two banks' turns apart in row 0 (2-way); one
  // float2 per lane is conflict-free but needs 8-byte rows (66 floats).
  std::vector<Finding> F = findingsOf(
      sharedLoad("tile", [](unsigned L) { return 8 * L; }, {32, 65}, 8));
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Message, "shared load of 'tile' has a 2-way bank conflict: 2 "
                          "wavefronts per request where 1 would do");
  ASSERT_EQ(F[0].Notes.size(), 1u);
  EXPECT_EQ(F[0].Notes[0].Message,
            "lanes 0, 16 read different words of bank 0 in one row of "
            "'tile': consecutive lanes access every 2nd word of it, so "
            "padding the rows cannot separate them; read each thread's 2 "
            "consecutive elements as one 8-byte vector access, with rows of "
            "66 elements ([32][66]) to keep it aligned: no conflict, 2 "
            "wavefronts per request for both elements; or have consecutive "
            "lanes access consecutive elements: no conflict, 1 wavefront per "
            "request");
  EXPECT_EQ(F[0].Notes[0].Message.find("pad each"), std::string::npos);
}

TEST(FindingsTest, BankConflictInOneDimensionalArray) {
  // s[8l] of float s[256]: banks 0, 8, 16, 24, 8-way; no rows to pad.
  std::vector<Finding> F =
      findingsOf(sharedLoad("s", [](unsigned L) { return 32 * L; }, {256}, 4));
  ASSERT_EQ(F.size(), 1u);
  ASSERT_EQ(F[0].Notes.size(), 1u);
  EXPECT_EQ(F[0].Notes[0].Message,
            "lanes 0, 4, 8, 12, ..., 28 read different words of bank 0 of "
            "'s' (a 1-D array): consecutive lanes access every 8th word of "
            "it; have consecutive lanes access consecutive elements: no "
            "conflict, 1 wavefront per request");
}

TEST(FindingsTest, BankConflictPaddingThatOnlyLowersIt) {
  // t[8l][0] of float t[256][32]: 32-way; rows of 33 leave 8-way (banks 0,
  // 8, 16, 24) and neither padding nor the swizzle does better.
  std::vector<Finding> F = findingsOf(
      sharedLoad("t", [](unsigned L) { return 1024 * L; }, {256, 32}, 4));
  ASSERT_EQ(F.size(), 1u);
  ASSERT_EQ(F[0].Notes.size(), 1u);
  EXPECT_EQ(F[0].Notes[0].Message,
            "lanes 0, 1, 2, 3, ..., 31 read different words of bank 0, each "
            "in another row of 't'; padding each row of 't' to 33 elements "
            "([256][33]) leaves an 8-way conflict, 8 wavefronts per request "
            "(no padding that keeps its accesses aligned does better); "
            "removing it takes another mapping of threads to elements");
}

TEST(FindingsTest, BankConflictSwizzleWherePaddingFalls) {
  // AccessPatternTest's t[l][l % 8] of bf16 t[32][64], read as pairs
  // elsewhere: padding leaves 2 wavefronts, the swizzle of 4-byte units
  // (bf16 column c ^ 2r) none.
  AccessInfo A;
  A.Loc.File = "k.cu";
  A.Loc.Line = 9;
  A.Loc.Column = 5;
  A.Space = MemSpace::Shared;
  A.Base = "t";
  A.Width = 2;
  LaneAddresses Lanes;
  for (unsigned L = 0; L < WarpSize; ++L)
    Lanes[L] = 128 * L + 2 * (L % 8);
  A.Banks = analyzeSharedRequest(Lanes, 2);
  SharedLayout Layout;
  Layout.Dims = {32, 64};
  Layout.ElementBytes = 2;
  Layout.AlignBytes = 4;
  A.BankFix = adviseBankConflict(Lanes, 2, *A.Banks, Layout, {0, 2});
  std::vector<Finding> F = findingsOf(A);
  ASSERT_EQ(F.size(), 1u);
  ASSERT_EQ(F[0].Notes.size(), 1u);
  EXPECT_EQ(F[0].Notes[0].Message,
            "lanes 0, 1, 8, 9, ..., 25 read different words of bank 0, each "
            "in another row of 't'; padding each row of 't' to 66 elements "
            "([32][66]) leaves a 2-way conflict, 2 wavefronts per request (no "
            "padding that keeps its accesses aligned does better); swizzling "
            "the column with the row instead, element [r][c] at [r][c ^ (r * "
            "2)] in every access of 't', gives no conflict, 1 wavefront per "
            "request");
}

TEST(FindingsTest, OnePlaceAcrossReports) {
  auto At = [](unsigned Line, std::string Message) {
    Finding F;
    F.Check = "roofline-bank-conflict";
    F.Loc.File = "k.cuh";
    F.Loc.Line = Line;
    F.Loc.Column = 3;
    F.Message = std::move(Message);
    return F;
  };
  std::vector<Finding> A = {
      At(4, "store has a 2-way bank conflict: 2 wavefronts"),
      At(9, "load has a 4-way bank conflict")};
  std::vector<Finding> B = {
      At(4, "store has a 4-way bank conflict: 4 wavefronts"),
      At(9, "load has a 4-way bank conflict")};
  std::vector<Finding> C = {
      At(4, "store has a 2-way bank conflict: 2 wavefronts")};
  std::vector<ReportFindings> Reports = {
      {"'t<64>'", &A}, {"'t<128>'", &B}, {"'t<32>'", &C}};
  mergeAcrossReports(Reports);
  ASSERT_EQ(A.size(), 2u);
  // Different messages: their common beginning, each variant once with
  // the first report that has it.
  EXPECT_EQ(A[0].Message, "store has a 2-way bank conflict: 2 wavefronts "
                          "(in 't<64>'); 4-way bank conflict: 4 wavefronts "
                          "(in 't<128>')");
  // The same message: said once.
  EXPECT_EQ(A[1].Message, "load has a 4-way bank conflict");
  EXPECT_TRUE(B.empty());
  EXPECT_TRUE(C.empty());
}

TEST(FindingsTest, KernelLevelFindingsStayPerReport) {
  Finding F;
  F.Check = "roofline-memory-bound";
  F.Loc.File = "k.cu";
  F.Loc.Line = 1;
  F.Message = "kernel 'k' is memory-bound";
  std::vector<Finding> A = {F}, B = {F};
  std::vector<ReportFindings> Reports = {{"'k' with bs=64", &A},
                                         {"'k' with bs=128", &B}};
  mergeAcrossReports(Reports);
  EXPECT_EQ(A.size(), 1u);
  EXPECT_EQ(B.size(), 1u);
}

TEST(FindingsTest, NotesNameTheirOwnFile) {
  // An access of a header's helper, in a loop of the kernel's file: the
  // loop's note is in the kernel's file, the access's in the header.
  AccessInfo A = stridedLoad(7);
  A.Loc.File = "common.h";
  A.StrideElements = 8;
  A.Sectors->LaneStride = 32;
  A.VectorBytes = 16;
  A.RunBytes = 32;
  A.LoopLoc.File = "k.cu";
  A.LoopLoc.Line = 12;
  A.LoopLoc.Column = 3;
  std::vector<Finding> F = findingsOf(A);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Loc.File, "common.h");
  ASSERT_EQ(F[0].Notes.size(), 1u);
  EXPECT_EQ(F[0].Notes[0].Loc.File, "k.cu");
  EXPECT_EQ(F[0].Notes[0].Loc.Line, 12u);
  A.RunBytes = 16;
  F = findingsOf(A);
  ASSERT_EQ(F.size(), 2u);
  ASSERT_EQ(F[0].Notes.size(), 1u);
  EXPECT_EQ(F[0].Notes[0].Loc.File, "common.h");
  EXPECT_EQ(F[0].Notes[0].Loc.Line, 7u);
}

TEST(FindingsTest, NotAnalyzedNoteAtAnErrorInAnotherFile) {
  NotAnalyzed N;
  N.Kind = "kernel";
  N.Name = "k";
  N.Loc = {"k.cu", 4, 17};
  N.Error.Message = "use of undeclared identifier 'g'";
  N.Error.Where = {"common.h", 4, 17};
  std::vector<Finding> F = buildNotAnalyzedFindings({N});
  ASSERT_EQ(F.size(), 1u);
  ASSERT_EQ(F[0].Notes.size(), 1u);
  EXPECT_EQ(F[0].Notes[0].Loc.File, "common.h");
  EXPECT_EQ(F[0].Notes[0].Loc.Line, 4u);
  // At the declaration itself, the warning says it all.
  N.Error.Where = N.Loc;
  EXPECT_TRUE(buildNotAnalyzedFindings({N})[0].Notes.empty());
}

} // namespace
