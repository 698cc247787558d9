//===- Limits.h - Time and memory limits on a file's analysis ----*- C++
//-*-===//
//
// A lint runs on every file of every commit: a pathological kernel must end
// in an "analysis limit reached" unknown, not a hang or an exhausted
// machine. The step budgets of the walkers bound each walk; these bound all
// the work on one kernel together (building its model, counting, the access
// analysis, the compulsory traffic and the cache model): its wall-clock
// time, and the process's resident memory meanwhile. A file limit bounds
// the whole file (host evaluation of its launches and all its kernels), so
// that a batch run over many files ends in a known time however many slow
// kernels a file has.
//
// The limits are per thread, so parallel files (-j) each have their own
// clocks; memory is the process's, which the threads share.
//
// Long-running loops call KernelLimits::expired() every few thousand cheap
// steps or every expensive one: once a limit is reached it answers from a
// flag, and it reads the process's memory at most once a millisecond, so a
// call costs about a clock read.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LIMITS_H
#define CUDA_ROOFLINE_LIMITS_H

#include <atomic>
#include <cstdint>
#include <string>

namespace roofline {

/// Starts the limits on one file's analysis until the scope ends: past
/// Seconds, or once the process's resident memory exceeds MemoryMiB (<= 0:
/// no limit), every check of the file's work (host evaluation, and its
/// kernels through KernelLimits) says the limit is reached.
class FileLimits {
public:
  FileLimits(double Seconds, double MemoryMiB);
  ~FileLimits();
  FileLimits(const FileLimits &) = delete;
  FileLimits &operator=(const FileLimits &) = delete;

  /// Whether the current file has run out of time. Stays true once true.
  static bool expired();
  /// The reason an unknown gives when the file's limit is reached.
  static std::string reason();
};

/// Until the scope ends, the analyses of this thread stop early once Flag
/// is set (another thread sets it: the language server when a newer edit
/// makes the analysis in progress useless), as if their file's limit were
/// reached.
class CancelScope {
public:
  explicit CancelScope(const std::atomic<bool> &Flag);
  ~CancelScope();
  /// Whether a limit check of this scope found the flag set (the work
  /// stopped early rather than running to its end).
  static bool stoppedEarly();
  CancelScope(const CancelScope &) = delete;
  CancelScope &operator=(const CancelScope &) = delete;
};

/// Starts the limits for one kernel until the scope ends: its work gives
/// up after Seconds, or once the process's resident memory exceeds
/// MemoryMiB (<= 0: no limit), or once the file's limit is reached.
class KernelLimits {
public:
  /// MaxChecks (0: none) bounds the number of expired() calls instead of
  /// the time: a limit reached at the same step on any machine.
  KernelLimits(double Seconds, double MemoryMiB, uint64_t MaxChecks = 0);
  ~KernelLimits();
  KernelLimits(const KernelLimits &) = delete;
  KernelLimits &operator=(const KernelLimits &) = delete;

  /// Whether the current kernel (or file) has reached a limit. Once
  /// reached, it stays reached until the scope ends.
  static bool expired();
  /// Whether a limit was found reached by an earlier expired() call: no
  /// clock read, for a check on every step of a walk.
  static bool reached();
  /// The reason an unknown gives when a limit is reached.
  static std::string reason();
};

/// The process's resident memory in MiB (0 where the system does not say).
double residentMiB();

} // namespace roofline

#endif
