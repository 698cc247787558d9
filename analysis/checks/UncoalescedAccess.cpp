//===- UncoalescedAccess.cpp - roofline-uncoalesced-access ----------------===//

#include "CheckSupport.h"

using namespace roofline;

// roofline-uncoalesced-access: a global request that fetches more sectors
// than its bytes need, by more than --min-efficiency-loss.
void roofline::checkUncoalescedAccess(const AccessInfo &A,
                                      const FindingOptions &Opts,
                                      std::vector<Finding> &Out) {
  if (!A.Sectors)
    return;
  unsigned Ideal = A.idealSectors(), Got = A.Sectors->Sectors;
  if (Got <= Ideal || 1.0 - double(Ideal) / Got <= Opts.MinEfficiencyLoss)
    return;
  // Each thread's run of consecutive elements over a short loop reaches the
  // next lane's: over the loop every fetched byte is used, and the fix is
  // the vector access roofline-unvectorized-access names, not another
  // thread-to-data mapping.
  if (A.VectorBytes && A.Class == AccessClass::Strided &&
      A.StrideElements > 0 &&
      uint64_t(A.StrideElements) * A.Width <= A.RunBytes)
    return;
  Finding F = at(CheckId::UncoalescedAccess, A);
  F.Message =
      what(A) + " is " +
      (A.Class == AccessClass::Strided
           ? "strided across the warp (" +
                 (A.StrideFormula.empty() ? std::to_string(A.StrideElements)
                                          : A.StrideFormula) +
                 " elements between lanes)"
           : std::string("scattered across the warp")) +
      ": " + sectorsText(A) + " sectors per request where " +
      std::to_string(Ideal) + " would do, " + usedText(A) +
      " of fetched bytes used" + assumptions(A);
  FindingNote N;
  N.Loc = A.Loc;
  if (!A.LaneCoefficient.empty() && A.LaneCoefficient != "0")
    N.Message = "the address moves " + A.LaneCoefficient +
                " bytes per threadIdx.x; make threadIdx.x index the "
                "contiguous dimension, or stage the data through shared "
                "memory and read it there";
  else
    N.Message = "consecutive lanes do not read consecutive elements; make "
                "threadIdx.x index the contiguous dimension, or stage the "
                "data through shared memory";
  F.Notes.push_back(N);
  Out.push_back(F);
}
