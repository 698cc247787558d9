//===- MergedWidths.h - Shared accesses as the machine code has them -*- C++
//-*-===//
//
// ptxas joins the neighbouring shared-memory accesses of an unrolled loop
// into one 8- or 16-byte instruction (a thread's eight As[row][d] reads
// over d become two LDS.128), and shared-memory wavefronts are counted per
// machine instruction. The copy of the module compiled to PTX is merged as
// ptxas merges (PtxCodegen.h); this reads back, for each load and store of
// the analyzed module, the width of the instruction it became there.
//
// Copies of one access are found by the block marker before them and their
// debug location (unrolling clones both; the vectorizer gives a merged
// access the location of its first part). Where the bytes of a block's
// accesses at one location differ between the two modules, the block's
// unmatched locations are taken together (a float4 copy written as four
// statements merges at the first one's location).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_MERGEDWIDTHS_H
#define CUDA_ROOFLINE_MERGEDWIDTHS_H

#include "llvm/ADT/ArrayRef.h"

#include <map>

namespace llvm {
class BasicBlock;
class Instruction;
class Module;
} // namespace llvm

namespace roofline {

/// For the shared-memory loads and stores of M that Copy (M with markers,
/// unrolled and vectorized; Blocks[N] is the block of M marker N stands
/// for) has merged into wider instructions: that instruction's bytes per
/// lane, the width that carries most of the access's bytes. Accesses left
/// as they were are absent.
std::map<const llvm::Instruction *, unsigned>
mergedSharedWidths(const llvm::Module &M, const llvm::Module &Copy,
                   llvm::ArrayRef<const llvm::BasicBlock *> Blocks);

} // namespace roofline

#endif
