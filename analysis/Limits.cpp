//===- Limits.cpp ---------------------------------------------------------===//

#include "Limits.h"

#include <chrono>
#include <cstdio>
#include <unistd.h>

using namespace roofline;
using Clock = std::chrono::steady_clock;

namespace {
enum class Reached { None, Time, Memory };
struct State {
  bool Active = false;
  double Seconds = 0, MemoryMiB = 0;
  Clock::time_point Deadline;
  Reached Why = Reached::None;
};
thread_local State Current;
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

KernelLimits::KernelLimits(double Seconds, double MemoryMiB) {
  Current = State();
  Current.Seconds = Seconds;
  Current.MemoryMiB = MemoryMiB;
  Current.Active = Seconds > 0 || MemoryMiB > 0;
  if (Seconds > 0)
    Current.Deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(Seconds));
}

KernelLimits::~KernelLimits() { Current = State(); }

bool KernelLimits::expired() {
  if (!Current.Active)
    return false;
  if (Current.Why != Reached::None)
    return true;
  if (Current.Seconds > 0 && Clock::now() >= Current.Deadline)
    Current.Why = Reached::Time;
  else if (Current.MemoryMiB > 0 && residentMiB() > Current.MemoryMiB)
    Current.Why = Reached::Memory;
  return Current.Why != Reached::None;
}

std::string KernelLimits::reason() {
  char Buf[200];
  if (Current.Why == Reached::Memory)
    snprintf(Buf, sizeof Buf,
             "analysis limit reached: the analysis used more than %g MiB of "
             "memory while counting this kernel (--max-kernel-memory)",
             Current.MemoryMiB);
  else
    snprintf(Buf, sizeof Buf,
             "analysis limit reached: this kernel took more than %g s to "
             "count (--max-kernel-seconds)",
             Current.Seconds);
  return Buf;
}
