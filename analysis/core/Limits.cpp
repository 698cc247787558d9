//===- Limits.cpp ---------------------------------------------------------===//

#include "Limits.h"

#include <chrono>
#include <cstdio>
#include <unistd.h>

using namespace roofline;
using Clock = std::chrono::steady_clock;

namespace {

Clock::time_point after(Clock::time_point Start, double Seconds) {
  return Start + std::chrono::duration_cast<Clock::duration>(
                     std::chrono::duration<double>(Seconds));
}

enum class Reached { None, Time, Memory, Work, Cancelled };

constexpr std::chrono::milliseconds MemoryReadInterval(1);

double residentMiBNow();

/// One scope's limits (a file's or a kernel's): a wall-clock deadline and
/// a ceiling on the process's resident memory.
struct LimitState {
  bool Active = false;
  double Seconds = 0, MemoryMiB = 0;
  /// A budget of checks (0: none): unlike the clock, it ends the same walk
  /// at the same step on any machine under any load.
  uint64_t MaxChecks = 0, Checks = 0;
  Clock::time_point Deadline;
  /// Reading the resident size costs a few system calls: at most once a
  /// millisecond, in which the analysis cannot allocate much.
  Clock::time_point NextMemoryRead;
  Reached Why = Reached::None;

  LimitState() = default;
  LimitState(double Seconds, double MemoryMiB, uint64_t MaxChecks = 0)
      : Active(Seconds > 0 || MemoryMiB > 0 || MaxChecks > 0), Seconds(Seconds),
        MemoryMiB(MemoryMiB), MaxChecks(MaxChecks) {
    if (Seconds > 0)
      Deadline = after(Clock::now(), Seconds);
  }

  /// Whether a limit is reached (once reached, it stays).
  bool check() {
    if (!Active || Why != Reached::None)
      return Why != Reached::None;
    if (MaxChecks && ++Checks > MaxChecks) {
      Why = Reached::Work;
      return true;
    }
    Clock::time_point Now = Clock::now();
    if (Seconds > 0 && Now >= Deadline) {
      Why = Reached::Time;
    } else if (MemoryMiB > 0 && Now >= NextMemoryRead) {
      NextMemoryRead = Now + MemoryReadInterval;
      if (residentMiBNow() > MemoryMiB)
        Why = Reached::Memory;
    }
    return Why != Reached::None;
  }
};

// The scopes nest (a kernel inside a file); each restores what it replaced.
thread_local LimitState File;
thread_local LimitState Kernel;
thread_local LimitState SavedFile;
thread_local LimitState SavedKernel;
thread_local const std::atomic<bool> *Cancel = nullptr;
thread_local bool CancelHit = false;

double residentMiBNow() { return roofline::residentMiB(); }

} // namespace

double roofline::residentMiB() {
  // Linux: the second field of /proc/self/statm is resident pages.
  FILE *F = std::fopen("/proc/self/statm", "r");
  if (!F)
    return 0;
  unsigned long long Size = 0, Resident = 0;
  int N = std::fscanf(F, "%llu %llu", &Size, &Resident);
  std::fclose(F);
  if (N != 2)
    return 0;
  return double(Resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

FileLimits::FileLimits(double Seconds, double MemoryMiB) {
  SavedFile = File;
  File = LimitState(Seconds, MemoryMiB);
}

FileLimits::~FileLimits() {
  File = SavedFile;
  SavedFile = LimitState();
}

bool FileLimits::expired() {
  if (Cancel && File.Why == Reached::None &&
      Cancel->load(std::memory_order_relaxed)) {
    File.Why = Reached::Cancelled;
    CancelHit = true;
  }
  return File.check();
}

CancelScope::CancelScope(const std::atomic<bool> &Flag) {
  Cancel = &Flag;
  CancelHit = false;
}

CancelScope::~CancelScope() { Cancel = nullptr; }

bool CancelScope::stoppedEarly() { return CancelHit; }

std::string FileLimits::reason() {
  char Buf[200];
  if (File.Why == Reached::Cancelled)
    return "analysis cancelled: a newer version of the file replaces it";
  if (File.Why == Reached::Memory)
    snprintf(Buf, sizeof Buf,
             "analysis limit reached: the analysis of this file used more "
             "than %g MiB of memory (--max-kernel-memory)",
             File.MemoryMiB);
  else
    snprintf(Buf, sizeof Buf,
             "analysis limit reached: the analysis of this file took more "
             "than %g s (--max-file-seconds)",
             File.Seconds);
  return Buf;
}

KernelLimits::KernelLimits(double Seconds, double MemoryMiB,
                           uint64_t MaxChecks) {
  SavedKernel = Kernel;
  Kernel = LimitState(Seconds, MemoryMiB, MaxChecks);
}

KernelLimits::~KernelLimits() {
  Kernel = SavedKernel;
  SavedKernel = LimitState();
}

bool KernelLimits::reached() {
  return Kernel.Why != Reached::None || File.Why != Reached::None;
}

bool KernelLimits::expired() {
  // The file's limits count inside a kernel too, and outside any kernel
  // (host evaluation) they are the only ones.
  return reached() || FileLimits::expired() || Kernel.check();
}

std::string KernelLimits::reason() {
  char Buf[200];
  if (Kernel.Why == Reached::Memory)
    snprintf(Buf, sizeof Buf,
             "analysis limit reached: the analysis used more than %g MiB of "
             "memory while counting this kernel (--max-kernel-memory)",
             Kernel.MemoryMiB);
  else if (Kernel.Why == Reached::Work)
    return "analysis limit reached: this kernel's count took more than its "
           "budget of steps";
  else if (Kernel.Why == Reached::Time)
    snprintf(Buf, sizeof Buf,
             "analysis limit reached: this kernel took more than %g s to "
             "count (--max-kernel-seconds)",
             Kernel.Seconds);
  else
    return FileLimits::reason();
  return Buf;
}
