//===- Metrics.h - Arithmetic intensity, ridge point, speed of light -*- C++
//-*-===//
//
// The roofline numbers derived from counts and a GPU: AI as a range (FLOPs
// over the upper and lower DRAM bytes), the ridge point of the unit and
// precision the FLOPs use, and the speed of light max(FLOPs / peak,
// bytes / bandwidth) with both byte bounds. Below OverheadSeconds the launch
// itself dominates and the kernel is reported overhead-bound.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_METRICS_H
#define CUDA_ROOFLINE_METRICS_H

#include "GpuDatabase.h"
#include "KernelCounts.h"

#include <optional>
#include <string>

namespace roofline {

/// About one back-to-back kernel launch (docs/counting.md, "Bound").
constexpr double OverheadSeconds = 3e-6;

struct RooflineMetrics {
  std::string Precision = "fp32"; ///< Dominant FLOP precision.
  ComputeUnit Unit = ComputeUnit::CudaCore;
  std::optional<double> Peak;  ///< FLOP/s of that unit and precision.
  std::optional<double> Ridge; ///< FLOP/byte.
  std::optional<double> Flops; ///< Grid total.
  std::optional<double> DramLower, DramUpper;
  std::optional<double> AILower, AIUpper; ///< FLOPs/upper, FLOPs/lower.
  /// FLOPs over the bytes the global accesses ask for (not whole sectors).
  std::optional<double> AIRequested;
  std::optional<double> DramEstimate, AIEstimate, SecondsEstimate;
  std::optional<double> ComputeSeconds;
  std::optional<double> Seconds, SecondsUpper;
  std::string Bound; ///< "memory", "compute", "overhead" or "unknown".
  std::string Note;  ///< Why something is missing.
  /// Without Seconds and SecondsUpper (counts with unknowns): the known
  /// FLOPs at their peaks against the known compulsory bytes, which unknown
  /// work can only raise; LowerBoundWhy is the first unknown.
  std::optional<double> LowerBound;
  std::string LowerBoundWhy;
};

/// "fp32 CUDA cores", "bf16 tensor cores": the unit a ridge is for.
std::string unitText(const std::string &Precision, ComputeUnit Unit);

/// The precision doing the most FLOPs, and whether tensor cores do them.
void dominantUnit(const KernelCounts &KC, std::string &Precision,
                  ComputeUnit &Unit);

/// The grid's FLOPs of every precision at its own peak, added; nullopt
/// (Note says why) when a precision has no peak on Gpu.
std::optional<double> computeSeconds(const KernelCounts &KC, const GpuSpec &Gpu,
                                     std::string &Note);

RooflineMetrics computeMetrics(const KernelCounts &KC, const GpuSpec &Gpu,
                               bool HaveLaunch);

} // namespace roofline

#endif
