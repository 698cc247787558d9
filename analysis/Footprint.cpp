//===- Footprint.cpp ------------------------------------------------------===//

#include "Footprint.h"
#include "DomainCounter.h"

#include <algorithm>

using namespace roofline;

static constexpr size_t MaxStoredRanges = size_t(1) << 24;

void IntervalSet::add(int64_t Lo, int64_t Hi) {
  if (Hi <= Lo)
    return;
  R.emplace_back(Lo, Hi);
  if (R.size() > 2 * NormalizedSize + (size_t(1) << 20)) {
    normalize();
    if (R.size() > MaxStoredRanges)
      TooLarge = true;
  }
}

void IntervalSet::normalize() {
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

bool roofline::addAffineBox(IntervalSet &S, int64_t C0,
                            std::vector<std::pair<int64_t, int64_t>> Vars,
                            int64_t Width, uint64_t MaxRanges) {
  std::vector<std::pair<int64_t, int64_t>> Live;
  for (auto [Coef, N] : Vars) {
    if (N <= 0)
      return true; // Empty box.
    if (Coef == 0 || N == 1)
      continue;
    if (Coef < 0) {
      C0 += Coef * (N - 1);
      Coef = -Coef;
    }
    Live.emplace_back(Coef, N);
  }
  std::sort(Live.begin(), Live.end());
  // Variables whose stride does not exceed the run so far extend one
  // contiguous run; the rest multiply the number of runs.
  int64_t Run = Width;
  size_t Idx = 0;
  while (Idx < Live.size() && Live[Idx].first <= Run) {
    Run += Live[Idx].first * (Live[Idx].second - 1);
    ++Idx;
  }
  uint64_t Combos = 1;
  for (size_t I = Idx; I < Live.size(); ++I) {
    Combos *= uint64_t(Live[I].second);
    if (Combos > MaxRanges)
      return false;
  }
  std::vector<int64_t> Ctr(Live.size(), 0);
  for (uint64_t C = 0; C < Combos; ++C) {
    int64_t Off = C0;
    for (size_t I = Idx; I < Live.size(); ++I)
      Off += Live[I].first * Ctr[I];
    S.add(Off, Off + Run);
    for (size_t I = Idx; I < Live.size(); ++I) {
      if (++Ctr[I] < Live[I].second)
        break;
      Ctr[I] = 0;
    }
  }
  return true;
}

namespace {

class FootprintSink : public WalkSink {
public:
  FootprintSink(DomainWalker &W, const Expr &Offset, int64_t Width,
                IntervalSet &Out)
      : W(W), Offset(Offset), Width(Width), Out(Out) {}
  bool Failed = false;

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
    Expr O = Offset.freeze(Env);
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
    return addAffineBox(Out, *C0->toInt64(), Box, Width, uint64_t(1) << 22);
  }

  void point(const IntervalEnv &Env) override {
    auto V = Offset.evaluate(Env);
    if (!V || !V->toInt64()) {
      Failed = true;
      return;
    }
    int64_t O = *V->toInt64();
    Out.add(O, O + Width);
  }

private:
  DomainWalker &W;
  Expr Offset;
  int64_t Width;
  IntervalSet &Out;
};

struct BaseSets {
  IntervalSet Reads, Writes, ReadsBeforeWrite;
};

} // namespace

TrafficBound roofline::compulsoryTraffic(const KernelModel &M,
                                         const std::map<std::string, Expr> &Known,
                                         const Dim3 &Grid, const Dim3 &Block,
                                         uint64_t Budget) {
  TrafficBound TB;
  std::map<std::string, BaseSets> Bases;
  ThreadBox Box = ThreadBox::wholeGrid(Grid, Block);
  for (const BlockModel &B : M.Blocks) {
    if (B.Accesses.empty())
      continue;
    DomainWalker W(M, B, Known, Budget);
    for (const AccessModel &A : B.Accesses) {
      UnknownReason Note;
      Note.Line = A.Line;
      Note.Column = A.Column;
      if (A.Base.empty() || !A.Offset) {
        Note.Reason = "address of this access is not an affine function of "
                      "a kernel parameter; left out of dram_bytes.lower";
        TB.Notes.push_back(Note);
        TB.Exact = false;
        continue;
      }
      BaseSets &S = Bases[A.Base];
      IntervalSet Tmp;
      FootprintSink Sink(W, A.Offset->substitute(Known), A.Width, Tmp);
      WalkStatus St = W.walk(Box, Sink);
      if (!St.Ok || Sink.Failed || Tmp.overflowed()) {
        Note.Reason = "footprint of this access could not be computed (" +
                      (St.Ok ? std::string("address has no value") : St.Why.Reason) +
                      "); left out of dram_bytes.lower";
        TB.Notes.push_back(Note);
        TB.Exact = false;
        continue;
      }
      for (auto &P : Tmp.ranges()) {
        bool Reads = !A.IsStore || A.IsAtomic;
        bool Writes = A.IsStore || A.IsAtomic;
        if (Reads)
          S.Reads.add(P.first, P.second);
        if (Writes)
          S.Writes.add(P.first, P.second);
        if (A.ReadBeforeWrite || A.IsAtomic)
          S.ReadsBeforeWrite.add(P.first, P.second);
      }
    }
  }
  uint64_t Total = 0;
  for (auto &KV : Bases) {
    BaseSets &S = KV.second;
    uint64_t W = S.Writes.size(), R = S.Reads.size();
    uint64_t RW = IntervalSet::intersectionSize(S.Reads, S.Writes);
    uint64_t RBW = IntervalSet::intersectionSize(S.ReadsBeforeWrite, S.Writes);
    Total += W + (R - RW) + RBW;
  }
  TB.Lower = Total;
  return TB;
}
