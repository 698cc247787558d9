//===- DomainCounter.cpp --------------------------------------------------===//

#include "DomainCounter.h"
#include "Limits.h"

#include <functional>
#include <set>

using namespace roofline;

const char *const roofline::ThreadDimNames[6] = {"threadIdx.x", "threadIdx.y",
                                                 "threadIdx.z", "blockIdx.x",
                                                 "blockIdx.y",  "blockIdx.z"};

static Interval range(int64_t Lo, int64_t Hi) {
  return Interval{Rational(Lo), Rational(Hi)};
}

ThreadBox ThreadBox::wholeGrid(const Dim3 &Grid, const Dim3 &Block) {
  ThreadBox B;
  for (int I = 0; I < 3; ++I) {
    B.Dims[I] = range(0, Block.V[I] - 1);
    B.Dims[3 + I] = range(0, Grid.V[I] - 1);
  }
  return B;
}

ThreadBox ThreadBox::block0(const Dim3 &Block) {
  ThreadBox B;
  for (int I = 0; I < 3; ++I) {
    B.Dims[I] = range(0, Block.V[I] - 1);
    B.Dims[3 + I] = range(0, 0);
  }
  return B;
}

ThreadBox ThreadBox::thread0() {
  ThreadBox B;
  for (int I = 0; I < 6; ++I)
    B.Dims[I] = range(0, 0);
  return B;
}

DomainWalker::DomainWalker(const KernelModel &M, const BlockModel &B,
                           const std::map<std::string, Expr> &Known,
                           uint64_t Budget)
    : Budget(Budget), Loc(B.Loc) {
  // A geometric counter with a known trip count (s = 128; s >>= 1) is only
  // walked value by value when this block's guards or addresses use it.
  auto usedHere = [&](const std::string &Var) {
    if (B.InnerGuard->mentions(Var))
      return true;
    for (const NestLevel &NL : B.Nest) {
      const LoopInfoModel &Other = M.Loops[NL.Loop];
      if (NL.Guard->mentions(Var) ||
          (Other.TripCount && Other.TripCount->mentions(Var)))
        return true;
    }
    for (const AccessModel &A : B.Accesses)
      if (A.Offset && A.Offset->mentions(Var))
        return true;
    return false;
  };
  for (const NestLevel &NL : B.Nest) {
    const LoopInfoModel &LM = M.Loops[NL.Loop];
    Level L;
    L.Var = LM.Var;
    L.Guard = NL.Guard->substitute(Known);
    bool Walk = LM.Rec && (!LM.TripCount || usedHere(LM.Var));
    if (LM.TripCount && !Walk) {
      L.TC = LM.TripCount->substitute(Known);
      if (NL.SkipsLastIteration)
        L.TC = *L.TC - Expr(1);
    } else if (LM.Rec) {
      Recurrence R = *LM.Rec;
      R.Start = R.Start.substitute(Known);
      R.Bound = R.Bound.substitute(Known);
      L.Rec = R;
    } else {
      L.Unknown = LM.Unknown;
    }
    Levels.push_back(L);
  }
  InnerGuard = B.InnerGuard->substitute(Known);
  // Splitting only helps along the coordinates the decisions depend on.
  for (int I = 0; I < 6; ++I) {
    const std::string D = ThreadDimNames[I];
    bool M = InnerGuard->mentions(D);
    for (const Level &L : Levels) {
      M |= L.Guard->mentions(D) || (L.TC && L.TC->mentions(D));
      if (L.Rec)
        M |= L.Rec->Start.mentions(D) || L.Rec->Bound.mentions(D);
    }
    Mentioned[I] = M;
  }
}

// The clock is read every 1024 steps: cheap, and a step is short. A small
// walk (block 0's threads, say) is always finished, so what it counts stays
// exact past the limit; a longer one ends at the limit, and once an earlier
// walk of the kernel has reached it, right after the small part, so the
// many walks after it cost little.
bool DomainWalker::outOfTime() const {
  constexpr uint64_t SmallWalkSteps = 4096;
  if (Steps < SmallWalkSteps)
    return false;
  return KernelLimits::reached() ||
         ((Steps & 1023) == 0 && KernelLimits::expired());
}

UnknownReason DomainWalker::unknownHere(std::string Reason) const {
  UnknownReason R;
  R.Reason = std::move(Reason);
  R.Loc = Loc;
  return R;
}

WalkStatus DomainWalker::budgetFail() {
  std::string Why =
      Sink && Sink->abandoned() ? Sink->abandonReason() : std::string();
  if (Why.empty())
    Why = KernelLimits::expired()
              ? KernelLimits::reason()
              : "too many distinct thread/iteration cases to count exactly "
                "(budget exceeded)";
  WalkStatus S = WalkStatus::fail(unknownHere(Why));
  S.OverBudget = true;
  return S;
}

WalkStatus DomainWalker::undecided(const CondRef &C) {
  if (const UnknownReason *U = C->firstUnknown())
    return WalkStatus::fail(*U);
  // Name the parameters that still have no value: after substitution of
  // the known ones, any parameter symbol left is missing.
  std::set<std::string> Missing;
  std::function<void(const Cond &)> Collect = [&](const Cond &X) {
    if (X.K == Cond::Cmp) {
      std::set<std::string> Syms;
      X.Lhs.collectSymbols(Syms);
      X.Rhs.collectSymbols(Syms);
      for (const std::string &S : Syms) {
        bool Known = S.find('.') != std::string::npos; // threadIdx.x, ...
        for (const Level &L : Levels)
          Known |= L.Var == S;
        if (!Known)
          Missing.insert(S);
      }
    }
    for (const CondRef &O : X.Ops)
      Collect(*O);
  };
  Collect(*C);
  UnknownReason R;
  R.Reason = "guard '" + C->str() + "' could not be decided";
  if (!Missing.empty()) {
    R.Reason += ": ";
    bool First = true;
    for (const std::string &M : Missing) {
      R.Reason += (First ? "'" : ", '") + M + "'";
      First = false;
    }
    R.Reason += " has no value (use --param " + *Missing.begin() + "=VALUE)";
    R.Missing.assign(Missing.begin(), Missing.end());
  } else {
    R.Reason += " (a value it uses is unknown)";
  }
  R.Loc = Loc;
  return WalkStatus::fail(R);
}

const std::optional<Expr> &DomainWalker::innerSum(int K) {
  auto It = InnerSums.find(K);
  if (It != InnerSums.end())
    return It->second;
  std::optional<Expr> E = Expr(1);
  for (int J = depth(); J > K && E; --J) {
    const Level &L = Levels[J - 1];
    if (!L.TC) {
      E.reset();
      break;
    }
    E = E->sum(L.Var, Expr(0), *L.TC);
  }
  return InnerSums[K] = E;
}

// Bounds the variables of levels K+1.. over Env and decides the guards from
// level K+1 inward. Hard is set when the undecided part cannot be resolved
// by splitting (sequence levels, unknown loops).
Truth DomainWalker::checkRest(int K, IntervalEnv &Env, bool &Hard) {
  Hard = false;
  for (int J = K + 1; J <= depth() + 1; ++J) {
    const CondRef &G = J <= depth() ? Levels[J - 1].Guard : InnerGuard;
    Truth T = G->evaluate(Env);
    if (T == Truth::False)
      return Truth::False;
    if (T == Truth::Unknown)
      return Truth::Unknown;
    if (J > depth())
      break;
    const Level &L = Levels[J - 1];
    if (!L.TC) {
      Hard = true;
      return Truth::Unknown;
    }
    auto B = L.TC->bound(Env);
    if (!B)
      return Truth::Unknown;
    if (B->Hi <= Rational(0))
      return Truth::False;
    if (B->Lo < Rational(0))
      return Truth::Unknown;
    Env[L.Var] = Interval{Rational(0), B->Hi - Rational(1)};
  }
  return Truth::True;
}

WalkStatus DomainWalker::walk(const ThreadBox &Box, WalkSink &S) {
  Sink = &S;
  Steps = 0;
  IntervalEnv Env;
  for (int I = 0; I < 6; ++I) {
    if (Box.Dims[I].Hi < Box.Dims[I].Lo)
      return WalkStatus(); // An empty launch runs nothing.
    Env[ThreadDimNames[I]] = Box.Dims[I];
  }
  return walkThreads(Env);
}

WalkStatus DomainWalker::walkThreads(IntervalEnv &Env) {
  if (++Steps > Budget || outOfTime() || Sink->abandoned())
    return budgetFail();
  IntervalEnv Scratch = Env;
  bool Hard;
  Truth T = checkRest(0, Scratch, Hard);
  if (T == Truth::False)
    return WalkStatus();
  if (T == Truth::True && Sink->closed(0, Scratch))
    return WalkStatus();
  // Split the widest thread dimension, among those the sink cannot take
  // together if any; a single thread descends into loops.
  unsigned Inseparable = Sink->inseparableDims(Env);
  int Best = -1;
  Rational Width(0);
  for (int Pass = 0; Pass < 2 && Best < 0; ++Pass)
    for (int I = 0; I < 6; ++I) {
      if (Pass == 0 && !(Inseparable ? (Inseparable >> I) & 1 : Mentioned[I]))
        continue;
      const Interval &D = Env[ThreadDimNames[I]];
      Rational W = D.Hi - D.Lo;
      if (Width < W) {
        Width = W;
        Best = I;
      }
    }
  if (Best < 0)
    return walkLevel(1, Env);
  // Loops whose bounds do not depend on the thread (block reductions over
  // blockDim.x) can be walked once for the whole box.
  if (!Inseparable) {
    Sink->begin();
    BoxMode = true;
    WalkStatus S = walkLevel(1, Env);
    BoxMode = false;
    if (!S.NeedSplit) {
      if (S.Ok)
        Sink->commit();
      else
        Sink->rollback();
      return S;
    }
    Sink->rollback();
  }
  Interval D = Env[ThreadDimNames[Best]];
  Rational Mid = Rational::fraction(((D.Lo + D.Hi) / Rational(2)).floor(), 1);
  Env[ThreadDimNames[Best]] = Interval{D.Lo, Mid};
  WalkStatus S = walkThreads(Env);
  if (S.Ok) {
    Env[ThreadDimNames[Best]] = Interval{Mid + Rational(1), D.Hi};
    S = walkThreads(Env);
  }
  Env[ThreadDimNames[Best]] = D;
  return S;
}

WalkStatus DomainWalker::walkLevel(int K, IntervalEnv &Env) {
  if (++Steps > Budget || outOfTime() || Sink->abandoned())
    return budgetFail();
  if (K > depth())
    return innermost(Env);
  const Level &L = Levels[K - 1];
  Truth G = L.Guard->evaluate(Env);
  if (G == Truth::False)
    return WalkStatus();
  if (G == Truth::Unknown)
    return BoxMode && !threadsArePoint(Env) ? WalkStatus::split()
                                            : undecided(L.Guard);
  if (L.TC) {
    auto T = L.TC->evaluate(Env);
    if (!T && BoxMode && !threadsArePoint(Env))
      return WalkStatus::split();
    if (!T) {
      UnknownReason R =
          unknownHere("trip count '" + L.TC->str() + "' has no value here");
      std::set<std::string> Syms;
      L.TC->collectSymbols(Syms);
      for (const std::string &S : Syms)
        if (!Env.count(S) && S.find('.') == std::string::npos)
          R.Missing.push_back(S);
      return WalkStatus::fail(R);
    }
    if (*T <= Rational(0))
      return WalkStatus();
    WalkStatus S = walkRange(K, Rational(0), *T - Rational(1), Env);
    Env.erase(L.Var);
    return S;
  }
  if (L.Rec) {
    const Recurrence &R = *L.Rec;
    auto Start = R.Start.evaluate(Env);
    auto Bound = R.Bound.evaluate(Env);
    if ((!Start || !Bound) && BoxMode && !threadsArePoint(Env))
      return WalkStatus::split();
    if (!Start || !Bound)
      return WalkStatus::fail(unknownHere(
          "start or bound of a geometric loop counter has no value"));
    Int128 V = Start->floor(), B = Bound->floor();
    for (unsigned Iter = 0; Iter < 100000; ++Iter) {
      Env[L.Var] = Interval{Rational::fraction(V, 1), Rational::fraction(V, 1)};
      WalkStatus S = walkLevel(K + 1, Env);
      if (!S.Ok) {
        Env.erase(L.Var);
        return S;
      }
      Int128 Next = V;
      switch (R.Operation) {
      case Recurrence::Shr:
        Next = V >> R.Amount;
        break;
      case Recurrence::Shl:
        Next = V << R.Amount;
        break;
      case Recurrence::Div:
        Next = V / R.Amount;
        break;
      case Recurrence::Mul:
        Next = V * R.Amount;
        break;
      }
      Int128 X = R.TestsNext ? Next : V;
      bool Continue = false;
      switch (R.ContinuePred) {
      case CmpKind::LT:
        Continue = X < B;
        break;
      case CmpKind::LE:
        Continue = X <= B;
        break;
      case CmpKind::GT:
        Continue = X > B;
        break;
      case CmpKind::GE:
        Continue = X >= B;
        break;
      case CmpKind::EQ:
        Continue = X == B;
        break;
      case CmpKind::NE:
        Continue = X != B;
        break;
      }
      if (!Continue || Next == V) {
        Env.erase(L.Var);
        return WalkStatus();
      }
      V = Next;
    }
    return budgetFail();
  }
  return WalkStatus::fail(L.Unknown);
}

bool DomainWalker::threadsArePoint(const IntervalEnv &Env) const {
  for (int I = 0; I < 6; ++I)
    if (!Env.at(ThreadDimNames[I]).isPoint())
      return false;
  return true;
}

WalkStatus DomainWalker::innermost(IntervalEnv &Env) {
  Truth T = InnerGuard->evaluate(Env);
  if (T == Truth::False)
    return WalkStatus();
  bool Point = threadsArePoint(Env);
  if (T == Truth::Unknown)
    return Point ? undecided(InnerGuard) : WalkStatus::split();
  if (Point) {
    Sink->point(Env);
    return WalkStatus();
  }
  return Sink->closed(depth(), Env) ? WalkStatus() : WalkStatus::split();
}

WalkStatus DomainWalker::walkRange(int K, Rational Lo, Rational Hi,
                                   IntervalEnv &Env) {
  if (++Steps > Budget || outOfTime() || Sink->abandoned())
    return budgetFail();
  const std::string &Var = Levels[K - 1].Var;
  Env[Var] = Interval{Lo, Hi};
  IntervalEnv Scratch = Env;
  bool Hard;
  Truth T = checkRest(K, Scratch, Hard);
  if (T == Truth::False)
    return WalkStatus();
  if (T == Truth::True && Sink->closed(K, Scratch))
    return WalkStatus();
  if (Lo == Hi)
    return walkLevel(K + 1, Env);
  Rational Mid = Rational::fraction(((Lo + Hi) / Rational(2)).floor(), 1);
  WalkStatus S = walkRange(K, Lo, Mid, Env);
  if (!S.Ok)
    return S;
  S = walkRange(K, Mid + Rational(1), Hi, Env);
  Env[Var] = Interval{Lo, Hi};
  return S;
}

namespace {

/// Sums executions: closed form where the nested sum is a polynomial.
class CountSink : public WalkSink {
public:
  explicit CountSink(DomainWalker &W) : W(W) {}
  Rational Total{0};

  bool closed(int K, const IntervalEnv &Env) override {
    const std::optional<Expr> &S = W.innerSum(K);
    if (!S)
      return false;
    Expr E = S->freeze(Env);
    // Sum over every variable that is still a range at level <= K.
    std::vector<std::string> RangeVars;
    for (int I = 0; I < 6; ++I)
      RangeVars.push_back(ThreadDimNames[I]);
    for (int J = 1; J <= K; ++J)
      RangeVars.push_back(W.var(J));
    std::map<std::string, Expr> Points;
    for (const std::string &V : RangeVars) {
      auto It = Env.find(V);
      if (It == Env.end())
        return false;
      if (It->second.isPoint())
        Points[V] = Expr::constant(It->second.Lo);
    }
    E = E.substitute(Points);
    for (const std::string &V : RangeVars) {
      const Interval &I = Env.at(V);
      if (I.isPoint())
        continue;
      auto Summed =
          E.sum(V, Expr::constant(I.Lo), Expr::constant(I.Hi + Rational(1)));
      if (!Summed)
        return false;
      E = *Summed;
    }
    auto C = E.asConstant();
    if (!C)
      return false;
    // An overflowed part overflows the total (Rational's flag is sticky):
    // splitting it further would only walk the same huge count in pieces,
    // until the time limit.
    Total = Total + *C;
    return true;
  }

  void point(const IntervalEnv &) override { Total = Total + Rational(1); }
  void begin() override { Saved.push_back(Total); }
  void commit() override { Saved.pop_back(); }
  void rollback() override {
    Total = Saved.back();
    Saved.pop_back();
  }

private:
  DomainWalker &W;
  std::vector<Rational> Saved;
};

} // namespace

CountResult roofline::countExecutions(DomainWalker &W, const ThreadBox &Box) {
  CountSink S(W);
  WalkStatus St = W.walk(Box, S);
  CountResult R;
  if (!St.Ok) {
    R.Why = St.Why;
    return R;
  }
  if (S.Total.overflowed()) {
    R.Why = W.unknownHere("count overflows 62 bits");
    return R;
  }
  R.Value = S.Total;
  return R;
}
