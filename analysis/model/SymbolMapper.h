//===- SymbolMapper.h - ScalarEvolution expressions to source names -*- C++
//-*-===//
//
// Turns SCEVs into Exprs whose symbols are the names a kernel author wrote:
// kernel parameters, threadIdx.x, blockDim.x, and one iteration index per
// loop. Integer divisions, remainders and shifts that SCEV leaves opaque are
// looked through, so `(n + 255) / 256` stays a formula. Values loaded from
// memory make the result unknown, with the reason and location.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_SYMBOLMAPPER_H
#define CUDA_ROOFLINE_SYMBOLMAPPER_H

#include "Expr.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class BinaryOperator;
class ConstantInt;
class IntrinsicInst;
class Loop;
class PHINode;
class SelectInst;
class SCEV;
class ScalarEvolution;
class Value;
class Function;
} // namespace llvm

namespace roofline {

/// The source-level name of an NVPTX special register read, e.g.
/// "threadIdx.x", with its kind; nullopt for other values.
std::optional<std::pair<std::string, SymbolKind>>
specialRegisterName(const llvm::Value *V);

class SymbolMapper {
public:
  SymbolMapper(llvm::ScalarEvolution &SE, const llvm::Function &F,
               const std::vector<std::string> &ParamNames);

  /// Loops and recurrence counters get their own symbols.
  void setLoopVar(const llvm::Loop *L, const std::string &Var);
  void setValueVar(const llvm::PHINode *P, const std::string &Var);

  std::optional<Expr> convert(const llvm::SCEV *S);
  std::optional<Expr> convertValue(const llvm::Value *V);

  /// After a failed conversion: why, and the value responsible.
  const std::string &failure() const { return Why; }
  const llvm::Value *culprit() const { return Culprit; }

  std::string paramName(const llvm::Value *Arg) const;

private:
  llvm::ScalarEvolution &SE;
  std::vector<std::string> ParamNames;
  const llvm::Function &F;
  llvm::DenseMap<const llvm::Loop *, std::string> LoopVars;
  llvm::DenseMap<const llvm::PHINode *, std::string> ValueVars;
  llvm::SmallPtrSet<const llvm::PHINode *, 4> Merging; ///< Phis being unified.
  std::string Why;
  const llvm::Value *Culprit = nullptr;
  unsigned Depth = 0;

  std::optional<Expr> fail(const std::string &Reason, const llvm::Value *V);
  std::optional<Expr> convertUnknown(const llvm::Value *V);
  std::optional<Expr> convertIntrinsic(const llvm::IntrinsicInst *II);
  std::optional<Expr> convertPhi(const llvm::PHINode *P);
  std::optional<Expr> convertSelect(const llvm::SelectInst *Sel);
  std::optional<Expr> convertChoice(const llvm::Value *Cond, const Expr &T,
                                    const Expr &F, const llvm::Value *V);
  std::optional<Expr> convertBinary(const llvm::BinaryOperator *BO);
  std::optional<Expr> convertDivRem(const llvm::BinaryOperator *BO,
                                    const llvm::ConstantInt *C);
  std::optional<Expr> convertMask(const llvm::BinaryOperator *BO,
                                  const llvm::ConstantInt *C);
  std::optional<Expr> convertWide(const llvm::SCEV *S);
  std::optional<Interval> symbolRange(const std::string &Name);
  bool disjointBits(const Expr &Low, const Expr &High);
  static bool isLaneId(const llvm::Value *V);
  static Expr laneIdExpr();
};

} // namespace roofline

#endif
