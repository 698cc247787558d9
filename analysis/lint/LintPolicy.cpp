//===- LintPolicy.cpp -----------------------------------------------------===//

#include "LintPolicy.h"
#include "Checks.h"
#include "Suppressions.h"

#include "llvm/Support/MemoryBuffer.h"

#include <map>

using namespace roofline;

LintOutcome roofline::applyLintPolicy(FileReport &R, const LintPolicy &P) {
  LintOutcome Out;
  // NOLINT comments of each file findings point into, read once.
  std::map<std::string, Suppressions> Nolint;
  auto nolintOf = [&](const std::string &File) -> const Suppressions & {
    auto It = Nolint.find(File);
    if (It != Nolint.end())
      return It->second;
    auto Buf = llvm::MemoryBuffer::getFile(File);
    It = Nolint
             .emplace(File, Suppressions::parse(Buf ? (*Buf)->getBuffer()
                                                    : llvm::StringRef()))
             .first;
    for (const SuppressionError &E : It->second.errors())
      Out.Problems.push_back(File + ":" + std::to_string(E.Line) + ":" +
                             std::to_string(E.Column) +
                             ": error: " + E.Message + " [clang-tidy-nolint]");
    return It->second;
  };
  nolintOf(R.File);
  auto Apply = [&](std::vector<Finding> &Findings) {
    std::vector<Finding> Kept;
    for (Finding &F : Findings) {
      if (P.Checks && !P.Checks->matches(F.Check))
        continue;
      if (nolintOf(F.Loc.File).suppresses(F.Loc.Line, F.Check)) {
        ++Out.Suppressed;
        continue;
      }
      if (P.WarningsAsErrors &&
          promotesToError(*P.WarningsAsErrors, F.Check, F.Level)) {
        F.Level = "error";
        ++Out.Errors;
      }
      Kept.push_back(std::move(F));
    }
    Findings = std::move(Kept);
  };
  Apply(R.Findings);
  for (KernelReport &K : R.Kernels)
    Apply(K.Findings);
  return Out;
}
