//===- OpClassifier.h - What one IR instruction counts as ------*- C++ -*-===//
//
// Maps an instruction to the counters it contributes to, following
// docs/counting.md: add/sub/mul = 1 FLOP, fma = 2, division = 1 FLOP and a
// division, math library calls = one special function of their kind, global
// and shared loads/stores by width, atomics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_OPCLASSIFIER_H
#define CUDA_ROOFLINE_OPCLASSIFIER_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace llvm {
class Instruction;
class IntrinsicInst;
class Value;
class DataLayout;
} // namespace llvm

namespace roofline {

/// Counter name -> amount. Names: "flops.<prec>", "div.<prec>",
/// "special.<kind>", "global.loads", "global.load_bytes", "global.stores",
/// "global.store_bytes", "shared.load_bytes", "shared.store_bytes",
/// "atomics", "atomic_bytes".
using OpCounts = std::map<std::string, int64_t>;

enum class MemSpace { None, Global, Shared, Local, Constant };

/// What an uncountable instruction may contribute to.
enum AffectedCounters : unsigned {
  AffectsCompute = 1,   ///< FLOPs, divisions, special functions.
  AffectsLoads = 2,     ///< Global and shared loads.
  AffectsStores = 4,    ///< Global and shared stores, atomics.
  AffectsShuffles = 8,  ///< Warp shuffles (apart: a guarded add leaves them).
  AffectsExecuted = 16, ///< The executed FLOPs alone (flops_executed.*).
  AffectsRegisters = AffectsCompute | AffectsShuffles, ///< No memory.
  AffectsAll = AffectsRegisters | AffectsLoads | AffectsStores,
};

/// The AffectedCounters category of a counter name.
unsigned counterCategory(const std::string &Counter);

/// Adds I's contribution to Out: the algorithmic counts and the FLOPs it
/// executes (ExecutedMath.h). Returns false when I is something whose
/// effect cannot be counted (indirect call, unknown inline asm, call to a
/// function that was not inlined, library math that could not be run);
/// Why then says what and Affects which counters it may change (a
/// read-only callee cannot store; library math only its executed FLOPs).
/// A count that contention can raise (a float atomic on shared memory)
/// returns false with Affects 0: counted, and the reason reported.
bool classifyInstruction(const llvm::Instruction &I, const llvm::DataLayout &DL,
                         OpCounts &Out, std::string &Why, unsigned &Affects);

/// An intrinsic that reads or writes memory the counts would miss (a
/// masked or gathered load, an asynchronous copy): why, or none for the
/// intrinsics that are counted or move no data (markers, barriers, fences).
std::optional<std::string>
uncountedMemoryIntrinsic(const llvm::IntrinsicInst &II);

/// The memory space a load/store/atomic address refers to.
MemSpace memorySpaceOf(const llvm::Instruction &I);
/// The memory space a pointer points into (generic pointers are resolved
/// from their underlying objects).
MemSpace spaceOfPointer(const llvm::Value *Ptr);

/// A warp-wide WMMA fragment load or store: a Rows x Cols tile of
/// ElemBytes-byte elements at Ptr with leading dimension Stride (elements).
struct FragmentAccess {
  bool IsStore = false;
  bool RowMajor = true;
  int64_t Rows = 0, Cols = 0, ElemBytes = 0;
  const llvm::Value *Ptr = nullptr;
  const llvm::Value *Stride = nullptr;
};
std::optional<FragmentAccess> fragmentAccess(const llvm::Instruction &I);

} // namespace roofline

#endif
