//===- CacheModel.cpp -----------------------------------------------------===//

#include "CacheModel.h"
#include "DomainCounter.h"
#include "Footprint.h"
#include "Limits.h"

#include <algorithm>

using namespace roofline;

static constexpr uint64_t WalkBudget = 4000000;
/// Waves walked at most; later ones are taken to cost what these did on
/// average (grids of identical waves, such as elementwise kernels).
static constexpr uint64_t MaxWaves = 64;

namespace {
/// Occupancy facts of cuda_occupancy.h (CUDA 13.0) for compute capability
/// 7.0-12.x: cudaOccSubPartitionsPerMultiprocessor,
/// cudaOccRegAllocationGranularity and cudaOccRegAllocationMaxPerThread.
constexpr uint64_t SubPartitionsPerSM = 4;
constexpr uint64_t RegisterAllocationUnit = 256;
constexpr unsigned MaxRegistersPerThread = 256;
constexpr uint64_t WarpSize = 32;
} // namespace

static uint64_t roundUp(uint64_t X, uint64_t Unit) {
  return (X + Unit - 1) / Unit * Unit;
}

/// The major compute capability of an "sm_90a"-style architecture (9), or
/// 0 when it is not one.
static unsigned ccMajor(llvm::StringRef Arch) {
  unsigned Number = 0;
  if (!Arch.consume_front("sm_") ||
      Arch.take_while([](char C) { return C >= '0' && C <= '9'; })
          .getAsInteger(10, Number))
    return 0;
  return Number / 10;
}

/// Blocks per SM the register file holds (cudaOccMaxBlocksPerSMRegsLimit):
/// a warp is allocated its threads' registers rounded up to the allocation
/// unit, from one sub-partition's quarter of the file. The header's
/// per-block check (64K registers, counting warps in fours) passes whenever
/// one block fits the SM, which has 64K registers too.
static unsigned blocksByRegisters(unsigned RegistersPerSM, unsigned Registers,
                                  uint64_t WarpsPerBlock) {
  if (Registers > MaxRegistersPerThread || !WarpsPerBlock)
    return 0;
  uint64_t PerWarp = roundUp(Registers * WarpSize, RegisterAllocationUnit);
  uint64_t WarpsPerSM =
      SubPartitionsPerSM * (RegistersPerSM / SubPartitionsPerSM / PerWarp);
  return unsigned(WarpsPerSM / WarpsPerBlock);
}

/// The shared memory a block is allocated (cudaOccMaxBlocksPerSMSmemLimit):
/// its bytes plus what the system reserves per block, rounded up to the
/// allocation granularity (cudaOccSMemAllocationGranularity). The 1 KB
/// reserve is the gap between the guide's per-SM and per-block limits from
/// compute capability 8.0 on (228 vs 227 KB on 9.0); 7.x has none.
static uint64_t allocatedShared(unsigned Major, uint64_t Bytes) {
  uint64_t Reserved = Major >= 8 ? 1024 : 0;
  uint64_t Granularity = Major >= 8 ? 128 : 256;
  return roundUp(Bytes + Reserved, Granularity);
}

void roofline::residency(const GpuSpec &Gpu, const Dim3 &Block,
                         uint64_t SharedBytes, CacheEstimate &E,
                         unsigned RegistersPerThread) {
  uint64_t Threads = uint64_t(Block.count());
  uint64_t Warps = (Threads + WarpSize - 1) / WarpSize;
  unsigned ByBlocks = Gpu.MaxBlocksPerSM ? Gpu.MaxBlocksPerSM : 32;
  unsigned ByThreads = Gpu.MaxThreadsPerSM && Warps
                           ? unsigned(Gpu.MaxThreadsPerSM / (Warps * WarpSize))
                           : ByBlocks;
  // Registers bring the rest of the occupancy calculation with them; the
  // architectures outside 7.0-12.x, whose rules differ, keep the estimate
  // without registers.
  unsigned Major = ccMajor(Gpu.Arch);
  bool Occupancy =
      RegistersPerThread && Gpu.RegistersPerSM && Major >= 7 && Major <= 12;
  uint64_t Shared =
      Occupancy ? allocatedShared(Major, SharedBytes) : SharedBytes;
  unsigned ByShared = Shared && Gpu.SharedPerSMBytes
                          ? unsigned(Gpu.SharedPerSMBytes / Shared)
                          : ByBlocks;
  E.BlocksPerSM = ByBlocks;
  E.Limiter = "blocks per SM";
  if (ByThreads < E.BlocksPerSM) {
    E.BlocksPerSM = ByThreads;
    E.Limiter = "threads per SM";
  }
  if (ByShared < E.BlocksPerSM) {
    E.BlocksPerSM = ByShared;
    E.Limiter = "shared memory per SM";
  }
  if (Occupancy) {
    unsigned ByRegisters =
        blocksByRegisters(Gpu.RegistersPerSM, RegistersPerThread, Warps);
    if (ByRegisters < E.BlocksPerSM) {
      E.BlocksPerSM = ByRegisters;
      E.Limiter = "registers per SM";
    }
  }
  // A block that fits nowhere would fail to launch; the model still runs
  // it one at a time rather than not at all.
  E.BlocksPerSM = std::max(E.BlocksPerSM, 1u);
  E.BlocksPerWave = uint64_t(std::max(Gpu.SMs, 1u)) * E.BlocksPerSM;
}

uint64_t roofline::residentWarpsPerSM(const GpuSpec &Gpu, const Dim3 &Block,
                                      uint64_t SharedBytes,
                                      unsigned RegistersPerThread) {
  return occupancy(Gpu, Dim3(), Block, SharedBytes, RegistersPerThread)
      .WarpsPerSM;
}

Occupancy roofline::occupancy(const GpuSpec &Gpu, const Dim3 &Grid,
                              const Dim3 &Block, uint64_t SharedBytes,
                              unsigned Registers) {
  CacheEstimate E;
  residency(Gpu, Block, SharedBytes, E, Registers);
  Occupancy O;
  O.Registers = Registers;
  O.BlocksPerSM = E.BlocksPerSM;
  O.Limiter = E.Limiter;
  uint64_t Warps = (uint64_t(Block.count()) + WarpSize - 1) / WarpSize;
  O.WarpsPerSM = E.BlocksPerSM * Warps;
  O.MaxWarpsPerSM = Gpu.MaxThreadsPerSM / WarpSize;
  O.WarpsInFlight =
      std::min<uint64_t>(uint64_t(std::max(Gpu.SMs, 1u)) * O.WarpsPerSM,
                         uint64_t(Grid.count()) * Warps);
  O.Blocks = Grid.count();
  uint64_t SMs = std::max(Gpu.SMs, 1u);
  O.BusiestSMBlocks = (O.Blocks + SMs - 1) / SMs;
  return O;
}

double Occupancy::busiestSMFactor(unsigned SMs) const {
  if (!Blocks || !BusiestSMBlocks || !SMs)
    return 1.0;
  return std::max(1.0, double(BusiestSMBlocks) * SMs / double(Blocks));
}

// The blocks with linear ids [S, E) (blockIdx.x fastest) as boxes.
static std::vector<ThreadBox> waveBoxes(uint64_t S, uint64_t E,
                                        const Dim3 &Grid, const Dim3 &Block) {
  std::vector<ThreadBox> Out;
  const uint64_t GX = Grid.V[0], GY = Grid.V[1];
  auto box = [&](uint64_t X0, uint64_t X1, uint64_t Y0, uint64_t Y1,
                 uint64_t Z0, uint64_t Z1) {
    ThreadBox B = ThreadBox::block0(Block);
    auto R = [](uint64_t Lo, uint64_t Hi) {
      return Interval{Rational(int64_t(Lo)), Rational(int64_t(Hi))};
    };
    B.Dims[3] = R(X0, X1 - 1);
    B.Dims[4] = R(Y0, Y1 - 1);
    B.Dims[5] = R(Z0, Z1 - 1);
    Out.push_back(B);
  };
  while (S < E) {
    uint64_t X = S % GX, YZ = S / GX, Y = YZ % GY, Z = YZ / GY;
    if (X != 0 || E - S < GX) { // Part of a row.
      uint64_t N = std::min(GX - X, E - S);
      box(X, X + N, Y, Y + 1, Z, Z + 1);
      S += N;
    } else if (Y != 0 || E - S < GX * GY) { // Whole rows of one plane.
      uint64_t N = std::min(GY - Y, (E - S) / GX);
      box(0, GX, Y, Y + N, Z, Z + 1);
      S += N * GX;
    } else { // Whole planes.
      uint64_t N = (E - S) / (GX * GY);
      box(0, GX, 0, GY, Z, Z + N);
      S += N * GX * GY;
    }
  }
  return Out;
}

CacheEstimate roofline::estimateDramTraffic(
    const KernelModel &M, const std::map<std::string, Expr> &Known,
    const Dim3 &Grid, const Dim3 &Block, uint64_t DynamicShared,
    const GpuSpec &Gpu, uint64_t Lower, uint64_t Upper,
    const std::vector<const AccessModel *> &Sampled) {
  CacheEstimate E;
  // An access too large to walk is taken as the interval it spans.
  auto footprint = [&](const BlockModel &B, const AccessModel &A,
                       const ThreadBox &Box, FootprintSet &Into) {
    if (std::find(Sampled.begin(), Sampled.end(), &A) != Sampled.end())
      return addAccessHull(M, B, A, Known, Box, Into);
    return addAccessFootprint(M, B, A, Known, Box, WalkBudget, Into);
  };
  residency(Gpu, Block, M.StaticSharedBytes + DynamicShared, E, M.Registers);
  uint64_t Blocks = uint64_t(Grid.count());
  E.Waves = (Blocks + E.BlocksPerWave - 1) / E.BlocksPerWave;
  if (Lower <= Gpu.L2Bytes) {
    // Everything the kernel touches stays in L2: each byte once.
    E.FitsInL2 = true;
    E.Bytes = Lower;
    return E;
  }

  // Reads: per buffer, the union of its loads' footprints over each wave.
  // Writes: every distinct written byte once (L2 is write-back).
  std::map<std::string, FootprintSet> Written;
  ThreadBox All = ThreadBox::wholeGrid(Grid, Block);
  // The model walks every access once per wave: up to 64 walks of the
  // grid's worth of blocks each, more than counting does. A walk or a
  // footprint that stops at the kernel's limits looks like one that could
  // not be computed; the estimate then says which it was, and the unknown
  // is reported at the access it stopped on (the kernel, At null).
  auto fail = [&](const std::string &Why, const AccessModel *At) {
    E.Bytes.reset();
    E.Why = Why;
    if (KernelLimits::reached()) {
      E.Why = KernelLimits::reason();
      UnknownReason U;
      U.Reason = "the cache model did not finish (" + E.Why +
                 "): dram_bytes has no estimate";
      if (At) {
        U.Loc.Line = At->Loc.Line;
        U.Loc.Column = At->Loc.Column;
        U.Loc.File = At->Loc.File;
      }
      E.Limit = U;
    }
    return E;
  };
  for (const BlockModel &B : M.Blocks)
    for (const AccessModel &A : B.Accesses) {
      if (KernelLimits::expired())
        return fail("", &A);
      if (A.Space == MemSpace::Global && (A.IsStore || A.IsAtomic) &&
          !footprint(B, A, All, Written[A.Base]))
        return fail("footprint of a store could not be computed", &A);
    }
  uint64_t WriteBytes = 0;
  for (auto &KV : Written) {
    auto N = footprintSize(KV.second);
    if (!N)
      return fail("footprint of '" + KV.first + "' has too many ranges",
                  nullptr);
    WriteBytes += *N;
  }

  E.WavesAnalyzed = std::min(E.Waves, MaxWaves);
  std::map<std::string, FootprintSet> Prev;
  uint64_t PrevSize = 0, ReadBytes = 0;
  for (uint64_t W = 0; W < E.WavesAnalyzed; ++W) {
    uint64_t S = W * E.BlocksPerWave,
             End = std::min(Blocks, S + E.BlocksPerWave);
    std::map<std::string, FootprintSet> Cur;
    for (const ThreadBox &Box : waveBoxes(S, End, Grid, Block))
      for (const BlockModel &B : M.Blocks)
        for (const AccessModel &A : B.Accesses) {
          if (KernelLimits::expired())
            return fail("", &A);
          if (A.Space == MemSpace::Global && !A.IsStore && !A.IsAtomic &&
              !footprint(B, A, Box, Cur[A.Base]))
            return fail("footprint of a load could not be computed", &A);
        }
    // What this wave fetches, what it shares with the previous one, and
    // whether both fit in L2 together.
    uint64_t Size = 0, Shared = 0, Union = 0;
    for (auto &KV : Cur) {
      auto It = Prev.find(KV.first);
      FootprintSet Empty;
      auto O = overlap(KV.second, It == Prev.end() ? Empty : It->second);
      if (!O)
        return fail("footprint of '" + KV.first + "' has too many ranges",
                    nullptr);
      Size += O->A;
      Shared += O->Both;
    }
    Union = PrevSize + Size - Shared;
    ReadBytes += Size - (W > 0 && Union <= Gpu.L2Bytes ? Shared : 0);
    PrevSize = Size;
    Prev = std::move(Cur);
  }
  if (E.WavesAnalyzed < E.Waves)
    ReadBytes =
        uint64_t(double(ReadBytes) * double(E.Waves) / double(E.WavesAnalyzed));
  uint64_t Est = ReadBytes + WriteBytes;
  E.Bytes = std::clamp(Est, Lower, std::max(Lower, Upper));
  return E;
}
