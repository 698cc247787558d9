//===- FindingCost.cpp ----------------------------------------------------===//

#include "FindingCost.h"

using namespace roofline;

// Per-SM per-clock work as time: N units spread over every SM.
static std::optional<double> perSMClock(double N, const GpuSpec &Gpu) {
  if (!Gpu.SMClock || !Gpu.SMs)
    return std::nullopt;
  return N / (double(Gpu.SMs) * Gpu.SMClock);
}

std::optional<double> roofline::uncoalescedCost(const AccessInfo &A,
                                                const GpuSpec &Gpu) {
  auto Requests = gridRequests(A);
  if (!Requests || !A.Sectors || Gpu.DramBandwidth <= 0)
    return std::nullopt;
  unsigned Got = A.MaxSectors ? A.MaxSectors : A.Sectors->Sectors;
  unsigned Ideal = A.idealSectors();
  if (Got <= Ideal)
    return 0.0;
  return *Requests * (Got - Ideal) * 32.0 / Gpu.DramBandwidth;
}

std::optional<double> roofline::bankConflictCost(const AccessInfo &A,
                                                 const GpuSpec &Gpu) {
  auto Requests = gridRequests(A);
  if (!Requests || !A.Banks || A.Banks->Wavefronts <= A.Banks->MinWavefronts)
    return std::nullopt;
  return perSMClock(*Requests * (A.Banks->Wavefronts - A.Banks->MinWavefronts),
                    Gpu);
}

std::optional<double> roofline::unvectorizedCost(const AccessInfo &A,
                                                 const GpuSpec &Gpu) {
  auto Requests = gridRequests(A);
  if (!Requests || !A.VectorBytes || !A.Width)
    return std::nullopt;
  double PerVector = double(A.VectorBytes / A.Width);
  return perSMClock(*Requests * (1.0 - 1.0 / PerVector), Gpu);
}

std::optional<double> roofline::memoryBoundCost(const RooflineMetrics &M) {
  if (!M.Seconds || !M.ComputeSeconds || *M.Seconds < *M.ComputeSeconds)
    return std::nullopt;
  return *M.Seconds - *M.ComputeSeconds;
}
