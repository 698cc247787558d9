//===- KernelCounts.cpp ---------------------------------------------------===//

#include "KernelCounts.h"
#include "Counters.h"
#include "DomainCounter.h"

#include <set>

using namespace roofline;

// Generous enough for partial edge blocks and short sequences, small enough
// that a pathological kernel still finishes quickly with an "unknown".
static constexpr uint64_t WalkBudget = 4000000;

namespace {

/// Accumulates per-counter sums where any missing term makes the sum
/// unknown.
struct PartialSums {
  std::map<std::string, std::optional<Rational>> Sums;
  void add(const std::string &Name, std::optional<Rational> V) {
    auto It = Sums.find(Name);
    if (It == Sums.end()) {
      Sums[Name] = V;
      return;
    }
    if (!It->second || !V)
      It->second.reset();
    else
      It->second = *It->second + *V;
  }
};

std::string prefixOf(const std::string &Counter) {
  return Counter.substr(0, Counter.find('.'));
}

/// Adds flops_total, divisions and shared_bytes from the raw counters.
template <typename T, typename AddFn>
void addDerived(std::map<std::string, T> &Map, AddFn Add) {
  std::vector<std::pair<std::string, T>> Raw(Map.begin(), Map.end());
  for (auto &KV : Raw) {
    std::string P = prefixOf(KV.first);
    if (P == counter::FlopsFamily)
      Add(counter::FlopsTotal, KV.second);
    else if (P == counter::DivFamily)
      Add(counter::Divisions, KV.second);
    else if (KV.first == counter::SharedLoadBytes ||
             KV.first == counter::SharedStoreBytes)
      Add(counter::SharedBytes, KV.second);
  }
}

const char *const CoreCounters[] = {
    counter::FlopsTotal,      counter::Divisions,
    counter::GlobalLoads,     counter::GlobalLoadBytes,
    counter::GlobalStores,    counter::GlobalStoreBytes,
    counter::SharedLoadBytes, counter::SharedStoreBytes,
    counter::SharedBytes,     counter::Atomics};

void addUnique(std::vector<UnknownReason> &V, const UnknownReason &R) {
  for (const UnknownReason &E : V)
    if (E.Reason == R.Reason && E.Loc.File == R.Loc.File &&
        E.Loc.Line == R.Loc.Line && E.Loc.Column == R.Loc.Column)
      return;
  V.push_back(R);
}

/// True if every literal of C is an inequality (no ==, != or unknown).
bool onlyInequalities(const Cond &C) {
  switch (C.K) {
  case Cond::True:
  case Cond::False:
    return true;
  case Cond::Unknown:
    return false;
  case Cond::Cmp:
    return C.Pred != CmpKind::EQ && C.Pred != CmpKind::NE;
  default:
    for (const CondRef &O : C.Ops)
      if (!onlyInequalities(*O))
        return false;
    return true;
  }
}

/// Clears every count that uncountable operations may have changed.
void poison(KernelCounts &KC, unsigned Mask) {
  if (!Mask)
    return;
  // Counters left out read as zero (docs/json-schema.md); an operation that
  // may store may also do atomics, whose bytes are then unknown too.
  if (Mask & AffectsStores)
    for (const char *C : {counter::AtomicBytes, counter::SharedAtomics}) {
      if (!KC.PerThread.empty())
        KC.PerThread.try_emplace(C);
      if (!KC.PerBlock.empty())
        KC.PerBlock.try_emplace(C);
      if (!KC.Totals.empty())
        KC.Totals.try_emplace(C);
    }
  for (auto &KV : KC.PerThread)
    if (counterCategory(KV.first) & Mask)
      KV.second = Quantity();
  for (auto &KV : KC.PerBlock)
    if (counterCategory(KV.first) & Mask)
      KV.second = Quantity();
  for (auto &KV : KC.Totals)
    if (counterCategory(KV.first) & Mask)
      KV.second.reset();
}

} // namespace

std::map<std::string, Expr>
roofline::knownValues(const std::map<std::string, int64_t> &Params,
                      const KernelLaunch &Launch) {
  std::map<std::string, Expr> Known;
  for (auto &KV : Params)
    Known[KV.first] = Expr(KV.second);
  if (Launch.known()) {
    const char *Axis[3] = {"x", "y", "z"};
    for (int I = 0; I < 3; ++I) {
      Known[std::string("blockDim.") + Axis[I]] = Expr(Launch.Block->V[I]);
      Known[std::string("gridDim.") + Axis[I]] = Expr(Launch.Grid->V[I]);
    }
  }
  return Known;
}

namespace {

/// One computeCounts: the values it knows, the thread it describes, and
/// the sums its phases build, in the order run() calls them.
class CountsBuilder {
public:
  CountsBuilder(const KernelModel &M, const KernelLaunch &Launch,
                const std::map<std::string, int64_t> &Params);
  KernelCounts run();

private:
  CondRef someIteration(const BlockModel &B, const Cond &L) const;
  CondRef threadGuard(const BlockModel &B) const;
  void chooseRepresentative();
  void countBlock(const BlockModel &B);
  void countInstructions(const BlockModel &B, DomainWalker &W,
                         std::optional<CountResult> Grid);
  void perThread();
  void derivedPerThread();
  void intensityFormula();
  void perBlockAndTotals();
  void threadsAndPaths();

  const KernelModel &M;
  const KernelLaunch &Launch;
  const bool HaveLaunch;
  std::map<std::string, Expr> Known;
  /// The parameters, the launch and thread (0,0,0) of block (0,0,0).
  IntervalEnv Thread0;
  std::set<std::string> LoopVars;
  ThreadBox Rep = ThreadBox::thread0();
  /// Per-thread formulas: nested trip-count sums, guards assumed to pass.
  std::map<std::string, std::optional<Expr>> Formula;
  std::set<std::string> DataDependent, NoAssume;
  PartialSums Thread0Walk, Block0, Grid, GridKnown;
  /// What the uncountable operations of the kernel may affect.
  unsigned PoisonMask = 0;
  KernelCounts KC;
};

} // namespace

CountsBuilder::CountsBuilder(const KernelModel &M, const KernelLaunch &Launch,
                             const std::map<std::string, int64_t> &Params)
    : M(M), Launch(Launch), HaveLaunch(Launch.known()),
      Known(knownValues(Params, Launch)) {
  for (auto &KV : Params)
    Thread0[KV.first] = Interval{Rational(KV.second), Rational(KV.second)};
  if (Launch.known()) {
    const char *Axis[3] = {"x", "y", "z"};
    for (int I = 0; I < 3; ++I) {
      int64_t B = Launch.Block->V[I], G = Launch.Grid->V[I];
      Thread0[std::string("blockDim.") + Axis[I]] =
          Interval{Rational(B), Rational(B)};
      Thread0[std::string("gridDim.") + Axis[I]] =
          Interval{Rational(G), Rational(G)};
    }
  }
  for (int I = 0; I < 6; ++I)
    Thread0[ThreadDimNames[I]] = Interval{Rational(0), Rational(0)};
  for (const LoopInfoModel &L : M.Loops)
    LoopVars.insert(L.Var);
}

// Whether some iteration passes a literal that depends on loop variables:
// an inequality affine in a variable is monotone in it, so it holds for
// some iteration iff it holds at the first or the last one. Other literals
// (==, data) are taken to pass.
CondRef CountsBuilder::someIteration(const BlockModel &B, const Cond &L) const {
  if (L.K == Cond::Unknown)
    return Cond::makeTrue();
  if (!L.mentionsAny(LoopVars))
    return std::make_shared<Cond>(L);
  if (L.Pred == CmpKind::EQ || L.Pred == CmpKind::NE)
    return Cond::makeTrue();
  CondRef R = std::make_shared<Cond>(L);
  for (auto It = B.Nest.rbegin(); It != B.Nest.rend(); ++It) {
    const LoopInfoModel &LM = M.Loops[It->Loop];
    if (!R->mentions(LM.Var))
      continue;
    if (!LM.TripCount || !(L.Lhs - L.Rhs).splitAffine(LM.Var))
      return Cond::makeTrue();
    Expr Last = *LM.TripCount - Expr(It->SkipsLastIteration ? 2 : 1);
    R = Cond::disj(R->substitute({{LM.Var, Expr(0)}}),
                   R->substitute({{LM.Var, Last}}));
  }
  return R->mentionsAny(LoopVars) ? Cond::makeTrue() : R;
}

// The thread-level guard of a block: its conditions with the parts that
// depend on loop variables or data taken to pass.
CondRef CountsBuilder::threadGuard(const BlockModel &B) const {
  auto Exists = [&](const Cond &L) { return someIteration(B, L); };
  CondRef G = B.InnerGuard->mapLiterals(Exists);
  for (const NestLevel &NL : B.Nest)
    G = Cond::conj(NL.Guard->mapLiterals(Exists), G);
  return G;
}

// The thread the per-thread numbers describe: "a thread that passes every
// guard", i.e. the first thread of block 0 that reaches the most of the
// kernel's work (thread 0 for i < n guards; (1,1) for a stencil that skips
// the border; the first odd thread for an odd-only filter).
void CountsBuilder::chooseRepresentative() {
  if (HaveLaunch) {
    std::vector<CondRef> Guards;
    for (const BlockModel &B : M.Blocks)
      if (!B.Ops.empty())
        Guards.push_back(threadGuard(B)->substitute(Known));
    const Dim3 &Blk = *Launch.Block;
    int Best = -1;
    for (int64_t Z = 0; Z < Blk.V[2]; ++Z)
      for (int64_t Y = 0; Y < Blk.V[1]; ++Y)
        for (int64_t X = 0; X < Blk.V[0]; ++X) {
          IntervalEnv Env;
          int64_t C[6] = {X, Y, Z, 0, 0, 0};
          for (int I = 0; I < 6; ++I)
            Env[ThreadDimNames[I]] = Interval{Rational(C[I]), Rational(C[I])};
          int Score = 0;
          for (const CondRef &G : Guards)
            Score += G->evaluate(Env) == Truth::True;
          if (Score > Best) {
            Best = Score;
            for (int I = 0; I < 6; ++I)
              Rep.Dims[I] = Env[ThreadDimNames[I]];
          }
        }
  }
  for (int I = 0; I < 6; ++I)
    KC.Representative[I] = Rep.Dims[I].Lo.toInt64().value_or(0);
}

// One block's share: its unknowns, its terms of the per-thread formulas,
// and with a launch its exact executions by the representative thread,
// block 0 and the grid.
void CountsBuilder::countBlock(const BlockModel &B) {
  for (const UnknownReason &R : B.Unknowns)
    addUnique(KC.Unknowns, R);
  if (B.Ops.empty()) {
    if (HaveLaunch && !B.Instructions.empty()) {
      DomainWalker W(M, B, Known, WalkBudget);
      countInstructions(B, W, std::nullopt);
    }
    return;
  }
  for (const NestLevel &NL : B.Nest) {
    const LoopInfoModel &LM = M.Loops[NL.Loop];
    if (!LM.isKnown())
      addUnique(KC.Unknowns, LM.Unknown);
  }
  bool Guarded = false;
  for (const NestLevel &NL : B.Nest)
    if (const UnknownReason *U = NL.Guard->firstUnknown()) {
      addUnique(KC.Unknowns, *U);
      Guarded = true;
    }
  if (const UnknownReason *U = B.InnerGuard->firstUnknown()) {
    addUnique(KC.Unknowns, *U);
    Guarded = true;
  }

  DomainWalker Sym(M, B, {}, WalkBudget);
  const std::optional<Expr> &S = Sym.innerSum(0);
  for (auto &KV : B.Ops) {
    if (Guarded)
      DataDependent.insert(KV.first);
    auto It = Formula.find(KV.first);
    if (It == Formula.end())
      It = Formula.emplace(KV.first, Expr(0)).first;
    if (S && It->second)
      It->second = *It->second + *S * Expr(KV.second);
    else
      It->second.reset();
  }
  if (!B.Unknowns.empty())
    for (auto &KV : B.Ops)
      DataDependent.insert(KV.first);
  // Only blocks behind inequalities (i < n) may assume their guards pass
  // when a size is missing; a switch or role test picks one side.
  bool BoundsOnly = onlyInequalities(*B.InnerGuard);
  for (const NestLevel &NL : B.Nest)
    BoundsOnly &= onlyInequalities(*NL.Guard);
  if (!BoundsOnly)
    for (auto &KV : B.Ops)
      NoAssume.insert(KV.first);

  if (!HaveLaunch)
    return;
  DomainWalker W(M, B, Known, WalkBudget);
  struct {
    const ThreadBox Box;
    PartialSums &Out;
  } Targets[] = {{Rep, Thread0Walk},
                 {ThreadBox::block0(*Launch.Block), Block0},
                 {ThreadBox::wholeGrid(*Launch.Grid, *Launch.Block), Grid}};
  for (auto &T : Targets) {
    CountResult C = countExecutions(W, T.Box);
    if (&T.Out == &Grid) {
      countInstructions(B, W, C);
      if (C.Value)
        for (auto &KV : B.Ops)
          GridKnown.add(KV.first, *C.Value * Rational(KV.second));
    }
    if (!C.Value)
      addUnique(KC.Unknowns, C.Why);
    for (auto &KV : B.Ops)
      T.Out.add(KV.first, C.Value ? std::optional<Rational>(*C.Value *
                                                            Rational(KV.second))
                                  : std::nullopt);
  }
}

// The block's machine instructions over the grid: Executions, when the
// counters' walk gave them, else a walk of its own (a block of address
// arithmetic and branches has instructions and no counters).
void CountsBuilder::countInstructions(const BlockModel &B, DomainWalker &W,
                                      std::optional<CountResult> Executions) {
  if (B.Instructions.empty() || !KC.InstructionsWhy.empty())
    return;
  if (!Executions)
    Executions =
        countExecutions(W, ThreadBox::wholeGrid(*Launch.Grid, *Launch.Block));
  if (!Executions->Value) {
    KC.InstructionsWhy = Executions->Why.Reason.empty()
                             ? "a block's executions are unknown"
                             : Executions->Why.Reason;
    KC.Instructions.clear();
    return;
  }
  if (!B.Unknowns.empty() && KC.InstructionsPartial.empty())
    KC.InstructionsPartial = B.Unknowns.front().Reason;
  for (auto &KV : B.Instructions) {
    Rational &Sum = KC.Instructions[KV.first];
    Sum = Sum + *Executions->Value * KV.second;
  }
}

// Per-thread: with a launch, the exact walk of thread (0,0,0); the formula
// (guards assumed to pass) is shown only where it agrees. Without one, the
// formula's value.
void CountsBuilder::perThread() {
  for (auto &KV : Formula) {
    Quantity Q;
    if (KV.second)
      Q.Formula = KV.second->str();
    if (HaveLaunch) {
      auto It = Thread0Walk.Sums.find(KV.first);
      if (It != Thread0Walk.Sums.end())
        Q.Value = It->second;
      IntervalEnv AtRep = Thread0;
      for (int I = 0; I < 6; ++I)
        AtRep[ThreadDimNames[I]] = Rep.Dims[I];
      std::optional<Rational> F =
          KV.second ? KV.second->evaluate(AtRep) : std::nullopt;
      if (!Q.Value && F && !DataDependent.count(KV.first) &&
          !NoAssume.count(KV.first))
        Q.Value =
            F; // Guards undecidable (a size is missing): assume they pass.
      else if (F && (!Q.Value || *F != *Q.Value))
        Q.Formula.reset();
    } else if (KV.second && !DataDependent.count(KV.first)) {
      Q.Value = KV.second->evaluate(Thread0);
    }
    KC.PerThread[KV.first] = Q;
  }
}

// Derived per-thread quantities (flops_total, divisions, shared_bytes)
// combine formulas and values; the core counters a kernel lacks are zero.
void CountsBuilder::derivedPerThread() {
  std::map<std::string, std::pair<std::optional<Expr>, std::optional<Rational>>>
      D;
  for (auto &KV : KC.PerThread) {
    std::string P = prefixOf(KV.first);
    std::string Name = P == counter::FlopsFamily ? counter::FlopsTotal
                       : P == counter::DivFamily ? counter::Divisions
                       : (KV.first == counter::SharedLoadBytes ||
                          KV.first == counter::SharedStoreBytes)
                           ? counter::SharedBytes
                           : "";
    if (Name.empty())
      continue;
    auto It = D.find(Name);
    if (It == D.end())
      It = D.emplace(Name, std::make_pair(std::optional<Expr>(Expr(0)),
                                          std::optional<Rational>(Rational(0))))
               .first;
    auto &Acc = It->second;
    std::optional<Expr> F =
        KV.second.Formula ? Formula[KV.first] : std::optional<Expr>();
    if (Acc.first && F)
      Acc.first = *Acc.first + *F;
    else
      Acc.first.reset();
    if (Acc.second && KV.second.Value)
      Acc.second = *Acc.second + *KV.second.Value;
    else
      Acc.second.reset();
  }
  for (auto &KV : D) {
    Quantity Q;
    if (KV.second.first)
      Q.Formula = KV.second.first->str();
    Q.Value = KV.second.second;
    KC.PerThread[KV.first] = Q;
    Formula[KV.first] = KV.second.first;
  }
  for (const char *C : CoreCounters)
    if (!KC.PerThread.count(C)) {
      Quantity Q;
      Q.Formula = "0";
      Q.Value = Rational(0);
      KC.PerThread[C] = Q;
    }
}

/// E as an operand of "/" in a formula: parenthesized unless it is one
/// term (a divisor: a constant or one symbol).
static std::string operandText(const Expr &E, bool Divisor) {
  bool Simple = E.terms().size() == 1 && (!Divisor || E.asConstant() ||
                                          (E.terms()[0].Coef == Rational(1) &&
                                           E.terms()[0].Mono.size() == 1 &&
                                           E.terms()[0].Mono[0].second == 1));
  return Simple ? E.str() : "(" + E.str() + ")";
}

// Requested-traffic intensity of one thread, as a formula: it needs no
// sizes, so an editor run without any still shows it.
void CountsBuilder::intensityFormula() {
  auto F = [&](const char *N) -> std::optional<Expr> {
    auto It = Formula.find(N);
    if (It == Formula.end())
      return KC.PerThread.count(N) ? std::optional<Expr>(Expr(0))
                                   : std::nullopt;
    return It->second;
  };
  auto Flops = F(counter::FlopsTotal), Ld = F(counter::GlobalLoadBytes),
       St = F(counter::GlobalStoreBytes), At = F(counter::AtomicBytes);
  if (!Formula.count(counter::AtomicBytes))
    At = Expr(0);
  if (!Flops || !Ld || !St || !At || PoisonMask != 0)
    return;
  Expr Bytes = *Ld + *St + *At;
  if (!Bytes.isZero())
    KC.IntensityFormula =
        operandText(*Flops, false) + "/" + operandText(Bytes, true);
}

// Per block and per grid: the exact sums of the walks; a per-block formula
// only where it agrees with block 0's count.
void CountsBuilder::perBlockAndTotals() {
  addDerived(Block0.Sums, [&](const std::string &N, std::optional<Rational> V) {
    Block0.add(N, V);
  });
  addDerived(Grid.Sums, [&](const std::string &N, std::optional<Rational> V) {
    Grid.add(N, V);
  });
  addDerived(GridKnown.Sums,
             [&](const std::string &N, std::optional<Rational> V) {
               GridKnown.add(N, V);
             });
  for (auto &KV : GridKnown.Sums)
    KC.KnownTotals[KV.first] = *KV.second;
  for (auto &KV : KC.PerThread) {
    Quantity Q;
    auto It = Block0.Sums.find(KV.first);
    Q.Value = It == Block0.Sums.end() ? std::optional<Rational>(Rational(0))
                                      : It->second;
    // A per-block formula is offered only when it agrees with the exact
    // count for block 0 (no thread of the block fails a guard).
    auto FIt = Formula.find(KV.first);
    if (FIt != Formula.end() && FIt->second && Q.Value &&
        !FIt->second->mentionsKind(SymbolKind::Thread)) {
      Expr PB = *FIt->second * Expr::symbol("blockDim.x", SymbolKind::Launch) *
                Expr::symbol("blockDim.y", SymbolKind::Launch) *
                Expr::symbol("blockDim.z", SymbolKind::Launch);
      auto V = PB.substitute(Known).evaluate(Thread0);
      if (V && *V == *Q.Value) {
        Expr Shown = *FIt->second;
        for (int I = 0; I < 3; ++I)
          if (Launch.Block->V[I] != 1 || I == 0)
            Shown = Shown * Expr::symbol(std::string("blockDim.") + "xyz"[I],
                                         SymbolKind::Launch);
        Q.Formula = Shown.str();
      }
    } else if (KV.second.Formula && *KV.second.Formula == "0" && Q.Value &&
               Q.Value->isZero()) {
      Q.Formula = "0";
    }
    KC.PerBlock[KV.first] = Q;
    auto GIt = Grid.Sums.find(KV.first);
    KC.Totals[KV.first] = GIt == Grid.Sums.end()
                              ? std::optional<Rational>(Rational(0))
                              : GIt->second;
  }
}

// Threads launched and active, and the paths: active threads are those
// that reach a global store or atomic (the threads producing output) under
// the bounds guards. Guards that depend on a loop variable or on data are
// taken to pass at least once.
void CountsBuilder::threadsAndPaths() {
  KC.ThreadsLaunched =
      Rational(Launch.Grid->count()) * Rational(Launch.Block->count());
  auto threadsUnder = [&](CondRef G, const ThreadBox &Box) {
    BlockModel Top;
    Top.InnerGuard = G;
    DomainWalker Walk(M, Top, Known, WalkBudget);
    return countExecutions(Walk, Box).Value;
  };
  ThreadBox WholeGrid = ThreadBox::wholeGrid(*Launch.Grid, *Launch.Block);
  CondRef Reaches = Cond::makeFalse();
  std::map<std::string, size_t> PathIndex;
  for (const BlockModel &B : M.Blocks) {
    if (B.Ops.empty() && !B.Affected)
      continue;
    CondRef G = threadGuard(B);
    // An operation the analysis cannot read that may store (inline PTX, a
    // call that was not inlined) counts as output too.
    if (B.Ops.count(counter::GlobalStores) || B.Ops.count(counter::Atomics) ||
        (B.Affected & AffectsStores))
      Reaches = Cond::disj(Reaches, G);
    // One path per distinct thread-level guard of blocks that do work.
    std::string Key = G->str();
    if (PathIndex.count(Key))
      continue;
    PathIndex[Key] = KC.Paths.size();
    PathCount P;
    P.Guard = Key;
    P.Loc = B.Loc;
    P.BlockThreads = threadsUnder(G, ThreadBox::block0(*Launch.Block));
    P.GridThreads = threadsUnder(G, WholeGrid);
    KC.Paths.push_back(P);
  }
  std::stable_sort(KC.Paths.begin(), KC.Paths.end(),
                   [](const PathCount &A, const PathCount &B) {
                     return A.Loc.Line < B.Loc.Line;
                   });
  KC.ThreadsActive = threadsUnder(Reaches, WholeGrid);
}

KernelCounts CountsBuilder::run() {
  for (const UnknownReason &R : M.Unknowns)
    addUnique(KC.Unknowns, R);
  chooseRepresentative();
  for (const BlockModel &B : M.Blocks)
    countBlock(B);
  // An operation that cannot be counted (a call that was not inlined,
  // unknown inline assembly) could do any amount of the work it may affect
  // (a read-only callee cannot store): those counts are not exact then.
  for (const BlockModel &B : M.Blocks)
    PoisonMask |= B.Affected;
  perThread();
  derivedPerThread();
  intensityFormula();
  if (!HaveLaunch) {
    poison(KC, PoisonMask);
    return std::move(KC);
  }
  perBlockAndTotals();
  threadsAndPaths();
  KC.Compulsory =
      compulsoryTraffic(M, Known, *Launch.Grid, *Launch.Block, WalkBudget);
  if (PoisonMask & (AffectsLoads | AffectsStores)) {
    // Uncounted work may touch more memory.
    KC.Compulsory.Exact = false;
    KC.Compulsory.LeftOut = true;
  }
  for (const UnknownReason &R : KC.Compulsory.Notes)
    addUnique(KC.Unknowns, R);
  poison(KC, PoisonMask);
  return std::move(KC);
}

KernelCounts
roofline::computeCounts(const KernelModel &M, const KernelLaunch &Launch,
                        const std::map<std::string, int64_t> &Params) {
  return CountsBuilder(M, Launch, Params).run();
}

KernelCounts roofline::limitedCounts(const KernelLaunch &Launch,
                                     UnknownReason Why) {
  KernelCounts KC;
  for (const char *C : CoreCounters) {
    KC.PerThread[C] = Quantity();
    if (Launch.known()) {
      KC.PerBlock[C] = Quantity();
      KC.Totals[C] = std::nullopt;
    }
  }
  if (Launch.known())
    KC.ThreadsLaunched =
        Rational(Launch.Grid->count()) * Rational(Launch.Block->count());
  KC.Compulsory.Exact = false;
  KC.Compulsory.LeftOut = true;
  KC.Unknowns.push_back(std::move(Why));
  return KC;
}
