//===- Findings.cpp - Running the checks over a kernel --------------------===//
//
// Each check's logic is in its own unit (CheckSupport.h lists them); this
// runs them in order over a kernel and its accesses, prices the access
// findings, and ranks and merges the findings of reports.
//
//===----------------------------------------------------------------------===//

#include "CheckSupport.h"
#include "FindingCost.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace roofline;

// Kernel-level checks: the bound, the summary and missing sizes.
static void kernelFindings(const KernelFacts &K, const FindingOptions &Opts,
                           std::vector<Finding> &Out) {
  if (!K.Metrics || !K.Gpu)
    return;
  std::string Missing = missingSizes(K);
  checkMemoryBound(K, Opts, Out);
  if (Opts.KernelSummary)
    checkKernelSummary(K, Missing, Out);
  checkMissingSize(K, Missing, Out);
}

std::vector<Finding>
roofline::buildFindings(const KernelFacts &Kernel,
                        const std::vector<AccessInfo> &Accesses,
                        const FindingOptions &Opts) {
  std::vector<Finding> Out;
  kernelFindings(Kernel, Opts, Out);
  for (const AccessInfo &A : Accesses) {
    // Only code that runs, at a place in the source.
    if (!A.Reachable || A.Loc.Line == 0)
      continue;
    // Each check's findings priced by what it wastes (FindingCost.h).
    auto price = [&](size_t From, std::optional<double> Seconds) {
      for (size_t I = From; I < Out.size(); ++I)
        Out[I].Seconds = Seconds;
    };
    size_t From = Out.size();
    checkUncoalescedAccess(A, Opts, Out);
    if (Kernel.Gpu)
      price(From, uncoalescedCost(A, *Kernel.Gpu));
    From = Out.size();
    checkBankConflict(A, Opts, Out);
    if (Kernel.Gpu)
      price(From, bankConflictCost(A, *Kernel.Gpu));
    From = Out.size();
    checkUnvectorizedAccess(A, Out);
    if (Kernel.Gpu)
      price(From, unvectorizedCost(A, *Kernel.Gpu));
    checkGlobalReuse(A, Kernel, Opts, Out);
  }
  // Two instructions of one source access (the halves of a 32-byte copy)
  // are one finding.
  std::vector<Finding> Unique;
  for (Finding &F : Out) {
    bool Seen = false;
    for (const Finding &U : Unique)
      Seen |= U.Check == F.Check && U.Loc.File == F.Loc.File &&
              U.Loc.Line == F.Loc.Line && U.Loc.Column == F.Loc.Column &&
              U.Message == F.Message;
    if (!Seen)
      Unique.push_back(std::move(F));
  }
  return Unique;
}

// The kernel-level findings head the report, as built; then what costs
// most.
std::vector<const Finding *>
roofline::rankFindings(const std::vector<Finding> &Findings) {
  auto Tier = [](const Finding *F) {
    if (kernelLevelCheck(F->Check))
      return 0;
    return F->Seconds ? 1 : 2;
  };
  std::vector<const Finding *> Out;
  for (const Finding &F : Findings)
    Out.push_back(&F);
  std::stable_sort(Out.begin(), Out.end(),
                   [&](const Finding *L, const Finding *R) {
                     int TL = Tier(L), TR = Tier(R);
                     if (TL != TR)
                       return TL < TR;
                     return costlier(*L, *R);
                   });
  return Out;
}

bool roofline::costlier(const Finding &L, const Finding &R) {
  if (bool(L.Seconds) != bool(R.Seconds))
    return bool(L.Seconds);
  return L.Seconds && *L.Seconds > *R.Seconds;
}

void roofline::mergeAcrossReports(std::vector<ReportFindings> &Reports) {
  for (size_t R = 0; R < Reports.size(); ++R) {
    for (Finding &F : *Reports[R].Findings) {
      if (kernelLevelCheck(F.Check) || F.Check.empty())
        continue;
      // The same place in the later reports.
      std::vector<std::pair<std::string, std::string>> Variants = {
          {F.Message, Reports[R].Label}};
      for (size_t O = R + 1; O < Reports.size(); ++O) {
        auto &Other = *Reports[O].Findings;
        for (Finding &G : Other) {
          if (G.Check != F.Check || G.Loc.File != F.Loc.File ||
              G.Loc.Line != F.Loc.Line || G.Loc.Column != F.Loc.Column)
            continue;
          if (G.Seconds && (!F.Seconds || *F.Seconds < *G.Seconds))
            F.Seconds = G.Seconds;
          if (!llvm::any_of(Variants, [&](const auto &V) {
                return V.first == G.Message;
              }))
            Variants.push_back({G.Message, Reports[O].Label});
          G.Check.clear(); // Said here; removed below.
        }
      }
      if (Variants.size() < 2)
        continue;
      // The common beginning, up to a word.
      size_t Common = F.Message.size();
      for (const auto &V : Variants) {
        size_t I = 0;
        while (I < Common && I < V.first.size() && V.first[I] == F.Message[I])
          ++I;
        Common = I;
      }
      while (Common > 0 && F.Message[Common - 1] != ' ')
        --Common;
      std::string Merged = F.Message.substr(0, Common);
      for (size_t I = 0; I < Variants.size(); ++I)
        Merged += (I ? "; " : "") + Variants[I].first.substr(Common) + " (in " +
                  Variants[I].second + ")";
      F.Message = Merged;
    }
  }
  for (ReportFindings &R : Reports)
    llvm::erase_if(*R.Findings,
                   [](const Finding &F) { return F.Check.empty(); });
}
