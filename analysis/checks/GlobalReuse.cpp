//===- GlobalReuse.cpp - roofline-global-reuse ----------------------------===//

#include "CheckSupport.h"
#include "Format.h"

using namespace roofline;

// roofline-global-reuse: warps of a block re-read a load's elements, and
// the re-reads L1 cannot keep cost enough L2 time to be worth a tile.
void roofline::checkGlobalReuse(const AccessInfo &A, const KernelFacts &K,
                                const FindingOptions &Opts,
                                std::vector<Finding> &Out) {
  if (!A.Tile || A.StagedInShared)
    return;
  const TileSaving &T = *A.Tile;
  if (T.Scalar || T.BetweenWarps < Opts.MinReuse || !T.L2Bytes ||
      T.Seconds <= 0)
    return;
  std::optional<double> Light;
  if (K.Metrics)
    Light = K.Metrics->Seconds;
  if (Light && T.Seconds < Opts.MinReuseCost * *Light)
    return;
  Finding F = at(CheckId::GlobalReuse, A);
  F.Seconds = T.Seconds;
  F.Message = what(A) + " is read " + times(T.BetweenWarps) +
              " times by the warps of a block";
  if (auto R = A.reuseFactor())
    F.Message += " (" + times(*R) + " times over the grid)";
  // Name the loads that overflow L1: those between two reads of a sector
  // (in one walk, or two walks apart, whichever misses more), or the whole
  // footprint when that is less.
  double Window = double(T.MostlyFar ? T.FarWindowBytes : T.WindowBytes);
  bool Whole = Window >= double(T.BlockLoadBytes);
  F.Message += Whole ? "; the block's loads ("
                     : "; the block's loads between two reads of a sector (";
  F.Message += formatBytes(Whole ? double(T.BlockLoadBytes) : Window) +
               ") exceed its share of L1 (" +
               formatBytes(double(T.L1PerBlock)) + "), so " +
               (T.AtDram ? "up to " : "") + formatBytes(double(T.L2Bytes)) +
               " of re-reads come from L2 (" + (T.AtDram ? "at most " : "") +
               formatSeconds(T.Seconds);
  if (Light)
    F.Message += ", " + share(T.Seconds / *Light) + " the speed of light";
  if (T.AtDram)
    F.Message += ", timed at DRAM's " + times(K.Gpu->DramBandwidth / 1e9) +
                 " GB/s: the GPU data has no L2 bandwidth for " + K.Gpu->Id;
  else
    F.Message += " at " + times(K.Gpu->L2Bandwidth / 1e9) + " GB/s";
  F.Message += "); a shared-memory tile would read each element once per "
               "block" +
               assumptions(A);
  FindingNote N;
  N.Loc = A.Loc;
  if (T.MostlyFar) {
    // The cost is a loop walking the elements again: the fix is the order
    // of the loops, or keeping the elements on chip across that loop.
    N.Message = "an enclosing loop that does not move the address walks "
                "these elements again on each of its iterations; make it "
                "the inner loop, or keep the elements in registers or a "
                "__shared__ tile across it";
  } else {
    std::string Dims;
    for (const std::string &D : A.SharedBy)
      if (D.rfind("threadIdx", 0) == 0)
        Dims += (Dims.empty() ? "" : ", ") + D;
    N.Message = (Dims.empty() ? std::string("warps of a block re-read these "
                                            "elements")
                              : "the address does not use " + Dims +
                                    ": warps that differ only there read "
                                    "the same elements") +
                "; load the block's elements into a __shared__ tile once per "
                "step, synchronize, and read them from there";
  }
  F.Notes.push_back(N);
  Out.push_back(F);
}
