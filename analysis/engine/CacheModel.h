//===- CacheModel.h - A DRAM traffic estimate between the bounds -*- C++
//-*-===//
//
// dram_bytes.lower assumes every byte crosses the DRAM interface once,
// dram_bytes.upper that every requested byte does. The estimate in between
// models the two caches: L1 keeps what the threads of one block share (a
// block's distinct bytes are fetched once), L2 what the blocks resident at
// the same time share. Blocks run in waves of SMs x blocks-per-SM, in
// launch order (blockIdx.x fastest); a wave fetches the distinct bytes of all
// its blocks, minus what the previous wave left in L2 when both waves'
// footprints fit in it together. If the kernel's whole compulsory footprint
// fits in L2, the estimate is the compulsory traffic. See docs/cache-model.md.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_CACHEMODEL_H
#define CUDA_ROOFLINE_CACHEMODEL_H

#include "GpuDatabase.h"
#include "KernelModel.h"
#include "LaunchSpec.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct CacheEstimate {
  std::optional<uint64_t> Bytes; ///< The estimate; empty with Why.
  std::string Why;
  unsigned BlocksPerSM = 0;
  std::string Limiter; ///< What limits blocks per SM.
  uint64_t BlocksPerWave = 0, Waves = 0;
  uint64_t WavesAnalyzed = 0; ///< Waves walked (the rest scaled from them).
  bool FitsInL2 = false;      ///< The compulsory footprint fits in L2.
  /// Set when the analysis limits ended the model (Why says so too): the
  /// unknown to report, at the access being walked then.
  std::optional<UnknownReason> Limit;
};

/// Waves the GPU runs the launch in: SMs x blocks per SM, limited by
/// threads, blocks and shared memory per SM. With the registers per thread
/// ptxas allocates (RegistersPerThread > 0) and the GPU's register file in
/// the data, the limit follows cuda_occupancy.h of the CUDA toolkit for
/// compute capability 7.0-12.x: registers are allocated per warp in units of
/// 256 from each of the 4 sub-partitions' quarter of the file, and a
/// block's shared memory is its bytes plus the 1 KB the system reserves
/// (8.x on), rounded up to 128 B (256 B on 7.x). Without registers the
/// estimate is the coarser one of threads, blocks and plain shared bytes, as
/// before registers were known.
void residency(const GpuSpec &Gpu, const Dim3 &Block, uint64_t SharedBytes,
               CacheEstimate &E, unsigned RegistersPerThread = 0);

/// Warps resident on an SM at once: blocks per SM (residency) x warps per
/// block. What a Little's-law bound divides the work in flight among.
uint64_t residentWarpsPerSM(const GpuSpec &Gpu, const Dim3 &Block,
                            uint64_t SharedBytes,
                            unsigned RegistersPerThread = 0);

/// How many of a launch's warps an SM holds at once, and what stops it
/// holding more: what a Little's-law bound has in flight.
struct Occupancy {
  unsigned Registers = 0; ///< Per thread, from ptxas; 0 with RegistersWhy.
  std::string RegistersWhy;
  uint64_t SpillStoreBytes = 0, SpillLoadBytes = 0;
  unsigned BlocksPerSM = 0;
  std::string Limiter; ///< "registers per SM", "threads per SM", ...
  uint64_t WarpsPerSM = 0, MaxWarpsPerSM = 0;
  /// Warps of the launch in flight on the whole GPU: SMs x WarpsPerSM, or
  /// every warp of a grid smaller than that.
  uint64_t WarpsInFlight = 0;
  /// Blocks of the grid, and the most one SM runs: ceil(Blocks / SMs), as
  /// blocks of equal work cannot be spread more evenly.
  uint64_t Blocks = 0, BusiestSMBlocks = 0;
  /// How much longer the busiest SM works than the average one, at least
  /// 1: BusiestSMBlocks x SMs / Blocks (1 without a grid).
  double busiestSMFactor(unsigned SMs) const;
};

/// The occupancy of a Grid x Block launch with SharedBytes of shared memory
/// per block and Registers per thread (0: unknown, as residency).
Occupancy occupancy(const GpuSpec &Gpu, const Dim3 &Grid, const Dim3 &Block,
                    uint64_t SharedBytes, unsigned Registers);

CacheEstimate
estimateDramTraffic(const KernelModel &M,
                    const std::map<std::string, Expr> &Known, const Dim3 &Grid,
                    const Dim3 &Block, uint64_t DynamicShared,
                    const GpuSpec &Gpu, uint64_t Lower, uint64_t Upper,
                    const std::vector<const AccessModel *> &Sampled = {});

} // namespace roofline

#endif
