//===- WideAddresses.h - The address arithmetic ptxas folds ----*- C++ -*-===//
//
// Part of cuda-roofline.
//
// PTX computes a 64-bit address as a widening multiply and a 64-bit add
// (mul.wide.s32 %rd5, %r4, 4; add.s64 %rd6, %rd3, %rd5); ptxas makes one
// IMAD.WIDE of the pair, on the FMA pipe, and a pointer stepped by a
// product computed once (add.s64 %rd11, %rd11, %rd9) one IMAD.WIDE from the
// product's 32-bit source, the product itself then gone. Counted as the PTX
// spells it, that is 2 ALU instructions for each add and an integer
// multiply for each product (docs/counting.md, "Instructions").
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_WIDEADDRESSES_H
#define CUDA_ROOFLINE_WIDEADDRESSES_H

#include "OpClassifier.h"

#include "llvm/ADT/StringRef.h"

#include <set>
#include <string>

namespace roofline {

/// The widening products of one PTX function and the adds that use them.
class WideAddresses {
public:
  /// Reads the function whose body starts Text (up to the next function).
  static WideAddresses of(llvm::StringRef Text);

  /// Counts (Opcode, Operands) as ptxas compiles it and returns true if it
  /// is such arithmetic: a 64-bit add of a product is one integer multiply-
  /// add, a product all of whose uses are such adds counts nothing.
  bool count(llvm::StringRef Opcode, llvm::StringRef Operands,
             OpCounts &Out) const;

private:
  std::set<std::string> Products, Folded;
};

} // namespace roofline

#endif
