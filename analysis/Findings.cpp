//===- Findings.cpp -------------------------------------------------------===//

#include "Findings.h"

#include <cmath>
#include <cstdio>

using namespace roofline;

static std::string percent(double F) {
  char Buf[32];
  double P = F * 100;
  snprintf(Buf, sizeof Buf, P == std::floor(P) ? "%.0f%%" : "%.1f%%", P);
  return Buf;
}

static std::string what(const AccessInfo &A) {
  std::string S = A.Space == MemSpace::Shared ? "shared " : "global ";
  S += A.kind();
  S += " of '" + (A.Expr.empty() ? A.Base : A.Expr) + "'";
  return S;
}

static void uncoalesced(const AccessInfo &A, const FindingOptions &Opts,
                        std::vector<Finding> &Out) {
  if (!A.Sectors)
    return;
  unsigned Ideal = A.idealSectors(), Got = A.Sectors->Sectors;
  if (Got <= Ideal || 1.0 - double(Ideal) / Got <= Opts.MinEfficiencyLoss)
    return;
  Finding F;
  F.Check = "roofline-uncoalesced-access";
  F.File = A.File;
  F.Line = A.Line;
  F.Column = A.Column;
  F.Message = what(A) + " is " +
              (A.Class == AccessClass::Strided
                   ? "strided across the warp (" +
                         std::to_string(A.StrideElements) + " elements between lanes)"
                   : std::string("scattered across the warp")) +
              ": " + std::to_string(Got) + " sectors per request where " +
              std::to_string(Ideal) + " would do, " +
              percent(A.Sectors->efficiency()) + " of fetched bytes used";
  FindingNote N;
  N.Line = A.Line;
  N.Column = A.Column;
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

static void bankConflict(const AccessInfo &A, const FindingOptions &Opts,
                         std::vector<Finding> &Out) {
  if (!A.Banks || A.Banks->Ways < Opts.MinConflictWays)
    return;
  const BankReport &B = *A.Banks;
  Finding F;
  F.Check = "roofline-bank-conflict";
  F.File = A.File;
  F.Line = A.Line;
  F.Column = A.Column;
  F.Message = what(A) + " has a " + std::to_string(B.Ways) +
              "-way bank conflict: " + std::to_string(B.Wavefronts) +
              " wavefronts per request where " +
              std::to_string(B.MinWavefronts) + " would do";
  FindingNote N;
  N.Line = A.Line;
  N.Column = A.Column;
  std::string Lanes;
  for (size_t I = 0; I < B.CollidingLanes.size(); ++I) {
    if (I == 4 && B.CollidingLanes.size() > 5) {
      Lanes += ", ..., " + std::to_string(B.CollidingLanes.back());
      break;
    }
    Lanes += (I ? ", " : "") + std::to_string(B.CollidingLanes[I]);
  }
  N.Message = "lanes " + Lanes + " read different words of bank " +
              std::to_string(B.Bank) + "; pad each row of '" + A.Base +
              "' by one element (e.g. [32][33] for [32][32]) or swizzle the "
              "column index";
  F.Notes.push_back(N);
  Out.push_back(F);
}

std::vector<Finding>
roofline::buildFindings(const std::vector<AccessInfo> &Accesses,
                        const FindingOptions &Opts) {
  std::vector<Finding> Out;
  for (const AccessInfo &A : Accesses) {
    uncoalesced(A, Opts, Out);
    bankConflict(A, Opts, Out);
  }
  // Two instructions of one source access (the halves of a 32-byte copy)
  // are one finding.
  std::vector<Finding> Unique;
  for (Finding &F : Out) {
    bool Seen = false;
    for (const Finding &U : Unique)
      Seen |= U.Check == F.Check && U.File == F.File && U.Line == F.Line &&
              U.Column == F.Column && U.Message == F.Message;
    if (!Seen)
      Unique.push_back(std::move(F));
  }
  return Unique;
}
