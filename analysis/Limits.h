//===- Limits.h - A time limit on the analysis of one kernel ----*- C++ -*-===//
//
// A lint runs on every file of every commit: a pathological kernel must end
// in an "analysis limit reached" unknown, not a hang. The step budgets of
// the walkers bound each walk; this bounds the wall-clock time of all walks
// of one kernel together. The limit is per thread, so parallel files (-j)
// each have their own.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LIMITS_H
#define CUDA_ROOFLINE_LIMITS_H

#include <string>

namespace roofline {

/// Starts the clock for one kernel: walks give up after Seconds (<= 0: no
/// limit) until the scope ends.
class KernelTimeLimit {
public:
  explicit KernelTimeLimit(double Seconds);
  ~KernelTimeLimit();
  KernelTimeLimit(const KernelTimeLimit &) = delete;
  KernelTimeLimit &operator=(const KernelTimeLimit &) = delete;

  /// Whether the current kernel's time is up (cheap enough for inner loops
  /// that call it every few thousand steps).
  static bool expired();
  /// The reason an unknown gives when the time is up.
  static std::string reason();
};

} // namespace roofline

#endif
