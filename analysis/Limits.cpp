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

enum class Reached { None, Time, Memory };

struct FileState {
  bool Active = false;
  double Seconds = 0, MemoryMiB = 0;
  Clock::time_point Deadline;
  Clock::time_point NextMemoryRead;
  Reached Why = Reached::None;
};

struct KernelState {
  bool Active = false;
  double Seconds = 0, MemoryMiB = 0;
  Clock::time_point Deadline;
  /// Reading the resident size costs a few system calls: at most once a
  /// millisecond, in which the analysis cannot allocate much.
  Clock::time_point NextMemoryRead;
  Reached Why = Reached::None;
};

// The scopes nest (a kernel inside a file); each restores what it replaced.
thread_local FileState File;
thread_local KernelState Kernel;
thread_local FileState SavedFile;
thread_local KernelState SavedKernel;

constexpr std::chrono::milliseconds MemoryReadInterval(1);

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
  File = FileState();
  File.Seconds = Seconds;
  File.MemoryMiB = MemoryMiB;
  File.Active = Seconds > 0 || MemoryMiB > 0;
  if (Seconds > 0)
    File.Deadline = after(Clock::now(), Seconds);
}

FileLimits::~FileLimits() {
  File = SavedFile;
  SavedFile = FileState();
}

bool FileLimits::expired() {
  if (!File.Active)
    return false;
  if (File.Why != Reached::None)
    return true;
  Clock::time_point Now = Clock::now();
  if (File.Seconds > 0 && Now >= File.Deadline) {
    File.Why = Reached::Time;
  } else if (File.MemoryMiB > 0 && Now >= File.NextMemoryRead) {
    File.NextMemoryRead = Now + MemoryReadInterval;
    if (residentMiB() > File.MemoryMiB)
      File.Why = Reached::Memory;
  }
  return File.Why != Reached::None;
}

std::string FileLimits::reason() {
  char Buf[200];
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

KernelLimits::KernelLimits(double Seconds, double MemoryMiB) {
  SavedKernel = Kernel;
  Kernel = KernelState();
  Kernel.Seconds = Seconds;
  Kernel.MemoryMiB = MemoryMiB;
  Kernel.Active = Seconds > 0 || MemoryMiB > 0;
  if (Seconds > 0)
    Kernel.Deadline = after(Clock::now(), Seconds);
}

KernelLimits::~KernelLimits() {
  Kernel = SavedKernel;
  SavedKernel = KernelState();
}

bool KernelLimits::reached() {
  return Kernel.Why != Reached::None || File.Why != Reached::None;
}

bool KernelLimits::expired() {
  if (reached())
    return true;
  // The file's limit counts inside a kernel too, and outside any kernel
  // (host evaluation) it is the only one.
  if (FileLimits::expired())
    return true;
  if (!Kernel.Active)
    return false;
  Clock::time_point Now = Clock::now();
  if (Kernel.Seconds > 0 && Now >= Kernel.Deadline) {
    Kernel.Why = Reached::Time;
  } else if (Kernel.MemoryMiB > 0 && Now >= Kernel.NextMemoryRead) {
    Kernel.NextMemoryRead = Now + MemoryReadInterval;
    if (residentMiB() > Kernel.MemoryMiB)
      Kernel.Why = Reached::Memory;
  }
  return Kernel.Why != Reached::None;
}

std::string KernelLimits::reason() {
  char Buf[200];
  if (Kernel.Why == Reached::Memory)
    snprintf(Buf, sizeof Buf,
             "analysis limit reached: the analysis used more than %g MiB of "
             "memory while counting this kernel (--max-kernel-memory)",
             Kernel.MemoryMiB);
  else if (Kernel.Why == Reached::Time)
    snprintf(Buf, sizeof Buf,
             "analysis limit reached: this kernel took more than %g s to "
             "count (--max-kernel-seconds)",
             Kernel.Seconds);
  else
    return FileLimits::reason();
  return Buf;
}
