//===- KernelModel.h - A kernel's loops, guards, ops and accesses -*- C++
//-*-===//
//
// The kernel model is what the counting stages consume: for every basic
// block of the kernel, the loops that enclose it (with trip counts as
// formulas over source names), the condition under which it runs relative to
// each loop level, the operations it performs, and its global accesses with
// their byte-offset formulas. It is built from optimized device IR with
// LoopInfo and ScalarEvolution; formulas use source names, never IR values.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_KERNELMODEL_H
#define CUDA_ROOFLINE_KERNELMODEL_H

#include "Expr.h"
#include "HostLaunches.h"
#include "OpClassifier.h"
#include "SourceLoc.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
class Function;
class BasicBlock;
class Instruction;
} // namespace llvm

namespace roofline {

/// Why something could not be counted, and where.
struct UnknownReason {
  std::string Reason;
  SourceLoc Loc; ///< File empty: the kernel's file.
  /// Names that had no value where one was needed (kernel parameters, when
  /// the reason is a missing size): what roofline-missing-size asks for.
  std::vector<std::string> Missing;
};

/// A boolean guard over expressions.
struct Cond;
using CondRef = std::shared_ptr<const Cond>;
struct Cond {
  enum Kind { True, False, Cmp, And, Or, Not, Unknown } K = True;
  CmpKind Pred = CmpKind::LT; // Cmp: Lhs Pred Rhs.
  Expr Lhs, Rhs;
  std::vector<CondRef> Ops;
  UnknownReason Why; // Unknown.

  static CondRef makeTrue();
  static CondRef makeFalse();
  static CondRef cmp(CmpKind P, const Expr &L, const Expr &R);
  static CondRef conj(CondRef A, CondRef B);
  static CondRef disj(CondRef A, CondRef B);
  static CondRef negate(CondRef A);
  static CondRef unknown(UnknownReason R);

  Truth evaluate(const IntervalEnv &Env) const;
  CondRef substitute(const std::map<std::string, Expr> &Map) const;
  bool mentions(const std::string &Var) const;
  /// The condition with negations pushed onto the literals and every
  /// literal (comparison or unknown) for which Pass holds replaced by true:
  /// "this guard is taken to pass".
  CondRef assumePassing(const std::function<bool(const Cond &)> &Pass) const;
  /// Rebuilds the condition with negations pushed onto the literals and
  /// every literal (comparison or unknown, already negated where needed)
  /// replaced by Map's result.
  CondRef mapLiterals(const std::function<CondRef(const Cond &)> &Map,
                      bool Negated = false) const;
  /// True if a thread coordinate (threadIdx.*, blockIdx.*) occurs.
  bool mentionsThread() const;
  bool mentionsAny(const std::set<std::string> &Vars) const;
  /// First Unknown leaf, if any.
  const UnknownReason *firstUnknown() const;
  std::string str() const;
};

/// Iterates a loop counter that ScalarEvolution cannot describe as an affine
/// recurrence (s >>= 1, s *= 2, s /= 2) by simulation on concrete values.
struct Recurrence {
  enum Op { Shr, Shl, Div, Mul } Operation = Shr;
  int64_t Amount = 1;
  Expr Start;
  CmpKind ContinuePred = CmpKind::GT; ///< Loop continues while X pred Bound.
  Expr Bound;
  bool TestsNext = true; ///< X is the updated value (else the current one).
};

struct LoopInfoModel {
  unsigned Id = 0;
  int Parent = -1;               ///< Index into KernelModel::Loops.
  std::string Var;               ///< Iteration index symbol (or value).
  std::optional<Expr> TripCount; ///< Body executions per entry.
  std::optional<Recurrence> Rec; ///< When the counter is simulated.
  UnknownReason Unknown;         ///< Set when neither is available.
  SourceLoc Loc;                 ///< A header's, possibly.
  bool isKnown() const { return TripCount || Rec; }
};

/// A global or shared memory access: footprints (compulsory traffic) use
/// the global ones, the access-pattern analysis both.
struct AccessModel {
  MemSpace Space = MemSpace::Global;
  /// Kernel parameter the pointer derives from (global), or the source
  /// name of the __shared__ variable (shared).
  std::string Base;
  std::optional<Expr> Offset; ///< Byte offset from Base.
  unsigned Width = 0;         ///< Bytes.
  bool IsStore = false;
  bool IsAtomic = false;
  bool ReadBeforeWrite = false; ///< Load of an address later stored.
  bool StagedInShared = false;  ///< Loaded value is stored to shared memory.
  /// Loaded value is reused from a register by a loop the load is not in.
  bool StagedInRegisters = false;
  /// Extra (byte stride, count) dimensions one access covers (WMMA tiles).
  std::vector<std::pair<Expr, int64_t>> Tile;
  /// A lane's share of a warp-collective access in which only some lanes'
  /// addresses count (ldmatrix .x1/.x2, CacheHintAsm.h): its bytes are
  /// exact, its lanes' addresses are not the hardware's request.
  bool PartialLanes = false;
  /// The global end of a bulk or TMA copy (CacheHintAsm.h, BulkCopyMD):
  /// the copy engine moves it between L2 and shared memory, not the LSU.
  bool Bulk = false;
  /// Bytes per lane of the machine instruction the access is part of, when
  /// the back end merges it with its neighbours (the copies of an unrolled
  /// loop) into a wider one (MergedWidths.h); 0: Width.
  unsigned MachineWidth = 0;
  /// The instruction modelled (a memory intrinsic for a copy's ends).
  const llvm::Instruction *Inst = nullptr;
  SourceLoc Loc; ///< A header's, possibly.
};

/// One level of the nest enclosing a block: the loop, the guard that leads
/// from the enclosing level into it, and whether the block runs in the last
/// iteration (blocks after a non-latch exit test do not).
struct NestLevel {
  int Loop = -1;
  CondRef Guard;
  bool SkipsLastIteration = false;
};

struct BlockModel {
  const llvm::BasicBlock *BB = nullptr;
  std::vector<NestLevel> Nest; ///< Outermost first.
  CondRef InnerGuard;          ///< Relative to the innermost level.
  OpCounts Ops;
  /// Machine instructions per execution by one thread ("inst.*" counters,
  /// MachineInstructions.h), a mean over the block's copies in the machine
  /// code (so possibly a fraction); empty when the PTX was not made.
  std::map<std::string, Rational> Instructions;
  std::vector<AccessModel> Accesses;
  std::vector<UnknownReason> Unknowns; ///< Uncountable ops in this block.
  unsigned Affected = 0; ///< AffectedCounters the uncountable ops may change.
  SourceLoc Loc;         ///< A header's, possibly.
};

/// The type of a __shared__ variable: its array extents, outermost first
/// (none for a scalar; 0 for an extern array), and the bytes of the
/// innermost element.
struct SharedArrayType {
  std::vector<uint64_t> Dims;
  unsigned ElementBytes = 0;
};

struct KernelModel {
  std::string MangledName;
  /// Registers per thread ptxas allocates for the kernel, and the bytes it
  /// spills to local memory per thread; Registers is 0 with RegistersWhy
  /// when ptxas was not run or failed.
  unsigned Registers = 0;
  uint64_t SpillStoreBytes = 0, SpillLoadBytes = 0;
  std::string RegistersWhy;
  /// Bytes of the __shared__ variables the kernel uses (static allocation).
  uint64_t StaticSharedBytes = 0;
  /// Those variables' types by source name (AccessModel::Base). A name two
  /// of them share (two inlined functions' 's') has none: an access by
  /// that name could be to either.
  std::map<std::string, SharedArrayType> SharedArrays;
  std::vector<std::string> ParamNames;
  std::vector<LoopInfoModel> Loops;
  std::vector<BlockModel> Blocks;
  std::vector<UnknownReason> Unknowns; ///< Kernel-wide problems.
  /// Pointer parameters the kernel compares with null (`if (bias)`,
  /// `if (mean != nullptr)`), in parameter order. Their guards are
  /// nullTest() literals, which only resolveNullTests decides: counting a
  /// model that still has them finds a value missing.
  std::vector<std::string> NullTested;
};

/// Whether a guard, an access offset or a trip count of M uses the symbol
/// Name (a kernel parameter, threadIdx.y, blockIdx.z, ...).
bool mentionsSymbol(const KernelModel &M, const std::string &Name);

/// The guard literal "pointer parameter P is null".
CondRef nullTest(const std::string &P);

/// M with every null test decided: the parameters in Null are null, the
/// other ones of M.NullTested non-null. Blocks behind a test that fails
/// never run and are left out.
KernelModel resolveNullTests(const KernelModel &M,
                             const std::set<std::string> &Null);

/// Prints the model (loops, guards, ops) for debugging.
void dumpKernelModel(const KernelModel &M, llvm::raw_ostream &OS);

/// Builds the model of kernel F. Decl (may be null) supplies source names.
KernelModel buildKernelModel(llvm::Function &F, const KernelDecl *Decl);

} // namespace roofline

#endif
