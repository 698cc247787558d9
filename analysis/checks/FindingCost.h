//===- FindingCost.h - What each finding costs at the launch -----*- C++
//-*-===//
//
// Reports list findings by the time they cost, so that the first one read
// is the one worth fixing first. Each check's cost is the time its waste
// adds at the resource it wastes, on the target GPU, for the whole launch:
//
//   roofline-uncoalesced-access   the grid's extra sectors (fetched beyond
//                                 the fewest its bytes need) at DRAM
//                                 bandwidth
//   roofline-bank-conflict        the grid's extra shared-memory wavefronts,
//                                 one per SM per clock
//   roofline-unvectorized-access  the grid's extra requests, one per SM per
//                                 clock (the LSU takes one request a cycle)
//   roofline-global-reuse         the L2 time a tile saves (TileCost.h)
//   roofline-memory-bound         the memory time beyond the compute time
//
// See docs/findings.md, "Ranking".
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_FINDINGCOST_H
#define CUDA_ROOFLINE_FINDINGCOST_H

#include "AccessAnalysis.h"
#include "GpuDatabase.h"
#include "Metrics.h"

#include <optional>

namespace roofline {

std::optional<double> uncoalescedCost(const AccessInfo &A, const GpuSpec &Gpu);
std::optional<double> bankConflictCost(const AccessInfo &A, const GpuSpec &Gpu);
std::optional<double> unvectorizedCost(const AccessInfo &A, const GpuSpec &Gpu);
std::optional<double> memoryBoundCost(const RooflineMetrics &M);

} // namespace roofline

#endif
