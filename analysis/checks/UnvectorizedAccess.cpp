//===- UnvectorizedAccess.cpp - roofline-unvectorized-access --------------===//

#include "CheckSupport.h"

using namespace roofline;

// roofline-unvectorized-access: a thread's consecutive elements accessed one
// at a time in a short loop where one aligned vector access would do.
void roofline::checkUnvectorizedAccess(const AccessInfo &A,
                                       std::vector<Finding> &Out) {
  if (!A.VectorBytes || !A.Width)
    return;
  unsigned N = A.VectorBytes / A.Width;
  Finding F = at(CheckId::UnvectorizedAccess, A);
  F.Message = what(A) + " moves " + std::to_string(N) + " consecutive " +
              std::to_string(A.Width) +
              "-byte elements per thread one at a "
              "time; one " +
              std::to_string(A.VectorBytes) + "-byte access would do (" +
              std::to_string(N) + "x fewer requests)" + assumptions(A);
  FindingNote Loop;
  Loop.Loc.File = A.LoopLoc.File;
  Loop.Loc.Line = A.LoopLoc.Line;
  Loop.Loc.Column = A.LoopLoc.Column;
  Loop.Message = "consecutive iterations of this loop access consecutive "
                 "elements; every thread's first element is " +
                 std::to_string(A.VectorBytes) +
                 "-byte aligned, so they can "
                 "be accessed as one vector (reinterpret_cast to " +
                 (A.VectorBytes == 16 ? std::string("float4/int4/uint4")
                                      : std::string("float2/int2/uint2")) +
                 ")";
  F.Notes.push_back(Loop);
  Out.push_back(F);
}
