//===- Limits.h - Time and memory limits on one kernel's analysis -*- C++ -*-===//
//
// A lint runs on every file of every commit: a pathological kernel must end
// in an "analysis limit reached" unknown, not a hang or an exhausted
// machine. The step budgets of the walkers bound each walk; these bound all
// walks of one kernel together: its wall-clock time, and the process's
// resident memory while it is counted. The limits are per thread, so
// parallel files (-j) each have their own clock; memory is the process's,
// which the threads share.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LIMITS_H
#define CUDA_ROOFLINE_LIMITS_H

#include <cstdint>
#include <string>

namespace roofline {

/// Starts the limits for one kernel until the scope ends: walks give up
/// after Seconds, or once the process's resident memory exceeds MemoryMiB
/// (<= 0: no limit).
class KernelLimits {
public:
  KernelLimits(double Seconds, double MemoryMiB);
  ~KernelLimits();
  KernelLimits(const KernelLimits &) = delete;
  KernelLimits &operator=(const KernelLimits &) = delete;

  /// Whether the current kernel has reached a limit (cheap enough for
  /// inner loops that call it every few thousand steps). Once reached, it
  /// stays reached until the scope ends.
  static bool expired();
  /// The reason an unknown gives when a limit is reached.
  static std::string reason();
};

/// The process's resident memory in MiB (0 where the system does not say).
double residentMiB();

} // namespace roofline

#endif
