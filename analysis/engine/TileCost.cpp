//===- TileCost.cpp -------------------------------------------------------===//

#include "TileCost.h"
#include "CacheModel.h"

#include <algorithm>
#include <cmath>

using namespace roofline;

static bool isGlobalLoad(const AccessInfo &A) {
  return A.Space == MemSpace::Global && !A.IsStore && !A.IsAtomic;
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
    // A re-read finds its sector in L1 if what the block loads between
    // the two reads fits in its share, the loads spread evenly over the
    // loop nest's iterations.
    double Window = double(*BlockLoads);
    if (A.ReuseIterations && A.NestIterations && *A.NestIterations >= 1)
      Window *= std::min(1.0, *A.ReuseIterations / *A.NestIterations);
    T.WindowBytes = uint64_t(std::llround(Window));
    if (Window > double(L1)) {
      double Missed = 1.0 - double(L1) / Window;
      T.L2Bytes = uint64_t(std::llround(double(T.ReReadBytes) * Missed));
    }
    T.AtDram = Gpu.L2Bandwidth <= 0;
    double Bandwidth = T.AtDram ? Gpu.DramBandwidth : Gpu.L2Bandwidth;
    if (Bandwidth > 0)
      T.Seconds = double(T.L2Bytes) / Bandwidth;
    A.Tile = T;
  }
}
