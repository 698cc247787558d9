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
/// threads, blocks and shared memory per SM (registers are not modelled).
void residency(const GpuSpec &Gpu, const Dim3 &Block, uint64_t SharedBytes,
               CacheEstimate &E);

CacheEstimate
estimateDramTraffic(const KernelModel &M,
                    const std::map<std::string, Expr> &Known, const Dim3 &Grid,
                    const Dim3 &Block, uint64_t DynamicShared,
                    const GpuSpec &Gpu, uint64_t Lower, uint64_t Upper,
                    const std::vector<const AccessModel *> &Sampled = {});

} // namespace roofline

#endif
