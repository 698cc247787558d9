//===- TileCost.cpp -------------------------------------------------------===//

#include "TileCost.h"
#include "CacheModel.h"

#include <algorithm>
#include <cmath>

using namespace roofline;

static bool isGlobalLoad(const AccessInfo &A) {
  return A.Space == MemSpace::Global && !A.IsStore && !A.IsAtomic;
}

// The share of re-reads that miss an L1 of L1 bytes when the block loads
// Window bytes between two reads of a sector.
static double missedShare(double Window, uint64_t L1) {
  return Window > double(L1) ? 1.0 - double(L1) / Window : 0.0;
}

void roofline::priceTiles(std::vector<AccessInfo> &Accesses, const GpuSpec &Gpu,
                          const Dim3 &Block, uint64_t SharedPerBlock,
                          std::optional<uint64_t> BlockLoads,
                          unsigned Registers) {
  CacheEstimate Residency;
  residency(Gpu, Block, SharedPerBlock, Residency, Registers);
  uint64_t PerSM = Residency.BlocksPerSM;
  uint64_t L1 = 0;
  if (Gpu.L1SharedPerSMBytes > PerSM * SharedPerBlock)
    L1 = (Gpu.L1SharedPerSMBytes - PerSM * SharedPerBlock) / PerSM;

  for (AccessInfo &A : Accesses) {
    if (!isGlobalLoad(A) || !A.BlockRequested || !A.BlockDistinct ||
        !A.GridRequested || !A.Width)
      continue;
    TileSaving T;
    if (!A.Sectors || !A.Sectors->ActiveLanes || !*A.BlockDistinct) {
      T.Why = "the warp's request was not analyzed";
      A.Tile = T;
      continue;
    }
    const SectorReport &S = *A.Sectors;
    // Warp requests block (0,0,0) makes, each reading its distinct bytes
    // once and fetching its sectors.
    double Requests =
        double(*A.BlockRequested) / A.Width / double(S.ActiveLanes);
    T.BetweenWarps = Requests * double(S.BytesUsed) / double(*A.BlockDistinct);
    T.Scalar = S.BytesUsed <= A.Width && A.CountPerThread &&
               !(Rational(1) < *A.CountPerThread);
    double BlockFetched = Requests * double(S.Sectors) * 32.0;
    double ReRead = std::max(0.0, BlockFetched - double(*A.BlockDistinct));
    // Blocks of the grid, counted as the grid's reads over block 0's.
    double Blocks = double(*A.GridRequested) / double(*A.BlockRequested);
    T.ReReadBytes = uint64_t(std::llround(ReRead * Blocks));
    if (!BlockLoads) {
      T.Why = "the block's load footprint is unknown";
      A.Tile = T;
      continue;
    }
    T.BlockLoadBytes = *BlockLoads;
    if (!Gpu.L1SharedPerSMBytes) {
      T.Why = "the GPU data has no L1 size for " + Gpu.Id;
      A.Tile = T;
      continue;
    }
    T.L1PerBlock = L1;
    // A re-read finds its sector in L1 if what the block loads between the
    // two reads fits in its share. The re-reads of a later walk are a walk
    // apart, the others near (the same iteration, or the iterations a
    // lane's sector lasts); unknown: the whole footprint apart.
    double Loads = double(*BlockLoads);
    double Near = Loads, Far = 0, FarWindow = Loads;
    if (A.Reuse) {
      const ReuseShape &R = *A.Reuse;
      double Own = std::min(double(*A.BlockDistinct), Loads);
      // In Iterations of the nest the block loads WalkIterations' share
      // of this load's walk and the same share of the other loads' walks
      // (a load whose walk is unknown, all of it): a load repeated by the
      // same loop is loaded again, one that streams is not.
      auto Window = [&](double Iterations, double WalkIterations) {
        double Bytes = Own * WalkIterations / R.Walk;
        for (const AccessInfo &O : Accesses)
          if (&O != &A && isGlobalLoad(O) && O.BlockDistinct && O.Reachable)
            Bytes +=
                double(*O.BlockDistinct) *
                (O.Reuse ? std::min(1.0, Iterations / O.Reuse->Walk) : 1.0);
        return std::min(Loads, Bytes);
      };
      double NearIterations = std::max(R.Near, 1.0);
      Near = Window(NearIterations, std::min(NearIterations, R.Walk));
      if (R.Far > 0) {
        Far = std::min(ReRead, (R.Repeats - 1) * Own);
        FarWindow = Window(R.Far, R.FarWalk);
      }
    }
    T.WindowBytes = uint64_t(std::llround(Near));
    T.FarWindowBytes = uint64_t(std::llround(FarWindow));
    T.FarReReadBytes = uint64_t(std::llround(Far * Blocks));
    double NearL2 = (ReRead - Far) * missedShare(Near, L1),
           FarL2 = Far * missedShare(FarWindow, L1);
    T.MostlyFar = FarL2 > NearL2;
    T.L2Bytes = uint64_t(std::llround((NearL2 + FarL2) * Blocks));
    T.AtDram = Gpu.L2Bandwidth <= 0;
    double Bandwidth = T.AtDram ? Gpu.DramBandwidth : Gpu.L2Bandwidth;
    if (Bandwidth > 0)
      T.Seconds = double(T.L2Bytes) / Bandwidth;
    A.Tile = T;
  }
}
