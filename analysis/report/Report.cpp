//===- Report.cpp ---------------------------------------------------------===//

#include "Report.h"

#include <algorithm>

using namespace roofline;

std::vector<const Finding *>
roofline::findingsByCost(const std::vector<FileReport> &Files) {
  // What clang's errors kept from being analyzed first, as the failures
  // head a report: the silence that follows is no clean bill.
  std::vector<const Finding *> Lost, All;
  for (const FileReport &F : Files) {
    for (const Finding &Fd : F.Findings)
      Lost.push_back(&Fd);
    for (const KernelReport &K : F.Kernels)
      for (const Finding &Fd : K.Findings)
        All.push_back(&Fd);
  }
  std::stable_sort(
      All.begin(), All.end(),
      [](const Finding *L, const Finding *R) { return costlier(*L, *R); });
  Lost.insert(Lost.end(), All.begin(), All.end());
  return Lost;
}
