//===- OffsetPieces.h - Cut a box where an offset is not affine -*- C++ -*-===//
//
// Footprints are built from boxes over which an access's offset is affine.
// Two idioms of real indexing are not affine over a large box but are over
// a few pieces of it, found without walking the box block by block:
//
//  * a select (`x > 0 ? x - 1 : x`, a border clamp) whose condition is
//    affine in one variable: the box is cut where the condition changes;
//  * a flat index taken apart by `/` and `%` by a constant
//    (`x = idx % w, y = idx / w`): where the box's variables enter the
//    offset only through one linear index that runs over consecutive
//    integers, the index is renamed and its whole periods become the
//    product (quotient, remainder), with a partial period at each end.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_OFFSETPIECES_H
#define CUDA_ROOFLINE_OFFSETPIECES_H

#include "Expr.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// An offset over a box: the variables Vars, ranged or pointwise in Env.
struct OffsetBox {
  Expr Offset;
  IntervalEnv Env;
  std::vector<std::string> Vars;
};

/// What a leaf made of a piece: nullopt if the offset is not affine there
/// (the piece is cut further), else whether its bytes could be added.
using PieceLeaf = std::function<std::optional<bool>(OffsetBox)>;

/// Gives Leaf the box, or pieces that cover it exactly once, each with the
/// offset frozen over it. False if a piece stays non-affine after the cuts
/// these idioms allow, if more than MaxPieces pieces would be needed, or if
/// Leaf failed; the caller then splits the box its own way.
bool forEachAffinePiece(OffsetBox Box, const PieceLeaf &Leaf,
                        unsigned MaxPieces);

} // namespace roofline

#endif
