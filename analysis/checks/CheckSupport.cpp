//===- CheckSupport.cpp ---------------------------------------------------===//

#include "CheckSupport.h"

#include <cmath>
#include <cstdio>

using namespace roofline;

std::string roofline::percent(double F) {
  char Buf[32];
  double P = F * 100;
  snprintf(Buf, sizeof Buf, P == std::floor(P) ? "%.0f%%" : "%.1f%%", P);
  return Buf;
}

std::string roofline::what(const AccessInfo &A) {
  std::string S = A.Space == MemSpace::Shared ? "shared " : "global ";
  S += A.kind();
  S += " of '" + (A.Expr.empty() ? A.Base : A.Expr) + "'";
  return S;
}

// What a finding about A assumed, for its message: the sizes it holds for
// when they were not given, and the block shape when no launch gave one.
std::string roofline::assumptions(const AccessInfo &A) {
  std::string S;
  if (!A.ValidFor.empty())
    S = "for " + A.ValidFor;
  if (!A.BlockAssumption.empty())
    S += (S.empty() ? "" : "; ") + A.BlockAssumption;
  return S.empty() ? S : " (" + S + ")";
}

// A request's sectors, and the share of their bytes used: a range when
// they vary with sizes that were not given (the most sectors, the least
// used).
std::string roofline::sectorsText(const AccessInfo &A) {
  std::string S = std::to_string(A.Sectors->Sectors);
  if (A.MaxSectors)
    S += " to " + std::to_string(A.MaxSectors);
  return S;
}
std::string roofline::usedText(const AccessInfo &A) {
  std::string S = percent(A.Sectors->efficiency());
  if (A.MaxSectors && A.Sectors->BytesUsed)
    S = percent(double(A.Sectors->BytesUsed) / (A.MaxSectors * 32.0)) + " to " +
        S;
  return S;
}

static Finding findingAt(CheckId Check, const SourceLoc &Loc) {
  Finding F;
  F.Check = checkId(Check).str();
  F.Loc = Loc;
  return F;
}

Finding roofline::at(CheckId Check, const AccessInfo &A) {
  return findingAt(Check, A.Loc);
}

std::string roofline::times(double X) {
  char Buf[32];
  snprintf(Buf, sizeof Buf, X == std::floor(X) ? "%.0f" : "%.1f", X);
  return Buf;
}

// A time against the speed of light: "40% of", "3.5x".
std::string roofline::share(double F) {
  return F < 1 ? percent(F) + " of" : times(F) + "x";
}

Finding roofline::atKernel(CheckId Check, const KernelFacts &K) {
  return findingAt(Check, K.Loc);
}
