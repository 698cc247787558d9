//===- KernelSummary.cpp - roofline-kernel-summary ------------------------===//

#include "CheckSupport.h"
#include "Format.h"
#include "SizeSweep.h"

#include <cstdio>

using namespace roofline;

// roofline-kernel-summary: the kernel's figures, or why it has none.
void roofline::checkKernelSummary(const KernelFacts &K,
                                  const std::string &Missing,
                                  std::vector<Finding> &Out) {
  const RooflineMetrics &M = *K.Metrics;
  std::string Unit = unitText(M.Precision, M.Unit);
  Finding S = atKernel(CheckId::KernelSummary, K);
  S.Level = "note";
  S.Message = "kernel '" + K.Name + "': ";
  if (M.Seconds || M.SecondsUpper) {
    // The implementation's time first, then the algorithm's ceiling: the
    // gap between the two is what the other findings explain.
    if (K.Predicted && K.Predicted->Seconds)
      S.Message += "predicted " + formatSeconds(*K.Predicted->Seconds) + ", " +
                   predictionLimiter(*K.Predicted) + "; ";
    S.Message += "speed of light " +
                 formatSeconds(M.Seconds ? *M.Seconds : *M.SecondsUpper) +
                 " on " + K.Gpu->Name + ", " + M.Bound + "-bound";
    if (M.AILower && M.AIUpper) {
      char AI[96];
      snprintf(AI, sizeof AI, "; intensity %.4g .. %.4g FLOP/B", *M.AILower,
               *M.AIUpper);
      S.Message += AI;
    }
    if (M.Ridge) {
      char R[64];
      snprintf(R, sizeof R, " (ridge %.1f for ", *M.Ridge);
      S.Message += R + Unit + ")";
    }
  } else if (M.LowerBound && Missing.empty()) {
    // With a missing size the sizes to give, and the verdict over sizes,
    // matter more than a bound from what the given ones reach.
    S.Message += "speed of light \u2265 " + formatSeconds(*M.LowerBound) +
                 " on " + K.Gpu->Name +
                 " from the known work; unknown: " + M.LowerBoundWhy;
  } else {
    S.Message += "per-thread counts only (" +
                 (!Missing.empty() ? Missing
                  : M.Note.empty() ? std::string("no sizes")
                                   : M.Note) +
                 ")";
    if (K.Sweep)
      S.Message += "; " + K.Sweep->verdict(*K.Gpu);
    else if (!K.SweepWhyNot.empty())
      S.Message += "; no verdict over sizes either: " + K.SweepWhyNot;
  }
  Out.push_back(S);
}
