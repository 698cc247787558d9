//===- FindingsTest.cpp - Which accesses are findings, and merging -------===//
//
// Part of cuda-roofline. Cases the bundled kernels do not produce: an
// access no thread of the launch runs, one without a source location, and
// the merge of one place's findings across reports.
//
//===----------------------------------------------------------------------===//

#include "Findings.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

// A global load whose lanes are 32 floats apart: 32 sectors where 4 would
// do (87.5 % of the fetched bytes unused).
AccessInfo stridedLoad(unsigned Line) {
  AccessInfo A;
  A.File = "k.cu";
  A.Line = Line;
  A.Column = 5;
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
  EXPECT_EQ(F[0].Line, 7u);
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
  A.LoopLine = 6;
  std::vector<Finding> F = findingsOf(A);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Check, "roofline-unvectorized-access");
  // A run shorter than the lanes' distance leaves gaps: still uncoalesced.
  A.RunBytes = 16;
  F = findingsOf(A);
  ASSERT_EQ(F.size(), 2u);
  EXPECT_EQ(F[0].Check, "roofline-uncoalesced-access");
}

TEST(FindingsTest, OnePlaceAcrossReports) {
  auto At = [](unsigned Line, std::string Message) {
    Finding F;
    F.Check = "roofline-bank-conflict";
    F.File = "k.cuh";
    F.Line = Line;
    F.Column = 3;
    F.Message = std::move(Message);
    return F;
  };
  std::vector<Finding> A = {At(4, "store has a 2-way bank conflict: 2 wavefronts"),
                            At(9, "load has a 4-way bank conflict")};
  std::vector<Finding> B = {At(4, "store has a 4-way bank conflict: 4 wavefronts"),
                            At(9, "load has a 4-way bank conflict")};
  std::vector<Finding> C = {At(4, "store has a 2-way bank conflict: 2 wavefronts")};
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
  F.File = "k.cu";
  F.Line = 1;
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
  A.File = "common.h";
  A.StrideElements = 8;
  A.Sectors->LaneStride = 32;
  A.VectorBytes = 16;
  A.RunBytes = 32;
  A.LoopFile = "k.cu";
  A.LoopLine = 12;
  A.LoopColumn = 3;
  std::vector<Finding> F = findingsOf(A);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].File, "common.h");
  ASSERT_EQ(F[0].Notes.size(), 1u);
  EXPECT_EQ(F[0].Notes[0].File, "k.cu");
  EXPECT_EQ(F[0].Notes[0].Line, 12u);
  A.RunBytes = 16;
  F = findingsOf(A);
  ASSERT_EQ(F.size(), 2u);
  ASSERT_EQ(F[0].Notes.size(), 1u);
  EXPECT_EQ(F[0].Notes[0].File, "common.h");
  EXPECT_EQ(F[0].Notes[0].Line, 7u);
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
  EXPECT_EQ(F[0].Notes[0].File, "common.h");
  EXPECT_EQ(F[0].Notes[0].Line, 4u);
  // At the declaration itself, the warning says it all.
  N.Error.Where = N.Loc;
  EXPECT_TRUE(buildNotAnalyzedFindings({N})[0].Notes.empty());
}

} // namespace
