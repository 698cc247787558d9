//===- MissingSize.cpp - roofline-missing-size ----------------------------===//

#include "CheckSupport.h"
#include "SizeSweep.h"

#include "llvm/ADT/STLExtras.h"

using namespace roofline;

std::string roofline::missingSizes(const KernelFacts &K) {
  if (!K.Unresolved.empty())
    return K.Unresolved;
  if (K.MissingParams.empty())
    return "";
  std::string Names, Flags;
  for (const std::string &P : K.MissingParams) {
    Names += (Names.empty() ? "'" : ", '") + P + "'";
    Flags += (Flags.empty() ? "--param " : " --param ") + P + "=VALUE";
  }
  return Names + (K.MissingParams.size() == 1 ? " has" : " have") +
         " no value (use " + Flags + ")";
}

// Without sizes a kernel gets no speed of light and none of the findings
// that need them: say so once, at the kernel, in every front-end (the
// summary, which says it too, is off by default in the lint ones).
void roofline::checkMissingSize(const KernelFacts &K,
                                const std::string &Missing,
                                std::vector<Finding> &Out) {
  if (Missing.empty())
    return;
  Finding F = atKernel(CheckId::MissingSize, K);
  F.Level = "note";
  F.Message = "kernel '" + K.Name + "' " +
              (K.Unresolved.empty() ? "has counts that need sizes: "
                                    : "has no launch sizes: ") +
              Missing;
  // The verdict without sizes, unless roofline-memory-bound said it.
  if (K.Sweep && !llvm::any_of(Out, [](const Finding &B) {
        return B.Check == checkId(CheckId::MemoryBound);
      }))
    F.Message += "; without them, " + K.Sweep->verdict(*K.Gpu);
  Out.push_back(F);
}
