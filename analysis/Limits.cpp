//===- Limits.cpp ---------------------------------------------------------===//

#include "Limits.h"

#include <chrono>
#include <cstdio>

using namespace roofline;
using Clock = std::chrono::steady_clock;

namespace {
struct State {
  bool Active = false;
  double Seconds = 0;
  Clock::time_point Deadline;
};
thread_local State Current;
} // namespace

KernelTimeLimit::KernelTimeLimit(double Seconds) {
  Current.Active = Seconds > 0;
  Current.Seconds = Seconds;
  if (Current.Active)
    Current.Deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(Seconds));
}

KernelTimeLimit::~KernelTimeLimit() { Current.Active = false; }

bool KernelTimeLimit::expired() {
  return Current.Active && Clock::now() >= Current.Deadline;
}

std::string KernelTimeLimit::reason() {
  char Buf[160];
  snprintf(Buf, sizeof Buf,
           "analysis limit reached: this kernel took more than %g s to "
           "count (--max-kernel-seconds)",
           Current.Seconds);
  return Buf;
}
