//===- DomainCounter.h - Exact sums over threads and iterations -*- C++ -*-===//
//
// How often does a block run, summed over a set of threads? The domain is
// the box of thread coordinates (threadIdx, blockIdx) times the iteration
// spaces of the enclosing loops, cut by guards. The walker never enumerates
// a large launch thread by thread: it bounds guards and trip counts over a
// whole sub-box with interval arithmetic; where every guard is decided and
// the counts are polynomials, it sums in closed form (Faulhaber), and
// otherwise it bisects the box. Only ranges that straddle a boundary, such
// as a partial edge block, shrink to single threads.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_DOMAINCOUNTER_H
#define CUDA_ROOFLINE_DOMAINCOUNTER_H

#include "KernelModel.h"
#include "LaunchSpec.h"

#include <functional>
#include <optional>

namespace roofline {

/// Ranges of the six thread coordinates (inclusive).
struct ThreadBox {
  Interval Dims[6]; // threadIdx.x,y,z, blockIdx.x,y,z
  static ThreadBox wholeGrid(const Dim3 &Grid, const Dim3 &Block);
  static ThreadBox block0(const Dim3 &Block);
  static ThreadBox thread0();
};

extern const char *const ThreadDimNames[6];

/// Outcome of a walk: done, or unknown with a reason.
struct WalkStatus {
  bool Ok = true;
  /// Internal: a decision needs the thread box split (not an error).
  bool NeedSplit = false;
  /// The walk stopped at its step budget or the kernel's time limit: what
  /// it walks is too large to enumerate, not beyond the analysis.
  bool OverBudget = false;
  UnknownReason Why;
  static WalkStatus split() {
    WalkStatus S;
    S.Ok = false;
    S.NeedSplit = true;
    return S;
  }
  static WalkStatus fail(UnknownReason R) {
    WalkStatus S;
    S.Ok = false;
    S.Why = std::move(R);
    return S;
  }
};

/// What to do with the executions found. closed() may account for every
/// remaining execution below level K at once (Env binds the variables of
/// levels <= K, possibly as ranges, and bounds deeper ones); point() is
/// called for a single execution when nothing closed applied. A walk may
/// descend into loops with a whole box of threads and back out when a
/// guard turns out to depend on the thread: begin/commit/rollback bracket
/// such attempts.
class WalkSink {
public:
  virtual ~WalkSink() = default;
  virtual bool closed(int K, const IntervalEnv &Env) = 0;
  virtual void point(const IntervalEnv &Env) = 0;
  /// The thread coordinates (bit I for ThreadDimNames[I]) whose range in
  /// Env the sink cannot account for together at any loop level (a
  /// footprint whose address is not affine in them). The walker splits those
  /// before descending into loops.
  virtual unsigned inseparableDims(const IntervalEnv &Env) { return 0; }
  /// True if the walk should stop now, as if over its budget (the sink sees
  /// it would take the domain apart point by point); abandonReason() why.
  virtual bool abandoned() const { return false; }
  virtual std::string abandonReason() const { return {}; }
  virtual void begin() = 0;
  virtual void commit() = 0;
  virtual void rollback() = 0;
};

class DomainWalker {
public:
  /// Known is the substitution of parameters and launch dimensions.
  DomainWalker(const KernelModel &M, const BlockModel &B,
               const std::map<std::string, Expr> &Known, uint64_t Budget);

  WalkStatus walk(const ThreadBox &Box, WalkSink &Sink);

  /// Number of loop levels around the block.
  int depth() const { return int(Levels.size()); }
  /// Trip count of level K (1-based) with the last-iteration adjustment.
  const std::optional<Expr> &tripCount(int K) const { return Levels[K - 1].TC; }
  const std::string &var(int K) const { return Levels[K - 1].Var; }
  bool isSequence(int K) const { return Levels[K - 1].Rec.has_value(); }

  /// Nested sum of 1 over levels K+1..depth as a formula in the variables of
  /// levels <= K (closed form), cached.
  const std::optional<Expr> &innerSum(int K);

  /// An unknown with Reason at the walked block's source location.
  UnknownReason unknownHere(std::string Reason) const;

private:
  struct Level {
    std::string Var;
    std::optional<Expr> TC;
    std::optional<Recurrence> Rec;
    CondRef Guard;
    UnknownReason Unknown;
  };
  std::vector<Level> Levels;
  CondRef InnerGuard;
  uint64_t Budget;
  uint64_t Steps = 0;
  bool outOfTime() const;
  std::map<int, std::optional<Expr>> InnerSums;
  WalkSink *Sink = nullptr;
  SourceLoc Loc; ///< Of the block: where its unknowns are reported.

  bool Mentioned[6] = {false, false, false, false, false, false};
  bool BoxMode = false; ///< Descending with thread ranges, not a thread.
  Truth checkRest(int K, IntervalEnv &Env, bool &Hard);
  bool threadsArePoint(const IntervalEnv &Env) const;
  WalkStatus innermost(IntervalEnv &Env);
  WalkStatus walkThreads(IntervalEnv &Env);
  WalkStatus walkLevel(int K, IntervalEnv &Env);
  WalkStatus walkRange(int K, Rational Lo, Rational Hi, IntervalEnv &Env);
  WalkStatus budgetFail();
  WalkStatus undecided(const CondRef &C);
};

/// Counts executions of the block over Box (a WalkSink that sums).
struct CountResult {
  std::optional<Rational> Value;
  UnknownReason Why;
};
CountResult countExecutions(DomainWalker &W, const ThreadBox &Box);

} // namespace roofline

#endif
