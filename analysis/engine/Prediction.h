//===- Prediction.h - The implementation's time, resource by resource -*- C++
//-*-===//
//
// The speed of light is the algorithm's ceiling: its FLOPs at peak, its
// compulsory bytes at DRAM bandwidth. The prediction is the implementation's
// time: the work the kernel gives every resource of the GPU (DRAM bytes, L2
// bytes after L1, L1 wavefronts, load/store instructions, issue slots, the
// FP32/FP64/FP16/integer/MUFU/conversion/shuffle pipes, tensor-core FLOPs),
// each at its published throughput (the GPU data's "pipes"; those inside
// the SMs at the share of the busiest SM), and the longest of those times. The
// resources overlap, so the longest one is the time, and it never falls below
// the speed of light. See docs/prediction.md.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_PREDICTION_H
#define CUDA_ROOFLINE_PREDICTION_H

#include "AccessAnalysis.h"
#include "GpuDatabase.h"
#include "KernelCounts.h"
#include "Metrics.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// One resource's share of the launch.
struct ResourceTime {
  std::string Name;  ///< "dram", "l2", "l1_wavefronts", "issue", "fp32", ...
  std::string Title; ///< "shared-memory wavefronts", for people.
  std::string Unit;  ///< What Work counts: "bytes", "warp instructions", ...
  double Work = 0;
  double Throughput = 0; ///< Work per second, the whole GPU.
  double Seconds = 0;
  /// Work per warp-level FMA (0: the kernel has none), for the summary
  /// ("2 per FMA").
  double PerFma = 0;
  std::string Detail; ///< How the work splits, where the rate comes from.
};

struct Prediction {
  std::optional<double> Seconds;
  /// The resource that sets the time ("speed_of_light" when no resource's
  /// time reaches the algorithm's ceiling).
  std::string Limiter;
  std::vector<ResourceTime> Resources; ///< Longest first.
  /// Why there is no prediction, or what it leaves out (a resource without
  /// a throughput in the GPU data, instructions not counted).
  std::string Why;
  std::vector<std::string> LeftOut;
  const ResourceTime *limiter() const {
    return Resources.empty() ? nullptr : &Resources.front();
  }
};

/// The limiter as the summary says it: "shared-memory wavefronts (2 per
/// FMA)", "the speed of light".
std::string predictionLimiter(const Prediction &P);

/// The prediction for a launch whose counts are known (M.Seconds or
/// M.SecondsUpper set); otherwise Why says what is missing.
Prediction predictTime(const KernelCounts &KC,
                       const std::vector<AccessInfo> &Accesses,
                       const RooflineMetrics &M, const GpuSpec &Gpu);

} // namespace roofline

#endif
