//===- MemoryBound.cpp - roofline-memory-bound ----------------------------===//

#include "CheckSupport.h"
#include "FindingCost.h"
#include "Format.h"
#include "SizeSweep.h"

#include <cstdio>

using namespace roofline;

// roofline-memory-bound at the kernel: Scope says for which sizes (empty:
// the launch's), AtMost qualifies an intensity that varies with them, Tail
// names an assumption, Seconds the speed of light when there is one.
static Finding memoryBound(const KernelFacts &K, const std::string &Scope,
                           const std::string &AtMost, double AI, double Ridge,
                           const std::string &Unit, const std::string &Tail,
                           std::optional<double> Seconds) {
  Finding F = atKernel(CheckId::MemoryBound, K);
  char Text[160];
  snprintf(Text, sizeof Text,
           "%.3g FLOP/B, %.0fx below the ridge of %.3g FLOP/B", AI, Ridge / AI,
           Ridge);
  F.Message = "kernel '" + K.Name + "' is memory-bound" + Scope +
              ": even with every byte moved once its intensity is " + AtMost +
              Text + " for " + Unit + " on " + K.Gpu->Name + Tail;
  FindingNote N;
  N.Loc = K.Loc;
  N.Message = "bytes set its speed of light" +
              (Seconds ? " (" + formatSeconds(*Seconds) + ")" : std::string()) +
              "; fuse it with the kernel that produces or consumes its data, "
              "move narrower types (bf16/fp16 halve the bytes), or reuse "
              "data on chip";
  F.Notes.push_back(N);
  return F;
}

void roofline::checkMemoryBound(const KernelFacts &K,
                                const FindingOptions &Opts,
                                std::vector<Finding> &Out) {
  const RooflineMetrics &M = *K.Metrics;
  std::string Unit = unitText(M.Precision, M.Unit);
  // The best intensity any cache could give: FLOPs over compulsory bytes.
  std::optional<double> BestAI = M.AIUpper ? M.AIUpper : M.AILower;
  // A kernel without floating-point work (a copy, a transpose) has no
  // intensity to raise: only its bandwidth matters.
  if (M.Bound == "memory" && BestAI && *BestAI > 0 && M.Ridge &&
      *BestAI < Opts.MemoryBoundRidgeFraction * *M.Ridge) {
    Out.push_back(
        memoryBound(K, "", "", *BestAI, *M.Ridge, Unit, "", M.Seconds));
    Out.back().Seconds = memoryBoundCost(M);
  } else if (const SizeSweep *Sw = K.Sweep;
             Sw && Sw->kind() == SizeSweep::Kind::Memory && Sw->Ridge &&
             Sw->maxIntensity() > 0 &&
             Sw->maxIntensity() < Opts.MemoryBoundRidgeFraction * *Sw->Ridge) {
    // Without sizes: the same verdict when every size swept agrees on it.
    double AI = Sw->maxIntensity();
    Out.push_back(memoryBound(K, " at every size swept (" + Sw->range() + ")",
                              Sw->minIntensity() < 0.99 * AI ? "at most " : "",
                              AI, *Sw->Ridge, unitText(Sw->Precision, Sw->Unit),
                              Sw->LaunchAssumption.empty()
                                  ? std::string()
                                  : " (" + Sw->LaunchAssumption + ")",
                              std::nullopt));
  }
}
