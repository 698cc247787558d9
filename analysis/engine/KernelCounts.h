//===- KernelCounts.h - Per-thread, per-block and per-grid counts -*- C++
//-*-===//
//
// The numbers of one kernel launch: for every counter (FLOPs by precision,
// divisions, special functions, global/shared bytes, atomics) a per-thread
// formula in source names with its value, the exact count for block
// (0,0,0), and the exact sum over the grid. A count that depends on
// something unknown has no value; the reason is in Unknowns.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_KERNELCOUNTS_H
#define CUDA_ROOFLINE_KERNELCOUNTS_H

#include "CacheModel.h"
#include "Footprint.h"
#include "KernelModel.h"
#include "LaunchSpec.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct Quantity {
  std::optional<std::string> Formula; ///< Source-level formula, if closed.
  std::optional<Rational> Value;      ///< Exact value, if known.
};

/// Threads that execute one guarded region (a "path") of the kernel.
struct PathCount {
  std::string Guard; ///< Thread-level condition in source names ("true": all).
  SourceLoc Loc;     ///< A header's, possibly.
  std::optional<Rational> BlockThreads, GridThreads;
};

struct KernelCounts {
  std::map<std::string, Quantity> PerThread, PerBlock;
  std::map<std::string, std::optional<Rational>> Totals;
  std::optional<Rational> ThreadsLaunched, ThreadsActive;
  std::vector<PathCount> Paths;
  /// threadIdx.x,y,z, blockIdx.x,y,z of the thread per_thread describes.
  int64_t Representative[6] = {0, 0, 0, 0, 0, 0};
  /// Per-thread FLOPs / requested global bytes, as a formula.
  std::optional<std::string> IntensityFormula;
  TrafficBound Compulsory;
  /// Every sector the grid's global requests fetch, no reuse (with a
  /// launch); UpperPartial says which accesses count bytes instead.
  std::optional<uint64_t> Upper;
  std::string UpperPartial;
  /// DRAM bytes from the cache model, between Compulsory and requested.
  CacheEstimate Estimate;
  std::vector<UnknownReason> Unknowns;
  /// The grid's totals of the work that could be counted: blocks whose
  /// executions are known, before uncountable operations made counters
  /// unknown. Unknown work only adds, so each is a lower bound of its
  /// counter (the speed of light's lower bound, Metrics.h).
  std::map<std::string, Rational> KnownTotals;
  /// Machine instructions ("inst.*" counters) summed over the grid's
  /// threads, with a launch and the kernel's PTX; InstructionsWhy says why
  /// there are none (a block's executions unknown, no PTX), and
  /// InstructionsPartial what they leave out (a call not inlined).
  std::map<std::string, Rational> Instructions;
  std::string InstructionsWhy, InstructionsPartial;
  /// Warps resident per SM (with a launch: BlocksPerSM 0 without one).
  Occupancy Occ;
};

/// Computes the counts of M for a launch; Params are kernel parameter
/// values. Without a known launch only formulas (and values that do not
/// need sizes) are produced.
/// Parameter values and, with a launch, blockDim.* and gridDim.*.
std::map<std::string, Expr>
knownValues(const std::map<std::string, int64_t> &Params,
            const KernelLaunch &Launch);

KernelCounts computeCounts(const KernelModel &M, const KernelLaunch &Launch,
                           const std::map<std::string, int64_t> &Params);

/// The counts of a kernel the analysis limits kept from being counted:
/// every counter unknown, for Why (the limit's reason at the kernel).
KernelCounts limitedCounts(const KernelLaunch &Launch, UnknownReason Why);

} // namespace roofline

#endif
