//===- Footprint.cpp ------------------------------------------------------===//

#include "Footprint.h"
#include "DomainCounter.h"
#include "Limits.h"
#include "OffsetPieces.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <set>

using namespace roofline;

static constexpr size_t MaxStoredRanges = size_t(1) << 24;
/// Pieces one box of the walk may be cut into (OffsetPieces.h).
static constexpr unsigned MaxPieces = 256;

void IntervalSet::add(int64_t Lo, int64_t Hi) {
  // An overflowed set has no use: storing more would only take memory.
  if (Hi <= Lo || TooLarge)
    return;
  R.emplace_back(Lo, Hi);
  Dirty = true;
  if (R.size() > 2 * NormalizedSize + (size_t(1) << 20)) {
    normalize();
    // Every million ranges or so, which is 16 MiB: the memory limit sees
    // a set grow long before it could take gigabytes.
    if (R.size() > MaxStoredRanges || KernelLimits::expired())
      giveUp();
  }
}

void IntervalSet::giveUp() {
  TooLarge = true;
  Dirty = false;
  NormalizedSize = 0;
  std::vector<std::pair<int64_t, int64_t>>().swap(R);
}

void IntervalSet::normalize() {
  if (!Dirty)
    return;
  Dirty = false;
  // The first NormalizedSize ranges are sorted and disjoint already, and
  // the ones added since often come in order: sort only those (when they
  // are not sorted) and merge the two runs.
  auto Mid = R.begin() + std::min(NormalizedSize, R.size());
  if (!std::is_sorted(Mid, R.end()))
    std::sort(Mid, R.end());
  if (Mid != R.begin() && Mid != R.end() && *Mid < *(Mid - 1))
    std::inplace_merge(R.begin(), Mid, R.end());
  size_t Kept = 0;
  for (size_t I = 0; I < R.size(); ++I) {
    if (Kept && R[I].first <= R[Kept - 1].second)
      R[Kept - 1].second = std::max(R[Kept - 1].second, R[I].second);
    else
      R[Kept++] = R[I];
  }
  R.resize(Kept);
  NormalizedSize = R.size();
}

const std::vector<std::pair<int64_t, int64_t>> &IntervalSet::ranges() {
  normalize();
  return R;
}

uint64_t IntervalSet::size() {
  uint64_t S = 0;
  for (auto &P : ranges())
    S += uint64_t(P.second - P.first);
  return S;
}

uint64_t IntervalSet::intersectionSize(IntervalSet &A, IntervalSet &B) {
  const auto &X = A.ranges();
  const auto &Y = B.ranges();
  uint64_t S = 0;
  size_t I = 0, J = 0;
  while (I < X.size() && J < Y.size()) {
    int64_t Lo = std::max(X[I].first, Y[J].first);
    int64_t Hi = std::min(X[I].second, Y[J].second);
    if (Lo < Hi)
      S += uint64_t(Hi - Lo);
    if (X[I].second < Y[J].second)
      ++I;
    else
      ++J;
  }
  return S;
}

static void normalizeVars(int64_t &C0,
                          std::vector<std::pair<int64_t, int64_t>> &Vars,
                          bool &Empty) {
  std::vector<std::pair<int64_t, int64_t>> Live;
  Empty = false;
  for (auto [Coef, N] : Vars) {
    if (N <= 0) {
      Empty = true;
      return;
    }
    if (Coef == 0 || N == 1)
      continue;
    if (Coef < 0) {
      C0 += Coef * (N - 1);
      Coef = -Coef;
    }
    Live.emplace_back(Coef, N);
  }
  std::sort(Live.begin(), Live.end());
  Vars.swap(Live);
}

bool FootprintSet::addBox(int64_t C0,
                          std::vector<std::pair<int64_t, int64_t>> Vars,
                          int64_t Width) {
  bool Empty;
  normalizeVars(C0, Vars, Empty);
  if (Empty)
    return true;
  Expansion.reset();
  int64_t Run = Width;
  size_t Idx = 0;
  while (Idx < Vars.size() && Vars[Idx].first <= Run) {
    Run += Vars[Idx].first * (Vars[Idx].second - 1);
    ++Idx;
  }
  Key K(Vars.begin() + Idx, Vars.end());
  Groups[K].add(C0, C0 + Run);
  return true;
}

void FootprintSet::merge(FootprintSet &Other) {
  if (!Other.Groups.empty())
    Expansion.reset();
  for (auto &KV : Other.Groups) {
    if (KV.second.overflowed()) {
      Groups[KV.first].giveUp();
      continue;
    }
    for (auto &P : KV.second.ranges())
      Groups[KV.first].add(P.first, P.second);
  }
}

void FootprintSet::canonicalize() {
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (auto It = Groups.begin(); It != Groups.end(); ++It) {
      if (It->first.empty())
        continue;
      const auto &R = It->second.ranges();
      if (R.size() != 1)
        continue;
      int64_t Lo = R[0].first, Len = R[0].second - R[0].first;
      Key K = It->first;
      size_t Idx = 0;
      while (Idx < K.size() && K[Idx].first <= Len) {
        Len += K[Idx].first * (K[Idx].second - 1);
        ++Idx;
      }
      if (Idx == 0)
        continue;
      Key NK(K.begin() + Idx, K.end());
      Groups.erase(It);
      Groups[NK].add(Lo, Lo + Len);
      Changed = true;
      break;
    }
  }
}

static constexpr uint64_t MaxExpandedRanges = uint64_t(1) << 22;

static bool expandInto(const FootprintSet::Key &K, IntervalSet &U,
                       IntervalSet &Out,
                       uint64_t MaxRanges = MaxExpandedRanges) {
  uint64_t Combos = 1;
  for (auto &P : K) {
    Combos *= uint64_t(P.second);
    if (Combos * U.ranges().size() > MaxRanges)
      return false;
  }
  std::vector<int64_t> Ctr(K.size(), 0);
  for (uint64_t C = 0; C < Combos; ++C) {
    int64_t Off = 0;
    for (size_t I = 0; I < K.size(); ++I)
      Off += K[I].first * Ctr[I];
    for (auto &P : U.ranges())
      Out.add(P.first + Off, P.second + Off);
    for (size_t I = 0; I < K.size(); ++I) {
      if (++Ctr[I] < K[I].second)
        break;
      Ctr[I] = 0;
    }
  }
  return !Out.overflowed();
}

IntervalSet *FootprintSet::expanded() {
  if (!Expansion) {
    Expansion.emplace();
    for (auto &KV : Groups) {
      if (!expandInto(KV.first, KV.second, *Expansion)) {
        Expansion->giveUp();
        break;
      }
      // Each lattice comes out in order: merging it into the ranges of
      // the ones before is linear, where sorting them all at the end is
      // not (a wave of blocks cut into a partial row and whole rows).
      Expansion->normalize();
    }
  }
  return Expansion->overflowed() ? nullptr : &*Expansion;
}

bool roofline::addAffineBox(IntervalSet &S, int64_t C0,
                            std::vector<std::pair<int64_t, int64_t>> Vars,
                            int64_t Width, uint64_t MaxRanges) {
  FootprintSet F;
  F.addBox(C0, std::move(Vars), Width);
  for (auto &KV : F.groups())
    if (!expandInto(KV.first, KV.second, S, MaxRanges))
      return false;
  return true;
}

std::optional<OverlapSizes> roofline::overlap(FootprintSet &A,
                                              FootprintSet &B) {
  for (FootprintSet *F : {&A, &B})
    for (auto &KV : F->groups())
      if (KV.second.overflowed())
        return std::nullopt;
  A.canonicalize();
  B.canonicalize();
  // Same single lattice on both sides, with copies that cannot overlap:
  // count one copy and multiply.
  auto &GA = A.groups(), &GB = B.groups();
  if (GA.size() <= 1 && GB.size() <= 1 && !(GA.empty() && GB.empty())) {
    const FootprintSet::Key &K =
        GA.empty() ? GB.begin()->first : GA.begin()->first;
    bool SameKey = (GA.empty() || GA.begin()->first == K) &&
                   (GB.empty() || GB.begin()->first == K);
    if (SameKey && !K.empty()) {
      IntervalSet EmptySet;
      IntervalSet &UA = GA.empty() ? EmptySet : GA.begin()->second;
      IntervalSet &UB = GB.empty() ? EmptySet : GB.begin()->second;
      int64_t Lo = INT64_MAX, Hi = INT64_MIN;
      for (IntervalSet *U : {&UA, &UB})
        for (auto &P : U->ranges()) {
          Lo = std::min(Lo, P.first);
          Hi = std::max(Hi, P.second);
        }
      int64_t Ext = Hi - Lo;
      bool Disjoint = true;
      uint64_t Combos = 1;
      for (auto &P : K) {
        if (P.first < Ext)
          Disjoint = false;
        Ext += P.first * (P.second - 1);
        Combos *= uint64_t(P.second);
      }
      if (Disjoint) {
        OverlapSizes S;
        S.A = Combos * UA.size();
        S.B = Combos * UB.size();
        S.Both = Combos * IntervalSet::intersectionSize(UA, UB);
        return S;
      }
    }
  }
  IntervalSet *EA = A.expanded(), *EB = B.expanded();
  if (!EA || !EB)
    return std::nullopt;
  OverlapSizes S;
  S.A = EA->size();
  S.B = EB->size();
  S.Both = IntervalSet::intersectionSize(*EA, *EB);
  return S;
}

static Int128 gcd128(Int128 A, Int128 B) {
  A = A < 0 ? -A : A;
  B = B < 0 ? -B : B;
  while (B != 0) {
    Int128 T = A % B;
    A = B;
    B = T;
  }
  return A;
}

namespace {

/// The values of a division or remainder atom over a box: Base + Scale * v
/// for every integer v in [Lo, Hi].
struct AtomValues {
  Int128 Lo, Hi, Base, Scale;
};

} // namespace

/// The values a division or remainder atom by a positive constant D takes
/// over the box Env, when its operand X is affine in the box's variables
/// with integer coefficients and is c0 + g * u for u running over
/// consecutive integers (each coefficient, over g, at most the run the
/// smaller ones cover, as the lanes and blocks of `(blockIdx.x * blockDim.x
/// + threadIdx.x) * 4` are). A quotient then takes every integer between
/// its ends if g <= D; a remainder of nonnegative X, every value congruent
/// to c0 modulo h = gcd(g, D) once u runs over D / h values (g * u modulo D
/// cycles through the multiples of h). Other atoms, and shorter runs (a run
/// within one period is Expr::freeze's, one across a period boundary two
/// ranges), give nullopt. Outer is set to the variable of the largest
/// coefficient that spans a range: a split of it keeps the run consecutive.
static std::optional<AtomValues>
atomValues(const Atom &A, const IntervalEnv &Env, std::string &Outer) {
  if (A.Kind != AtomKind::FloorDiv && A.Kind != AtomKind::TruncDiv &&
      A.Kind != AtomKind::Mod && A.Kind != AtomKind::TruncRem)
    return std::nullopt;
  auto DR = A.Ops[1].asConstant();
  if (!DR || !DR->isInteger() || *DR <= Rational(0))
    return std::nullopt;
  Int128 D = DR->floor();
  std::set<std::string> Syms;
  A.Ops[0].collectSymbols(Syms);
  Expr Rest = A.Ops[0];
  struct Step {
    Int128 Coef, Lo, Hi;
    std::string Var;
  };
  std::vector<Step> Steps;
  for (const std::string &S : Syms) {
    auto It = Env.find(S);
    auto Split = Rest.splitAffine(S);
    if (It == Env.end() || !Split)
      return std::nullopt;
    auto C = Split->first.asConstant();
    const Interval &V = It->second;
    if (!C || !C->isInteger() || !V.Lo.isInteger() || !V.Hi.isInteger())
      return std::nullopt;
    Rest = Split->second;
    if (!C->isZero() && V.Lo != V.Hi)
      Steps.push_back({C->floor(), V.Lo.floor(), V.Hi.floor(), S});
    else
      Rest = Rest + Split->first * Expr::constant(V.Lo);
  }
  auto C0 = Rest.asConstant();
  if (!C0 || !C0->isInteger() || Steps.empty())
    return std::nullopt;
  // Magnitudes stay far inside 128 bits: offsets are 64-bit byte counts.
  Int128 G = 0, Lo = C0->floor(), Hi = Lo;
  for (const Step &St : Steps) {
    G = gcd128(G, St.Coef);
    Lo += St.Coef < 0 ? St.Coef * St.Hi : St.Coef * St.Lo;
    Hi += St.Coef < 0 ? St.Coef * St.Lo : St.Coef * St.Hi;
  }
  llvm::sort(Steps, [](const Step &X, const Step &Y) {
    return (X.Coef < 0 ? -X.Coef : X.Coef) < (Y.Coef < 0 ? -Y.Coef : Y.Coef);
  });
  Int128 Run = 1; // Consecutive values of u the smaller steps cover.
  for (const Step &St : Steps) {
    Int128 Size = (St.Coef < 0 ? -St.Coef : St.Coef) / G;
    if (Run < Size)
      return std::nullopt;
    Run += Size * (St.Hi - St.Lo);
    Outer = St.Var;
  }
  auto FloorDiv = [](Int128 X, Int128 Y) {
    return X / Y - ((X % Y != 0) && ((X < 0) != (Y < 0)));
  };
  switch (A.Kind) {
  case AtomKind::FloorDiv:
    if (G > D)
      return std::nullopt;
    return AtomValues{FloorDiv(Lo, D), FloorDiv(Hi, D), 0, 1};
  case AtomKind::TruncDiv:
    // Truncation is monotone too, with steps of at most one.
    if (G > D)
      return std::nullopt;
    return AtomValues{Lo / D, Hi / D, 0, 1};
  case AtomKind::Mod:
  case AtomKind::TruncRem: {
    // Indices are nonnegative; a remainder of negative values is left to
    // the walker's split.
    Int128 H = gcd128(G, D);
    if (Lo < 0 || Run < D / H)
      return std::nullopt;
    return AtomValues{0, D / H - 1, Lo % H, H};
  }
  default:
    return std::nullopt;
  }
}

/// Replaces, in the offset O over the box Env, each division or remainder
/// atom that mentions the box's variables Vars by Base + Scale * v for a
/// variable v of its own over the atom's values (atomValues), added to
/// Vars and Env. The offsets over the box are then those of the new
/// variables, exactly, provided the variables inside an atom occur nowhere
/// else in O (not in another atom, not outside): the box is a product, so
/// the atom's values combine with every value of the rest. False where an
/// atom cannot be replaced so; the walker then splits the box, as before.
/// Outers gets each atom's variable of the largest step.
static bool collapseAtoms(Expr &O, IntervalEnv &Env,
                          std::vector<std::string> &Vars,
                          std::set<std::string> *Outers = nullptr) {
  std::set<std::string> Ranged;
  for (const std::string &V : Vars)
    if (!Env.at(V).isPoint())
      Ranged.insert(V);
  std::map<std::string, Expr> Fresh; // Atom key -> its values.
  std::set<std::string> Inside;      // Variables inside those atoms.
  bool Ok = true;
  Expr New = O.mapAtoms([&](const Atom &A) -> std::optional<Expr> {
    if (A.Kind == AtomKind::Symbol || !Ok)
      return std::nullopt;
    std::set<std::string> Syms;
    for (const Expr &Op : A.Ops)
      Op.collectSymbols(Syms);
    std::set<std::string> Mine;
    for (const std::string &S : Syms)
      if (Ranged.count(S))
        Mine.insert(S);
    if (Mine.empty())
      return std::nullopt;
    auto It = Fresh.find(A.Key);
    if (It == Fresh.end()) {
      std::string Outer;
      auto R = atomValues(A, Env, Outer);
      if (!R || llvm::any_of(Mine, [&](const std::string &S) {
            return Inside.count(S) != 0;
          })) {
        Ok = false;
        return std::nullopt;
      }
      Inside.insert(Mine.begin(), Mine.end());
      if (Outers)
        Outers->insert(Outer);
      std::string Name = "#collapsed" + std::to_string(Fresh.size());
      Env[Name] =
          Interval{Rational::fraction(R->Lo, 1), Rational::fraction(R->Hi, 1)};
      Vars.push_back(Name);
      Expr V = Expr::constant(Rational::fraction(R->Base, 1)) +
               Expr::constant(Rational::fraction(R->Scale, 1)) *
                   Expr::symbol(Name, SymbolKind::Iteration);
      It = Fresh.emplace(A.Key, V).first;
    }
    return It->second;
  });
  if (!Ok)
    return false;
  if (Fresh.empty())
    return true;
  for (const std::string &S : Inside)
    if (New.mentions(S))
      return false;
  O = std::move(New);
  return true;
}

namespace {

class FootprintSink : public WalkSink {
public:
  FootprintSink(DomainWalker &W, const Expr &Offset, int64_t Width,
                std::vector<std::pair<int64_t, int64_t>> Tile)
      : W(W), Offset(Offset), Width(Width), Tile(std::move(Tile)), Frames(1) {
    std::set<std::string> Syms;
    Offset.mapAtoms([&](const Atom &A) -> std::optional<Expr> {
      if (A.Kind != AtomKind::Symbol)
        for (const Expr &Op : A.Ops)
          Op.collectSymbols(Syms);
      return std::nullopt;
    });
    AtomSyms.assign(Syms.begin(), Syms.end());
    OffsetKey = Offset.str();
  }
  bool Failed = false;

  // Attempts accumulate in their own frame and merge into the parent.
  void begin() override { Frames.emplace_back(); }
  void commit() override {
    FootprintSet Top = std::move(Frames.back());
    Frames.pop_back();
    out().merge(Top);
  }
  void rollback() override { Frames.pop_back(); }
  FootprintSet &result() { return Frames.front(); }

  bool closed(int K, const IntervalEnv &EnvIn) override {
    IntervalEnv Env = EnvIn;
    std::vector<std::string> Vars;
    for (int I = 0; I < 6; ++I)
      Vars.push_back(ThreadDimNames[I]);
    for (int J = 1; J <= W.depth(); ++J) {
      if (J > K) {
        // Deeper loops must span a fixed range for the domain to be a box.
        if (W.isSequence(J) || !W.tripCount(J))
          return false;
        auto B = W.tripCount(J)->bound(Env);
        if (!B || !B->isPoint())
          return false;
        Env[W.var(J)] = Interval{Rational(0), B->Lo - Rational(1)};
      }
      Vars.push_back(W.var(J));
    }
    bool Single = llvm::all_of(
        Vars, [&](const std::string &V) { return Env.at(V).isPoint(); });
    // Border selects and flat indices taken apart by / and % are affine
    // over a few pieces of the box: cut them there rather than have the
    // walker split the grid row by row.
    bool Done = forEachAffinePiece(
        OffsetBox{frozen(Env), std::move(Env), std::move(Vars)},
        [&](OffsetBox P) { return addAffine(std::move(P)); }, MaxPieces);
    if (Single)
      ++Points;
    else
      Ranges += Done;
    return Done;
  }

  // An address no range of threads is affine in (`x[(i * i) % n]`) is
  // taken apart thread by thread: at some 30 us a step, a grid of millions
  // would run to the kernel's time limit. The first LonePoints threads
  // decide it: the footprint is then too large to walk.
  static constexpr uint64_t LonePoints = 4096;
  bool abandoned() const override { return !Ranges && Points >= LonePoints; }
  std::string abandonReason() const override {
    return "no range of threads has an affine address: the first " +
           std::to_string(LonePoints) + " were taken one by one";
  }

  /// Adds the bytes of P if its offset is affine over its box; nullopt if
  /// it is not.
  std::optional<bool> addAffine(OffsetBox P) {
    Expr &O = P.Offset;
    std::map<std::string, Expr> Points;
    for (const std::string &V : P.Vars) {
      const Interval &I = P.Env.at(V);
      if (I.isPoint())
        Points[V] = Expr::constant(I.Lo);
    }
    O = O.substitute(Points);
    // `bias[idx % C]` over a box of many periods: the remainder's values
    // make the box, instead of a split of the box at every period, which
    // walks a large grid block by block.
    if (!collapseAtoms(O, P.Env, P.Vars))
      return std::nullopt;
    std::vector<std::pair<int64_t, int64_t>> Box;
    for (const std::string &V : P.Vars) {
      const Interval &I = P.Env.at(V);
      if (I.isPoint())
        continue;
      auto Split = O.splitAffine(V);
      if (!Split)
        return std::nullopt;
      auto C = Split->first.asConstant();
      auto Lo = I.Lo.toInt64(), Hi = I.Hi.toInt64();
      if (!C || !C->isInteger() || !Lo || !Hi)
        return std::nullopt;
      auto CI = C->toInt64();
      if (!CI)
        return std::nullopt;
      // v = Lo + u, u in [0, Hi - Lo].
      O = Split->second + Expr(*CI) * Expr(*Lo);
      Box.emplace_back(*CI, *Hi - *Lo + 1);
    }
    auto C0 = O.asConstant();
    if (!C0 || !C0->toInt64())
      return std::nullopt;
    Box.insert(Box.end(), Tile.begin(), Tile.end());
    return out().addBox(*C0->toInt64(), Box, Width);
  }

  unsigned inseparableDims(const IntervalEnv &Env) override {
    const Expr &O = frozen(Env);
    unsigned Mask = 0;
    for (int I = 0; I < 6; ++I) {
      const Interval &D = Env.at(ThreadDimNames[I]);
      if (D.isPoint())
        continue;
      auto Split = O.splitAffine(ThreadDimNames[I]);
      if (!Split || !Split->first.asConstant())
        Mask |= 1u << I;
    }
    if (!Mask)
      return Mask;
    // An offset whose remainders and quotients take their ranges over this
    // box (closed() will take it whole once the guards are decided) needs
    // only the variable of their largest step split: split first, the
    // lanes of a block would cut the linear index into runs that no
    // longer cover a period, and the blocks of each part would then be
    // taken one by one (the partial last block of a bias add).
    Expr C = O;
    IntervalEnv CEnv = Env;
    std::vector<std::string> Vars(ThreadDimNames, ThreadDimNames + 6);
    std::set<std::string> Outers;
    if (!collapseAtoms(C, CEnv, Vars, &Outers) || Outers.empty())
      return affineInPieces(O, Env) ? 0 : Mask;
    unsigned Outer = 0;
    for (int I = 0; I < 6; ++I) {
      const Interval &D = Env.at(ThreadDimNames[I]);
      if (D.isPoint())
        continue;
      auto Split = C.splitAffine(ThreadDimNames[I]);
      if (!Split || !Split->first.asConstant())
        return Mask;
      if (Outers.count(ThreadDimNames[I]))
        Outer |= 1u << I;
    }
    return Outer ? Outer : Mask;
  }

  /// True if O is affine in the thread coordinates over a few pieces of
  /// the box of threads in Env (a flat index taken apart by `/` and `%`,
  /// a border select): closed() cuts it so with the loops' ranges too, so
  /// the walker may descend into the loops with the whole box (a copy
  /// loop's guard decided once, not once per run of 16 lanes).
  static bool affineInPieces(const Expr &O, const IntervalEnv &Env) {
    std::vector<std::string> Vars(ThreadDimNames, ThreadDimNames + 6);
    auto Affine = [](OffsetBox P) -> std::optional<bool> {
      std::map<std::string, Expr> Points;
      for (const std::string &V : P.Vars)
        if (P.Env.at(V).isPoint())
          Points[V] = Expr::constant(P.Env.at(V).Lo);
      Expr Q = P.Offset.substitute(Points);
      for (const std::string &V : P.Vars) {
        if (P.Env.at(V).isPoint())
          continue;
        auto Split = Q.splitAffine(V);
        if (!Split || !Split->first.asConstant())
          return std::nullopt;
      }
      return true;
    };
    return forEachAffinePiece(OffsetBox{O, Env, std::move(Vars)}, Affine,
                              MaxPieces);
  }

  void point(const IntervalEnv &Env) override {
    ++Points;
    auto V = Offset.evaluate(Env);
    if (!V || !V->toInt64()) {
      Failed = true;
      return;
    }
    int64_t O = *V->toInt64();
    if (Tile.empty())
      out().addRange(O, O + Width);
    else
      out().addBox(O, Tile, Width);
  }

private:
  /// Offset.freeze(Env). Freezing decides each division or remainder atom
  /// from the bounds of its operands alone, so the result depends only on
  /// the offset and the intervals of the symbols inside its atoms: walks
  /// revisit the same thread ranges for many block ranges, and the cache
  /// model walks the same access once per wave; those reuse it.
  const Expr &frozen(const IntervalEnv &Env) {
    static thread_local std::map<std::string, Expr> Cache;
    std::string Key = OffsetKey;
    for (const std::string &S : AtomSyms) {
      auto It = Env.find(S);
      Key += '|';
      Key += It == Env.end() ? std::string("?")
                             : It->second.Lo.str() + ":" + It->second.Hi.str();
    }
    auto It = Cache.find(Key);
    if (It != Cache.end())
      return It->second;
    if (Cache.size() >= 16384)
      Cache.clear();
    return Cache.emplace(std::move(Key), Offset.freeze(Env)).first->second;
  }

  DomainWalker &W;
  Expr Offset;
  std::vector<std::string> AtomSyms; ///< Symbols inside Offset's atoms.
  std::string OffsetKey;             ///< Offset.str(), for the cache.
  int64_t Width;
  std::vector<std::pair<int64_t, int64_t>> Tile;
  std::vector<FootprintSet> Frames;
  uint64_t Points = 0, Ranges = 0; ///< point() calls; closed() successes.
  FootprintSet &out() { return Frames.back(); }
};

struct BaseSets {
  FootprintSet Reads, Writes, ReadsBeforeWrite;
};

} // namespace

// The (byte stride, count) dimensions of a WMMA fragment access with the
// launch's values; nullopt if a stride has none.
static std::optional<std::vector<std::pair<int64_t, int64_t>>>
tileStrides(const AccessModel &A, const std::map<std::string, Expr> &Known) {
  std::vector<std::pair<int64_t, int64_t>> Tile;
  for (auto &[Stride, Count] : A.Tile) {
    auto C = Stride.substitute(Known).asConstant();
    if (!C || !C->toInt64())
      return std::nullopt;
    Tile.emplace_back(*C->toInt64(), Count);
  }
  return Tile;
}

// The parameters of O (Known substituted) that nothing gave a value.
static std::set<std::string> unvaluedParams(const Expr &O) {
  std::set<std::string> Names;
  O.mapAtoms([&](const Atom &A) -> std::optional<Expr> {
    if (A.Kind == AtomKind::Symbol && A.SymKind == SymbolKind::Param)
      Names.insert(A.Name);
    return std::nullopt;
  });
  return Names;
}

// The offset whose footprint is walked for A. A parameter without a value
// that shifts every address of a buffer by the same amount, the same for
// all the launch (`src[i + offset]`), moves the buffer's footprints
// together: their sizes and overlaps are those with the shift taken as 0.
// Any other such parameter is left in, and the caller names it.
static Expr footprintOffset(const KernelModel &M, const AccessModel &A,
                            const std::map<std::string, Expr> &Known) {
  Expr O = A.Offset->substitute(Known);
  if (unvaluedParams(O).empty())
    return O;
  std::optional<std::string> Shift;
  std::optional<Expr> Unshifted;
  for (const BlockModel &B : M.Blocks)
    for (const AccessModel &X : B.Accesses) {
      if (X.Space != MemSpace::Global || X.Base != A.Base || !X.Offset)
        continue;
      Expr XO = X.Offset->substitute(Known);
      std::map<std::string, Expr> Zero;
      for (const std::string &P : unvaluedParams(XO))
        Zero.emplace(P, Expr(0));
      Expr Rest = XO.substitute(Zero);
      Expr D = XO - Rest;
      if (D.mentionsKind(SymbolKind::Thread) ||
          D.mentionsKind(SymbolKind::Iteration) || (Shift && *Shift != D.str()))
        return O;
      Shift = D.str();
      if (&X == &A)
        Unshifted = Rest;
    }
  return Unshifted ? *Unshifted : O;
}

// A parameter left in the address: every point of the walk would fail to
// evaluate, after a bisection of the whole grid.
static std::optional<std::string> unvaluedParam(const Expr &Offset) {
  std::set<std::string> Names = unvaluedParams(Offset);
  if (Names.empty())
    return std::nullopt;
  return *Names.begin();
}

bool roofline::addAccessFootprint(const KernelModel &M, const BlockModel &B,
                                  const AccessModel &A,
                                  const std::map<std::string, Expr> &Known,
                                  const ThreadBox &Box, uint64_t Budget,
                                  FootprintSet &Into) {
  if (A.Base.empty() || !A.Offset)
    return false;
  auto Tile = tileStrides(A, Known);
  if (!Tile)
    return false;
  Expr Offset = footprintOffset(M, A, Known);
  if (unvaluedParam(Offset))
    return false;
  DomainWalker W(M, B, Known, Budget);
  FootprintSink Sink(W, Offset, A.Width, *Tile);
  WalkStatus St = W.walk(Box, Sink);
  if (!St.Ok || Sink.Failed)
    return false;
  Into.merge(Sink.result());
  return true;
}

std::optional<uint64_t> roofline::footprintSize(FootprintSet &F) {
  FootprintSet None;
  auto Sizes = overlap(F, None);
  if (!Sizes)
    return std::nullopt;
  return Sizes->A;
}

std::optional<uint64_t>
roofline::accessFootprint(const KernelModel &M, const BlockModel &B,
                          const AccessModel &A,
                          const std::map<std::string, Expr> &Known,
                          const ThreadBox &Box, uint64_t Budget) {
  FootprintSet F;
  if (!addAccessFootprint(M, B, A, Known, Box, Budget, F))
    return std::nullopt;
  return footprintSize(F);
}

// O with each A - C*(A/C) (C a constant) written as the remainder it is:
// the optimizer spells `x[k % n]` so, and intervals bound the remainder by
// the divisor where they would bound the difference by A's whole range.
static Expr foldRemainders(Expr O) {
  for (bool Again = true; Again;) {
    Again = false;
    for (const Expr::Term &T : O.terms()) {
      if (T.Mono.size() != 1 || T.Mono[0].second != 1)
        continue;
      const Atom &Q = *T.Mono[0].first;
      if (Q.Kind != AtomKind::FloorDiv && Q.Kind != AtomKind::TruncDiv)
        continue;
      auto C = Q.Ops[1].asConstant();
      if (!C || !(Rational(0) < *C))
        continue;
      const Expr &A = Q.Ops[0];
      bool Floor = Q.Kind == AtomKind::FloorDiv;
      Expr Quot =
          Floor ? Expr::floorDiv(A, Q.Ops[1]) : Expr::truncDiv(A, Q.Ops[1]);
      Expr Rem = Floor ? Expr::mod(A, Q.Ops[1]) : Expr::truncRem(A, Q.Ops[1]);
      Expr K = Expr::constant(-T.Coef / *C);
      Expr Folded = O - K * (A - Expr::constant(*C) * Quot) + K * Rem;
      if (Folded.terms().size() < O.terms().size()) {
        O = std::move(Folded);
        Again = true;
        break;
      }
    }
  }
  return O;
}

// The interval of bytes an access at Offset spans over Box, guards
// ignored, each loop variable over [0, its largest trip count).
static std::optional<std::pair<int64_t, int64_t>>
offsetHull(DomainWalker &W, const Expr &Offset, int64_t Width,
           const std::vector<std::pair<int64_t, int64_t>> &Tile,
           const ThreadBox &Box) {
  IntervalEnv Env;
  for (int I = 0; I < 6; ++I) {
    if (Box.Dims[I].Hi < Box.Dims[I].Lo)
      return std::nullopt;
    Env[ThreadDimNames[I]] = Box.Dims[I];
  }
  for (int J = 1; J <= W.depth(); ++J) {
    if (W.isSequence(J) || !W.tripCount(J))
      return std::nullopt;
    auto T = W.tripCount(J)->bound(Env);
    if (!T || T->Hi < Rational(1))
      return std::nullopt;
    Env[W.var(J)] = Interval{Rational(0), T->Hi - Rational(1)};
  }
  auto B = foldRemainders(Offset).bound(Env);
  if (!B)
    return std::nullopt;
  Int128 Lo = B->Lo.floor(), Hi = B->Hi.ceil() + Width;
  for (auto [Stride, Count] : Tile)
    (Stride < 0 ? Lo : Hi) += Int128(Stride) * (Count - 1);
  constexpr Int128 Limit = Int128(1) << 62;
  if (Lo < -Limit || Hi > Limit)
    return std::nullopt;
  return std::make_pair(int64_t(Lo), int64_t(Hi));
}

bool roofline::addAccessHull(const KernelModel &M, const BlockModel &B,
                             const AccessModel &A,
                             const std::map<std::string, Expr> &Known,
                             const ThreadBox &Box, FootprintSet &Into) {
  if (A.Base.empty() || !A.Offset)
    return false;
  auto Tile = tileStrides(A, Known);
  if (!Tile)
    return false;
  DomainWalker W(M, B, Known, 0);
  auto H = offsetHull(W, footprintOffset(M, A, Known), A.Width, *Tile, Box);
  if (!H)
    return false;
  Into.addRange(H->first, H->second);
  return true;
}

static void addToSets(BaseSets &S, const AccessModel &A, FootprintSet &F) {
  if (!A.IsStore || A.IsAtomic) {
    FootprintSet Copy = F;
    S.Reads.merge(Copy);
  }
  if (A.IsStore || A.IsAtomic) {
    FootprintSet Copy = F;
    S.Writes.merge(Copy);
  }
  if (A.ReadBeforeWrite || A.IsAtomic)
    S.ReadsBeforeWrite.merge(F);
}

// Compulsory bytes of the buffers' sets: written bytes, plus bytes only
// read, plus bytes read before written. A buffer whose sets have too many
// ranges is left out, and noted in Report if there is one.
static uint64_t compulsoryBytes(std::map<std::string, BaseSets> &Bases,
                                TrafficBound *Report) {
  uint64_t Total = 0;
  for (auto &KV : Bases) {
    BaseSets &S = KV.second;
    auto RW = overlap(S.Reads, S.Writes);
    auto BW = overlap(S.ReadsBeforeWrite, S.Writes);
    if (!RW || !BW) {
      if (!Report)
        continue;
      UnknownReason Note;
      // A set given up on at the analysis limits looks the same as one
      // with too many ranges: say which it was.
      Note.Reason =
          "footprint of '" + KV.first + "' " +
          (KernelLimits::reached()
               ? "could not be computed (" + KernelLimits::reason() + ")"
               : std::string("has too many separate ranges")) +
          "; left out of dram_bytes.lower";
      Report->Notes.push_back(Note);
      Report->Exact = false;
      Report->LeftOut = true;
      continue;
    }
    Total += RW->B + (RW->A - RW->Both) + BW->Both;
  }
  return Total;
}

TrafficBound roofline::compulsoryTraffic(
    const KernelModel &M, const std::map<std::string, Expr> &Known,
    const Dim3 &Grid, const Dim3 &Block, uint64_t Budget) {
  TrafficBound TB;
  std::map<std::string, BaseSets> Bases;
  // The intervals of the accesses too large to walk, by buffer.
  std::vector<std::pair<const AccessModel *, FootprintSet>> Hulls;
  bool HullsKnown = true;
  ThreadBox Box = ThreadBox::wholeGrid(Grid, Block);
  for (const BlockModel &B : M.Blocks) {
    if (std::none_of(
            B.Accesses.begin(), B.Accesses.end(),
            [](const AccessModel &A) { return A.Space == MemSpace::Global; }))
      continue;
    DomainWalker W(M, B, Known, Budget);
    for (const AccessModel &A : B.Accesses) {
      if (A.Space != MemSpace::Global)
        continue;
      UnknownReason Note;
      Note.Loc = A.Loc;
      auto leaveOut = [&](std::string Why) {
        Note.Reason = std::move(Why);
        TB.Notes.push_back(Note);
        TB.Exact = false;
        TB.LeftOut = true;
      };
      if (A.Base.empty() || !A.Offset) {
        leaveOut("address of this access is not an affine function of "
                 "a kernel parameter; left out of dram_bytes.lower");
        continue;
      }
      auto Tile = tileStrides(A, Known);
      if (!Tile) {
        leaveOut("tile stride of this access has no value; left out of "
                 "dram_bytes.lower");
        continue;
      }
      Expr Offset = footprintOffset(M, A, Known);
      if (auto P = unvaluedParam(Offset)) {
        leaveOut("footprint of this access could not be computed (its "
                 "address depends on '" +
                 *P + "', which has no value); left out of dram_bytes.lower");
        continue;
      }
      BaseSets &S = Bases[A.Base];
      FootprintSink Sink(W, Offset, A.Width, *Tile);
      WalkStatus St = W.walk(Box, Sink);
      if (St.Ok && !Sink.Failed) {
        addToSets(S, A, Sink.result());
        continue;
      }
      if (Sink.Failed || !St.OverBudget) {
        leaveOut("footprint of this access could not be computed (" +
                 (St.Ok ? std::string("address has no value") : St.Why.Reason) +
                 "); left out of dram_bytes.lower");
        continue;
      }
      // Too large to walk: what block 0 (or its thread 0) touches is part
      // of it, and its addresses lie in their interval.
      auto sample = [&](const ThreadBox &Sub) -> std::optional<FootprintSet> {
        FootprintSink Part(W, Offset, A.Width, *Tile);
        WalkStatus PS = W.walk(Sub, Part);
        if (!PS.Ok || Part.Failed)
          return std::nullopt;
        return std::move(Part.result());
      };
      const char *Whose = "block 0";
      std::optional<FootprintSet> Part = sample(ThreadBox::block0(Block));
      if (!Part) {
        Whose = "thread 0";
        Part = sample(ThreadBox::thread0());
      }
      if (!Part) {
        leaveOut("footprint of this access could not be computed (" +
                 St.Why.Reason + "); left out of dram_bytes.lower");
        continue;
      }
      FootprintSet Hull;
      auto H = offsetHull(W, Offset, A.Width, *Tile, Box);
      if (H)
        Hull.addRange(H->first, H->second);
      HullsKnown &= H.has_value();
      FootprintSet PartCopy = *Part;
      uint64_t PartBytes = footprintSize(PartCopy).value_or(0);
      addToSets(S, A, *Part);
      Hulls.emplace_back(&A, std::move(Hull));
      TB.Sampled.push_back(&A);
      TB.Exact = false;
      Note.Reason =
          "footprint of this access is too large to walk (" + St.Why.Reason +
          "): dram_bytes.lower counts the " + std::to_string(PartBytes) +
          " B " + Whose + " touches" +
          (H ? ", the estimate the " + std::to_string(H->second - H->first) +
                   " B its addresses span"
             : std::string(", and it has no estimate"));
      TB.Notes.push_back(Note);
    }
  }
  TB.Lower = compulsoryBytes(Bases, &TB);
  if (!Hulls.empty() && HullsKnown && !TB.LeftOut) {
    std::map<std::string, BaseSets> WithHulls = Bases;
    for (auto &[A, Hull] : Hulls)
      addToSets(WithHulls[A->Base], *A, Hull);
    TB.Hull = compulsoryBytes(WithHulls, nullptr);
  }
  return TB;
}
