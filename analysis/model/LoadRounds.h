//===- LoadRounds.h - Global-load round trips a thread waits for -*- C++
//-*-===//
//
// Part of cuda-roofline.
//
// A warp waits for its global loads a round trip at a time: loads that do
// not depend on each other are in flight together, a load whose address or
// guard comes from another load waits for it first. ptxas schedules across
// the short forward branches of guarded loads (`cond ? A[i] : 0` becomes a
// predicated LDG), so the unit is a region of the machine code's control
// flow: blocks joined by forward edges, from a loop's head, a barrier, a
// wait on asynchronous copies or a call to the next. A region's rounds are
// the longest chain of dependent loads in it; the rounds whose values are
// used before the barrier that closes the region are ones the whole block
// waits for (docs/counting.md, "Instructions").
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_LOADROUNDS_H
#define CUDA_ROOFLINE_LOADROUNDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

namespace roofline {

/// One machine basic block of a PTX function: its labels and statements
/// ("@%p1 bra $L__BB0_2", "ld.global.f32 %f1, [%rd1]"), in layout order.
struct PtxBlock {
  llvm::SmallVector<llvm::StringRef, 1> Labels;
  std::vector<llvm::StringRef> Statements;
};

/// What the regions that start in one block wait for.
struct RegionRounds {
  unsigned Rounds = 0;    ///< Dependent global-load round trips.
  unsigned AtBarrier = 0; ///< Of those, the ones a block barrier waits for.
};

/// The rounds of the regions of Function (its blocks in layout order, the
/// entry first), by the block each region starts in.
std::vector<RegionRounds> loadRounds(llvm::ArrayRef<PtxBlock> Function);

} // namespace roofline

#endif
