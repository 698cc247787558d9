//===- FlagLoops.h - Two-trip loops back into counted form ------*- C++ -*-===//
//
// The optimizer turns a two-iteration loop (for (j = 0; j < 8; j += 4)) into
// one that exits on a header phi of constants ([true, entry], [false,
// latch]) and carries j as phi [0, entry], [4, latch]. ScalarEvolution sees
// neither a trip count nor an affine j. This rewrite gives such loops an
// explicit counter so both become computable again.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_FLAGLOOPS_H
#define CUDA_ROOFLINE_FLAGLOOPS_H

namespace llvm {
class Module;
}

namespace roofline {

/// Returns the number of loops rewritten.
unsigned canonicalizeFlagLoops(llvm::Module &M);

} // namespace roofline

#endif
