//===- TensorMaps.h - TMA tensor map boxes from host code -------*- C++ -*-===//
//
// A Hopper TMA copy (cp.async.bulk.tensor) moves one box of the tensor its
// CUtensorMap describes; the device code names only the map, and the box
// is set on the host by cuTensorMapEncodeTiled. This reads, from the AST of
// the same translation unit, the map a <<<>>> launch passes for a
// CUtensorMap parameter back to the encode call that built it (directly,
// or inside a helper that returns the map), and evaluates the box's bytes.
// CacheHintAsm then lowers the copy to a copy of those bytes
// (docs/counting.md, "Inline PTX").
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_TENSORMAPS_H
#define CUDA_ROOFLINE_TENSORMAPS_H

#include "SourceLoc.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class ParmVarDecl;
class QualType;
} // namespace clang

namespace roofline {

/// One box of a tensor map: its bytes, or why they are not known.
struct TensorMapBox {
  uint64_t Bytes = 0;
  unsigned ElementBytes = 0;
  /// Elements per dimension, innermost first (the boxDim array).
  std::vector<int64_t> Box;
  /// The bytes between consecutive coordinates of dimensions 1 and up (the
  /// globalStrides array) where they are constants; empty otherwise.
  std::vector<int64_t> Strides;
  /// Non-empty: why Bytes is not known ("'box' is not a constant").
  std::string Why;
  /// The encode call (or the launch, when no call was found).
  SourceLoc Loc;
  bool known() const { return Why.empty() && Bytes; }
};

/// Kernel (mangled name) -> parameter index -> the box of the maps its
/// launches pass there.
using TensorMapBoxes = std::map<std::string, std::map<unsigned, TensorMapBox>>;

/// True for CUtensorMap (struct CUtensorMap_st), however it is spelled.
bool isTensorMapType(clang::QualType T);

/// Values of the launching function's parameters, from one of its callers.
using ParamValues = std::map<const clang::ParmVarDecl *, int64_t>;

/// The box of the map Arg, a launch's argument for a CUtensorMap
/// parameter, evaluates to, with the launching function's parameters at
/// Values. Unvalued, if given, gets the parameters without a value that a
/// part of the box was computed from (`box[1] = box_rows`): a caller may
/// give them.
TensorMapBox
tensorMapBox(clang::ASTContext &Ctx, const clang::Expr *Arg,
             const ParamValues &Values = {},
             std::vector<const clang::ParmVarDecl *> *Unvalued = nullptr);

/// Adds the box another launch passes: two launches that pass different
/// boxes leave the bytes unknown; different strides are dropped.
void mergeTensorMapBox(TensorMapBox &Into, const TensorMapBox &Other);

} // namespace roofline

#endif
