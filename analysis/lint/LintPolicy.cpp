//===- LintPolicy.cpp -----------------------------------------------------===//

#include "LintPolicy.h"
#include "Checks.h"
#include "Suppressions.h"

#include "llvm/Support/MemoryBuffer.h"

#include <map>

using namespace roofline;

llvm::Expected<LintPolicy> roofline::withConfigGlobs(const FileReport &R,
                                                     LintPolicy Policy) {
  std::string Errors;
  for (auto [Text, Slot] :
       {std::pair(&R.ConfigChecks, &Policy.Checks),
        std::pair(&R.ConfigWarningsAsErrors, &Policy.WarningsAsErrors)}) {
    if (*Slot || !*Text)
      continue;
    auto G = CheckGlob::parse(**Text);
    llvm::Error E = G ? llvm::Error::success() : G.takeError();
    if (!E && Slot == &Policy.Checks)
      if (llvm::Error None = checkGlobEnablesSome(*G, **Text))
        E = llvm::createStringError("checks: " +
                                    llvm::toString(std::move(None)));
    if (E) {
      Errors += (Errors.empty() ? "" : "\n") + R.ConfigOrigin + ": " +
                llvm::toString(std::move(E));
      continue;
    }
    *Slot = std::move(*G);
  }
  if (!Errors.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Errors);
  return Policy;
}

LintOutcome roofline::applyLintPolicy(FileReport &R, const LintPolicy &P,
                                      const std::string *MainText) {
  LintOutcome Out;
  // NOLINT comments of each file findings point into, read once.
  std::map<std::string, Suppressions> Nolint;
  auto nolintOf = [&](const std::string &File) -> const Suppressions & {
    auto It = Nolint.find(File);
    if (It != Nolint.end())
      return It->second;
    std::unique_ptr<llvm::MemoryBuffer> Disk;
    llvm::StringRef Text;
    if (MainText && File == R.File) {
      Text = *MainText;
    } else if (auto Buf = llvm::MemoryBuffer::getFile(File)) {
      Disk = std::move(*Buf);
      Text = Disk->getBuffer();
    }
    It = Nolint.emplace(File, Suppressions::parse(Text)).first;
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
