//===- Footprint.cpp ------------------------------------------------------===//

#include "Footprint.h"
#include "DomainCounter.h"
#include "Limits.h"

#include <algorithm>

using namespace roofline;

static constexpr size_t MaxStoredRanges = size_t(1) << 24;

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
  std::sort(R.begin(), R.end());
  std::vector<std::pair<int64_t, int64_t>> Out;
  for (auto &P : R) {
    if (!Out.empty() && P.first <= Out.back().second)
      Out.back().second = std::max(Out.back().second, P.second);
    else
      Out.push_back(P);
  }
  R.swap(Out);
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
                       IntervalSet &Out, uint64_t MaxRanges = MaxExpandedRanges) {
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

std::optional<OverlapSizes> roofline::overlap(FootprintSet &A, FootprintSet &B) {
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
    const FootprintSet::Key &K = GA.empty() ? GB.begin()->first : GA.begin()->first;
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
  IntervalSet EA, EB;
  for (auto &KV : GA)
    if (!expandInto(KV.first, KV.second, EA))
      return std::nullopt;
  for (auto &KV : GB)
    if (!expandInto(KV.first, KV.second, EB))
      return std::nullopt;
  OverlapSizes S;
  S.A = EA.size();
  S.B = EB.size();
  S.Both = IntervalSet::intersectionSize(EA, EB);
  return S;
}

namespace {

class FootprintSink : public WalkSink {
public:
  FootprintSink(DomainWalker &W, const Expr &Offset, int64_t Width,
                std::vector<std::pair<int64_t, int64_t>> Tile)
      : W(W), Offset(Offset), Width(Width), Tile(std::move(Tile)),
        Frames(1) {
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
    Expr O = frozen(Env);
    std::vector<std::pair<int64_t, int64_t>> Box;
    std::map<std::string, Expr> Points;
    for (const std::string &V : Vars) {
      const Interval &I = Env.at(V);
      if (I.isPoint())
        Points[V] = Expr::constant(I.Lo);
    }
    O = O.substitute(Points);
    for (const std::string &V : Vars) {
      const Interval &I = Env.at(V);
      if (I.isPoint())
        continue;
      auto Split = O.splitAffine(V);
      if (!Split)
        return false;
      auto C = Split->first.asConstant();
      auto Lo = I.Lo.toInt64(), Hi = I.Hi.toInt64();
      if (!C || !C->isInteger() || !Lo || !Hi)
        return false;
      auto CI = C->toInt64();
      if (!CI)
        return false;
      // v = Lo + u, u in [0, Hi - Lo].
      O = Split->second + Expr(*CI) * Expr(*Lo);
      Box.emplace_back(*CI, *Hi - *Lo + 1);
    }
    auto C0 = O.asConstant();
    if (!C0 || !C0->toInt64())
      return false;
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
    return Mask;
  }

  void point(const IntervalEnv &Env) override {
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
  std::string OffsetKey;              ///< Offset.str(), for the cache.
  int64_t Width;
  std::vector<std::pair<int64_t, int64_t>> Tile;
  std::vector<FootprintSet> Frames;
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
  DomainWalker W(M, B, Known, Budget);
  FootprintSink Sink(W, A.Offset->substitute(Known), A.Width, *Tile);
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

TrafficBound roofline::compulsoryTraffic(const KernelModel &M,
                                         const std::map<std::string, Expr> &Known,
                                         const Dim3 &Grid, const Dim3 &Block,
                                         uint64_t Budget) {
  TrafficBound TB;
  std::map<std::string, BaseSets> Bases;
  ThreadBox Box = ThreadBox::wholeGrid(Grid, Block);
  for (const BlockModel &B : M.Blocks) {
    if (std::none_of(B.Accesses.begin(), B.Accesses.end(),
                     [](const AccessModel &A) {
                       return A.Space == MemSpace::Global;
                     }))
      continue;
    DomainWalker W(M, B, Known, Budget);
    for (const AccessModel &A : B.Accesses) {
      if (A.Space != MemSpace::Global)
        continue;
      UnknownReason Note;
      Note.Line = A.Line;
      Note.Column = A.Column;
      Note.File = A.File;
      if (A.Base.empty() || !A.Offset) {
        Note.Reason = "address of this access is not an affine function of "
                      "a kernel parameter; left out of dram_bytes.lower";
        TB.Notes.push_back(Note);
        TB.Exact = false;
        continue;
      }
      auto Tile = tileStrides(A, Known);
      if (!Tile) {
        Note.Reason = "tile stride of this access has no value; left out of "
                      "dram_bytes.lower";
        TB.Notes.push_back(Note);
        TB.Exact = false;
        continue;
      }
      BaseSets &S = Bases[A.Base];
      FootprintSink Sink(W, A.Offset->substitute(Known), A.Width, *Tile);
      WalkStatus St = W.walk(Box, Sink);
      if (!St.Ok || Sink.Failed) {
        Note.Reason = "footprint of this access could not be computed (" +
                      (St.Ok ? std::string("address has no value") : St.Why.Reason) +
                      "); left out of dram_bytes.lower";
        TB.Notes.push_back(Note);
        TB.Exact = false;
        continue;
      }
      FootprintSet &F = Sink.result();
      if (!A.IsStore || A.IsAtomic)
        S.Reads.merge(F);
      if (A.IsStore || A.IsAtomic)
        S.Writes.merge(F);
      if (A.ReadBeforeWrite || A.IsAtomic)
        S.ReadsBeforeWrite.merge(F);
    }
  }
  uint64_t Total = 0;
  for (auto &KV : Bases) {
    BaseSets &S = KV.second;
    auto RW = overlap(S.Reads, S.Writes);
    auto BW = overlap(S.ReadsBeforeWrite, S.Writes);
    if (!RW || !BW) {
      UnknownReason Note;
      // A set given up on at the analysis limits looks the same as one
      // with too many ranges: say which it was.
      Note.Reason = "footprint of '" + KV.first + "' " +
                    (KernelLimits::reached()
                         ? "could not be computed (" + KernelLimits::reason() +
                               ")"
                         : std::string("has too many separate ranges")) +
                    "; left out of dram_bytes.lower";
      TB.Notes.push_back(Note);
      TB.Exact = false;
      continue;
    }
    // Written bytes, plus bytes only read, plus bytes read before written.
    Total += RW->B + (RW->A - RW->Both) + BW->Both;
  }
  TB.Lower = Total;
  return TB;
}
