//===- OffsetPieces.cpp ---------------------------------------------------===//

#include "OffsetPieces.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <set>

using namespace roofline;

namespace {

using Pieces = std::vector<OffsetBox>;

bool ranged(const IntervalEnv &Env, const std::string &V) {
  auto It = Env.find(V);
  return It != Env.end() && !It->second.isPoint();
}

/// Every non-symbol atom of E, nested ones included.
std::vector<const Atom *> atomsOf(const Expr &E) {
  std::vector<const Atom *> Out;
  E.mapAtoms([&](const Atom &A) -> std::optional<Expr> {
    if (A.Kind != AtomKind::Symbol)
      Out.push_back(&A);
    return std::nullopt;
  });
  return Out;
}

/// A copy of B with variable V restricted to [Lo, Hi].
OffsetBox restrict(const OffsetBox &B, const std::string &V, Rational Lo,
                   Rational Hi) {
  OffsetBox P = B;
  P.Env[V] = Interval{Lo, Hi};
  return P;
}

/// Cuts V's range [Lo, Hi] before each of the points in Cuts (sorted),
/// keeping the nonempty parts.
Pieces cutAt(const OffsetBox &B, const std::string &V,
             const std::vector<Rational> &Cuts) {
  Pieces Out;
  Interval R = B.Env.at(V);
  Rational Lo = R.Lo;
  for (const Rational &C : Cuts) {
    if (Lo < C && C <= R.Hi) {
      Out.push_back(restrict(B, V, Lo, C - Rational(1)));
      Lo = C;
    }
  }
  Out.push_back(restrict(B, V, Lo, R.Hi));
  return Out;
}

/// Where a select's condition changes over the box: its comparand must be
/// c * v + r in a single ranged variable v.
std::optional<Pieces> cutSelect(const OffsetBox &B) {
  for (const Atom *A : atomsOf(B.Offset)) {
    // max(a, b) and min(a, b) choose on the sign of a - b (a border clamp
    // is often a saturating subtract, umax(x, 1) - 1).
    bool MinMax = A->Kind == AtomKind::Max || A->Kind == AtomKind::Min;
    if (A->Kind != AtomKind::SelectNonNeg && A->Kind != AtomKind::SelectZero &&
        !MinMax)
      continue;
    const Expr D = MinMax ? A->Ops[0] - A->Ops[1] : A->Ops[0];
    std::set<std::string> Syms;
    D.collectSymbols(Syms);
    std::vector<std::string> Ranged;
    for (const std::string &S : Syms)
      if (ranged(B.Env, S))
        Ranged.push_back(S);
    if (Ranged.size() != 1)
      continue;
    const std::string &V = Ranged[0];
    auto Split = D.splitAffine(V);
    if (!Split)
      continue;
    auto C = Split->first.asConstant();
    auto R = Split->second.bound(B.Env);
    if (!C || C->isZero() || !C->isInteger() || !R || !R->isPoint())
      continue;
    // D = C*v + R: zero at v = -R/C.
    Rational Root = (Rational(0) - R->Lo) / *C;
    std::vector<Rational> Cuts;
    if (MinMax) {
      // The sign of D changes between v < Root and v > Root; cut at both
      // sides of it, each part then has one sign (or is zero).
      Rational R0 = Rational::fraction(Root.floor(), 1);
      Cuts = {R0, R0 + Rational(1)};
    } else if (A->Kind == AtomKind::SelectZero) {
      if (!Root.isInteger())
        continue;
      Cuts = {Root, Root + Rational(1)};
    } else {
      // D >= 0 from ceil(Root) up when C > 0, up to floor(Root) when C < 0.
      Rational First = Rational(0) < *C
                           ? Rational::fraction(Root.ceil(), 1)
                           : Rational::fraction(Root.floor(), 1) + Rational(1);
      Cuts = {First};
    }
    Pieces Out = cutAt(B, V, Cuts);
    if (Out.size() > 1)
      return Out;
  }
  return std::nullopt;
}

/// C's `/` and `%` of a nonnegative value are floor division and modulo,
/// which fold the terms that are multiples of the divisor.
Expr floorForms(const Expr &E, const IntervalEnv &Env) {
  return E.mapAtoms([&](const Atom &A) -> std::optional<Expr> {
    if (A.Kind != AtomKind::TruncDiv && A.Kind != AtomKind::TruncRem)
      return std::nullopt;
    auto X = A.Ops[0].bound(Env);
    if (!X || X->Lo < Rational(0))
      return std::nullopt;
    Expr N = floorForms(A.Ops[0], Env), D = floorForms(A.Ops[1], Env);
    return A.Kind == AtomKind::TruncDiv ? Expr::floorDiv(N, D)
                                        : Expr::mod(N, D);
  });
}

/// The linear index X of a division or remainder atom, when the box's
/// variables in it are the digits of a mixed-radix number: X runs over
/// consecutive integers, each once. Returns X's range.
std::optional<Interval> linearRange(const Expr &X, const IntervalEnv &Env,
                                    std::vector<std::string> &Digits,
                                    std::string &Unit) {
  std::set<std::string> Syms;
  X.collectSymbols(Syms);
  struct Digit {
    Rational Coef, Lo, Hi;
    std::string Var;
  };
  std::vector<Digit> Ds;
  std::map<std::string, Expr> Zero;
  for (const std::string &S : Syms) {
    if (!ranged(Env, S))
      continue;
    auto Split = X.splitAffine(S);
    if (!Split)
      return std::nullopt;
    auto C = Split->first.asConstant();
    if (!C || !C->isInteger() || !(Rational(0) < *C))
      return std::nullopt;
    const Interval &I = Env.at(S);
    Ds.push_back({*C, I.Lo, I.Hi, S});
    Zero[S] = Expr(0);
  }
  auto C0 = X.substitute(Zero).bound(Env);
  if (Ds.empty() || !C0 || !C0->isPoint())
    return std::nullopt;
  llvm::sort(Ds,
             [](const Digit &A, const Digit &B) { return A.Coef < B.Coef; });
  Rational Span(1), Lo = C0->Lo, Hi = C0->Lo;
  for (const Digit &D : Ds) {
    if (D.Coef != Span)
      return std::nullopt;
    Span = Span * (D.Hi - D.Lo + Rational(1));
    Lo = Lo + D.Coef * D.Lo;
    Hi = Hi + D.Coef * D.Hi;
    Digits.push_back(D.Var);
  }
  Unit = Ds.front().Var;
  return Interval{Lo, Hi};
}

/// Renames the flat index of a `/` or `%` atom and cuts it into whole
/// periods (quotient x remainder) and the partial periods at both ends.
std::optional<Pieces> cutRadix(const OffsetBox &B, unsigned &Fresh) {
  Expr O = floorForms(B.Offset, B.Env);
  for (const Atom *A : atomsOf(O)) {
    if (A->Kind != AtomKind::FloorDiv && A->Kind != AtomKind::Mod)
      continue;
    auto DR = A->Ops[1].asConstant();
    if (!DR || !DR->isInteger() || !(Rational(0) < *DR))
      continue;
    std::vector<std::string> Digits;
    std::string Unit;
    auto XR = linearRange(A->Ops[0], B.Env, Digits, Unit);
    if (!XR)
      continue;
    // The offset must see the digits only through X: with the unit digit
    // written as L - (X - unit), no digit may remain.
    std::string Tag = std::to_string(Fresh++);
    std::string L = "#lin" + Tag;
    Expr LSym = Expr::symbol(L, SymbolKind::Iteration);
    Expr Renamed =
        O.substitute({{Unit, LSym - A->Ops[0].splitAffine(Unit)->second}});
    if (llvm::any_of(Digits,
                     [&](const std::string &V) { return Renamed.mentions(V); }))
      continue;
    OffsetBox R;
    R.Offset = Renamed;
    R.Env = B.Env;
    for (const std::string &V : B.Vars)
      if (!llvm::is_contained(Digits, V))
        R.Vars.push_back(V);
    for (const std::string &V : Digits)
      R.Env.erase(V);
    R.Vars.push_back(L);
    R.Env[L] = *XR;
    const Rational &D = *DR;
    Rational QLo = Rational::fraction((XR->Lo / D).floor(), 1),
             QHi = Rational::fraction((XR->Hi / D).floor(), 1);
    if (QLo == QHi)
      return Pieces{R};
    // Head and tail: the partial periods; between them, whole periods as
    // the product of quotient and remainder.
    Pieces Out;
    Rational First = QLo, Last = QHi;
    if (XR->Lo != QLo * D) {
      Out.push_back(
          restrict(R, L, XR->Lo, (QLo + Rational(1)) * D - Rational(1)));
      First = QLo + Rational(1);
    }
    if (XR->Hi != (QHi + Rational(1)) * D - Rational(1)) {
      Out.push_back(restrict(R, L, QHi * D, XR->Hi));
      Last = QHi - Rational(1);
    }
    if (First <= Last) {
      std::string Q = "#quo" + Tag, M = "#rem" + Tag;
      OffsetBox W = R;
      W.Offset = R.Offset.substitute(
          {{L, Expr::constant(D) * Expr::symbol(Q, SymbolKind::Iteration) +
                   Expr::symbol(M, SymbolKind::Iteration)}});
      W.Env.erase(L);
      W.Vars.pop_back();
      W.Vars.push_back(Q);
      W.Vars.push_back(M);
      W.Env[Q] = Interval{First, Last};
      W.Env[M] = Interval{Rational(0), D - Rational(1)};
      Out.push_back(std::move(W));
    }
    return Out;
  }
  return std::nullopt;
}

/// A piece of a box as a change to the box: its offset (frozen over it),
/// the variables it takes out of the box and those it sets or adds.
struct PieceDelta {
  Expr Offset;
  std::vector<std::string> Erased;
  std::vector<std::pair<std::string, Interval>> Set;
  std::vector<std::string> Added; ///< Appended to the box's Vars.
};

PieceDelta deltaOf(const OffsetBox &B, OffsetBox P) {
  PieceDelta D;
  D.Offset = P.Offset.freeze(P.Env);
  for (const auto &[V, I] : B.Env)
    if (!P.Env.count(V))
      D.Erased.push_back(V);
  for (const auto &[V, I] : P.Env) {
    auto It = B.Env.find(V);
    if (It == B.Env.end() || It->second.Lo != I.Lo || It->second.Hi != I.Hi)
      D.Set.emplace_back(V, I);
  }
  for (const std::string &V : P.Vars)
    if (!llvm::is_contained(B.Vars, V))
      D.Added.push_back(V);
  return D;
}

OffsetBox applyDelta(const OffsetBox &B, const PieceDelta &D) {
  OffsetBox P;
  P.Offset = D.Offset;
  P.Env = B.Env;
  for (const std::string &V : D.Erased)
    P.Env.erase(V);
  for (const auto &[V, I] : D.Set)
    P.Env[V] = I;
  for (const std::string &V : B.Vars)
    if (P.Env.count(V))
      P.Vars.push_back(V);
  llvm::append_range(P.Vars, D.Added);
  return P;
}

/// The box's offset and the ranges of the symbols inside its atoms: all
/// that cutSelect and cutRadix look at, and all that freezing the pieces'
/// offsets depends on.
std::string cutKey(const OffsetBox &B) {
  std::set<std::string> Syms;
  for (const Atom *A : atomsOf(B.Offset))
    for (const Expr &Op : A->Ops)
      Op.collectSymbols(Syms);
  std::string Key = B.Offset.str();
  for (const std::string &S : Syms) {
    auto It = B.Env.find(S);
    Key += '|';
    Key += S;
    Key += It == B.Env.end() ? std::string("?")
                             : It->second.Lo.str() + ":" + It->second.Hi.str();
  }
  for (const std::string &V : B.Vars)
    if (Syms.count(V))
      Key += "|v" + V;
  return Key;
}

/// One cut of B, or nullopt where neither idiom applies. The cache model
/// cuts the same offset over the same threads once per wave and per range
/// of the loops the walker splits: the cut is made once and replayed.
/// Fresh names come from one counter that never restarts, so a replayed
/// piece's variables never meet those of another cut in the same box.
std::optional<Pieces> cutOnce(const OffsetBox &B) {
  static thread_local std::map<std::string,
                               std::optional<std::vector<PieceDelta>>>
      Cache;
  static thread_local unsigned Fresh = 0;
  std::string Key = cutKey(B);
  auto It = Cache.find(Key);
  if (It == Cache.end()) {
    auto Parts = cutSelect(B);
    if (!Parts)
      Parts = cutRadix(B, Fresh);
    std::optional<std::vector<PieceDelta>> Deltas;
    if (Parts) {
      Deltas.emplace();
      for (OffsetBox &P : *Parts)
        Deltas->push_back(deltaOf(B, std::move(P)));
    }
    if (Cache.size() >= 4096)
      Cache.clear();
    It = Cache.emplace(std::move(Key), std::move(Deltas)).first;
  }
  if (!It->second)
    return std::nullopt;
  Pieces Out;
  for (const PieceDelta &D : *It->second)
    Out.push_back(applyDelta(B, D));
  return Out;
}

struct Cutter {
  const PieceLeaf &Leaf;
  unsigned Left;

  bool cut(const OffsetBox &B, unsigned Depth) {
    if (Depth >= 8)
      return false;
    auto Parts = cutOnce(B);
    if (!Parts)
      return false;
    for (OffsetBox &P : *Parts) {
      if (Left == 0)
        return false;
      --Left;
      if (auto R = Leaf(P)) {
        if (!*R)
          return false;
        continue;
      }
      if (!cut(P, Depth + 1))
        return false;
    }
    return true;
  }
};

} // namespace

bool roofline::forEachAffinePiece(OffsetBox Box, const PieceLeaf &Leaf,
                                  unsigned MaxPieces) {
  if (auto R = Leaf(Box))
    return *R;
  Cutter C{Leaf, MaxPieces};
  return C.cut(Box, 0);
}
