//===- Expr.cpp -----------------------------------------------------------===//

#include "Expr.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>

using namespace roofline;

namespace {

unsigned degreeOf(const Expr::Monomial &M) {
  unsigned D = 0;
  for (const auto &P : M)
    D += P.second;
  return D;
}

std::string monoKey(const Expr::Monomial &M) {
  std::string S;
  for (const auto &P : M) {
    S += P.first->Key;
    if (P.second > 1)
      S += "^" + std::to_string(P.second);
    S += "*";
  }
  return S;
}

// Higher degree first, then by the names, so `2*K + 3` and `K*N + 4*K`.
bool monoLess(const Expr::Monomial &A, const Expr::Monomial &B) {
  unsigned DA = degreeOf(A), DB = degreeOf(B);
  if (DA != DB)
    return DA > DB;
  return monoKey(A) < monoKey(B);
}

Expr::Monomial monoMul(const Expr::Monomial &A, const Expr::Monomial &B) {
  std::map<std::string, std::pair<AtomRef, unsigned>> Acc;
  for (const auto &P : A)
    Acc[P.first->Key] = P;
  for (const auto &P : B) {
    auto It = Acc.find(P.first->Key);
    if (It == Acc.end())
      Acc[P.first->Key] = P;
    else
      It->second.second += P.second;
  }
  Expr::Monomial R;
  for (auto &KV : Acc)
    R.push_back(KV.second);
  return R;
}

/// The smallest interval containing the four corner values of a binary
/// operation that is monotone in each operand.
Interval corners(const Interval &A, const Interval &B,
                 Rational (*Op)(const Rational &, const Rational &)) {
  Rational C[4] = {Op(A.Lo, B.Lo), Op(A.Lo, B.Hi), Op(A.Hi, B.Lo),
                   Op(A.Hi, B.Hi)};
  Interval R{C[0], C[0]};
  for (const Rational &V : C) {
    if (V < R.Lo)
      R.Lo = V;
    if (R.Hi < V)
      R.Hi = V;
  }
  return R;
}

Rational mulR(const Rational &A, const Rational &B) { return A * B; }

Interval mulI(const Interval &A, const Interval &B) {
  return corners(A, B, mulR);
}

Interval powI(const Interval &A, unsigned P) {
  Interval R{Rational(1), Rational(1)};
  for (unsigned I = 0; I < P; ++I)
    R = mulI(R, A);
  // Even powers of a range spanning zero reach zero.
  if (P % 2 == 0 && A.Lo < Rational(0) && Rational(0) < A.Hi)
    R.Lo = Rational(0);
  return R;
}

Rational floorDivR(const Rational &A, const Rational &B) {
  return Rational::fraction((A / B).floor(), 1);
}

bool hasOverflow(const Interval &I) {
  return I.Lo.overflowed() || I.Hi.overflowed();
}

} // namespace

Expr::Expr(int64_t C) {
  if (C != 0)
    Terms.push_back({Rational(C), {}});
}

Expr Expr::constant(Rational C) {
  Expr E;
  if (!C.isZero())
    E.Terms.push_back({C, {}});
  return E;
}

Expr Expr::fromAtom(AtomRef A) {
  Expr E;
  E.Terms.push_back({Rational(1), {{A, 1}}});
  return E;
}

Expr Expr::symbol(const std::string &Name, SymbolKind Kind) {
  auto A = std::make_shared<Atom>();
  A->Kind = AtomKind::Symbol;
  A->Name = Name;
  A->SymKind = Kind;
  A->Key = Name;
  A->Display = Name;
  return fromAtom(A);
}

static bool needsParens(const Expr &E) { return E.terms().size() > 1; }

static std::string wrap(const Expr &E) {
  return needsParens(E) ? "(" + E.str() + ")" : E.str();
}

// A divisor that is a product or itself a quotient needs parentheses too:
// n/(a*b), x/(a/b).
static std::string wrapDivisor(const Expr &E) {
  if (E.terms().size() == 1) {
    const Expr::Term &T = E.terms()[0];
    unsigned Factors = T.Mono.size() + (T.Coef == Rational(1) ? 0 : 1);
    bool Powers = !T.Mono.empty() && T.Mono[0].second > 1;
    bool Compound = !T.Mono.empty() &&
                    T.Mono[0].first->Kind != AtomKind::Symbol &&
                    T.Mono[0].first->Kind != AtomKind::Max &&
                    T.Mono[0].first->Kind != AtomKind::Min &&
                    T.Mono[0].first->Kind != AtomKind::SelectNonNeg &&
                    T.Mono[0].first->Kind != AtomKind::SelectZero;
    if (Factors <= 1 && !Powers && !Compound && !(T.Coef < Rational(0)))
      return E.str();
  }
  return "(" + E.str() + ")";
}

static Expr divAtom(AtomKind K, const Expr &A, const Expr &B) {
  auto At = std::make_shared<Atom>();
  At->Kind = K;
  At->Ops = {A, B};
  bool IsRem = K == AtomKind::Mod || K == AtomKind::TruncRem;
  At->Display = wrap(A) + (IsRem ? " % " : "/") + wrapDivisor(B);
  const char *Tag = K == AtomKind::FloorDiv   ? "floor"
                    : K == AtomKind::Mod      ? "mod"
                    : K == AtomKind::TruncDiv ? "tdiv"
                                              : "trem";
  At->Key = std::string(Tag) + "(" + A.str() + ", " + B.str() + ")";
  return Expr::fromAtom(At);
}

static Rational truncDivR(const Rational &A, const Rational &B) {
  Rational Q = A / B;
  return Rational::fraction(Q < Rational(0) ? Q.ceil() : Q.floor(), 1);
}

Expr Expr::truncDiv(const Expr &A, const Expr &B) {
  auto CA = A.asConstant(), CB = B.asConstant();
  if (CB && *CB == Rational(1))
    return A;
  if (CA && CB && !CB->isZero())
    return constant(truncDivR(*CA, *CB));
  // An exact division is the same under every rounding (a partly exact
  // one is not: floor and trunc differ on the rest's sign).
  if (CB && CB->isInteger() && !CB->isZero() && !A.Terms.empty() &&
      llvm::all_of(A.Terms,
                   [&](const Term &T) { return (T.Coef / *CB).isInteger(); }))
    return floorDiv(A, B);
  return divAtom(AtomKind::TruncDiv, A, B);
}

Expr Expr::truncRem(const Expr &A, const Expr &B) {
  auto CA = A.asConstant(), CB = B.asConstant();
  if (CA && CB && !CB->isZero())
    return constant(*CA - *CB * truncDivR(*CA, *CB));
  return divAtom(AtomKind::TruncRem, A, B);
}

Expr Expr::floorDiv(const Expr &A, const Expr &B) {
  auto CA = A.asConstant(), CB = B.asConstant();
  if (CB && *CB == Rational(1))
    return A;
  if (CA && CB && !CB->isZero())
    return constant(floorDivR(*CA, *CB));
  // (c*X)/c with integral X folds exactly.
  if (CB && CB->isInteger() && !CB->isZero()) {
    bool AllDivisible = !A.Terms.empty();
    for (const Term &T : A.Terms) {
      Rational Q = T.Coef / *CB;
      if (!Q.isInteger())
        AllDivisible = false;
    }
    if (AllDivisible && *CB > Rational(0)) {
      Expr R;
      for (const Term &T : A.Terms)
        R.Terms.push_back({T.Coef / *CB, T.Mono});
      R.normalize();
      return R;
    }
    // floor((c*X + R)/c) = X + floor(R/c) for integral X: the divisible
    // terms leave the atom, so (256*blockIdx.x + threadIdx.x)/32 is affine
    // in blockIdx.x and footprints need not split the grid block by block.
    if (*CB > Rational(0)) {
      Expr Q, Rest;
      for (const Term &T : A.Terms)
        ((T.Coef / *CB).isInteger() ? Q : Rest).Terms.push_back(T);
      if (!Q.Terms.empty() && !Rest.Terms.empty()) {
        for (Term &T : Q.Terms)
          T.Coef = T.Coef / *CB;
        Q.normalize();
        Rest.normalize();
        return Q + floorDiv(Rest, B);
      }
    }
  }
  return divAtom(AtomKind::FloorDiv, A, B);
}

Expr Expr::ceilDiv(const Expr &A, const Expr &B) {
  return floorDiv(A + B - Expr(1), B);
}

Expr Expr::mod(const Expr &A, const Expr &B) {
  auto CA = A.asConstant(), CB = B.asConstant();
  if (CA && CB && !CB->isZero())
    return constant(*CA - *CB * floorDivR(*CA, *CB));
  // Every atom is an integer, so a term whose coefficient is a multiple of
  // the divisor is too: (c*X + R) mod c is R mod c.
  if (CB && CB->isInteger() && Rational(0) < *CB) {
    Expr Rest;
    for (const Term &T : A.Terms)
      if (!(T.Coef / *CB).isInteger())
        Rest.Terms.push_back(T);
    if (Rest.Terms.size() < A.Terms.size()) {
      Rest.normalize();
      return mod(Rest, B);
    }
  }
  return divAtom(AtomKind::Mod, A, B);
}

static Expr minMax(AtomKind K, const Expr &A, const Expr &B) {
  auto CA = A.asConstant(), CB = B.asConstant();
  if (CA && CB)
    return Expr::constant(K == AtomKind::Max ? (*CA < *CB ? *CB : *CA)
                                             : (*CA < *CB ? *CA : *CB));
  if (A == B)
    return A;
  // A constant difference decides min/max symbolically.
  if (auto D = (A - B).asConstant()) {
    bool AGreater = Rational(0) < *D;
    return (K == AtomKind::Max) == AGreater ? A : B;
  }
  auto At = std::make_shared<Atom>();
  At->Kind = K;
  // Order operands canonically so max(a,b) == max(b,a).
  if (A.str() < B.str())
    At->Ops = {A, B};
  else
    At->Ops = {B, A};
  At->Key = std::string(K == AtomKind::Max ? "max(" : "min(") +
            At->Ops[0].str() + ", " + At->Ops[1].str() + ")";
  At->Display = At->Key;
  return Expr::fromAtom(At);
}

// Every comparison becomes D >= 0 or D == 0 on integers: L < R is
// R - L - 1 >= 0, L != R swaps the arms of L == R.
Expr Expr::select(CmpKind Pred, const Expr &L, const Expr &R, const Expr &T,
                  const Expr &F) {
  if (T == F)
    return T;
  AtomKind K = AtomKind::SelectNonNeg;
  Expr D, Then = T, Else = F;
  switch (Pred) {
  case CmpKind::GE:
    D = L - R;
    break;
  case CmpKind::GT:
    D = L - R - Expr(1);
    break;
  case CmpKind::LE:
    D = R - L;
    break;
  case CmpKind::LT:
    D = R - L - Expr(1);
    break;
  case CmpKind::NE:
    std::swap(Then, Else);
    [[fallthrough]];
  case CmpKind::EQ:
    K = AtomKind::SelectZero;
    D = L - R;
    break;
  }
  if (auto C = D.asConstant()) {
    bool Holds = K == AtomKind::SelectZero ? C->isZero() : !(*C < Rational(0));
    return Holds ? Then : Else;
  }
  auto At = std::make_shared<Atom>();
  At->Kind = K;
  At->Ops = {D, Then, Else};
  const char *Test = K == AtomKind::SelectZero ? " == 0 ? " : " >= 0 ? ";
  At->Key = std::string(K == AtomKind::SelectZero ? "selz(" : "seln(") +
            D.str() + ", " + Then.str() + ", " + Else.str() + ")";
  At->Display = "(" + D.str() + Test + Then.str() + " : " + Else.str() + ")";
  return Expr::fromAtom(At);
}

Expr Expr::bitAnd(const Expr &A, const Expr &B) {
  auto CA = A.asConstant(), CB = B.asConstant();
  if (CA && CB && CA->toInt64() && CB->toInt64())
    return Expr(*CA->toInt64() & *CB->toInt64());
  auto At = std::make_shared<Atom>();
  At->Kind = AtomKind::BitAnd;
  if (A.str() < B.str())
    At->Ops = {A, B};
  else
    At->Ops = {B, A};
  At->Key = "and(" + At->Ops[0].str() + ", " + At->Ops[1].str() + ")";
  At->Display = "(" + wrap(At->Ops[0]) + " & " + wrap(At->Ops[1]) + ")";
  return Expr::fromAtom(At);
}

Expr Expr::max(const Expr &A, const Expr &B) {
  return minMax(AtomKind::Max, A, B);
}
Expr Expr::min(const Expr &A, const Expr &B) {
  return minMax(AtomKind::Min, A, B);
}

void Expr::normalize() {
  std::map<std::string, Term> Acc;
  for (Term &T : Terms) {
    std::string K = monoKey(T.Mono);
    auto It = Acc.find(K);
    if (It == Acc.end())
      Acc.emplace(K, T);
    else
      It->second.Coef = It->second.Coef + T.Coef;
  }
  Terms.clear();
  for (auto &KV : Acc)
    if (!KV.second.Coef.isZero() || KV.second.Coef.overflowed())
      Terms.push_back(KV.second);
  std::stable_sort(
      Terms.begin(), Terms.end(),
      [](const Term &A, const Term &B) { return monoLess(A.Mono, B.Mono); });
}

Expr Expr::operator+(const Expr &O) const {
  Expr R = *this;
  R.Terms.insert(R.Terms.end(), O.Terms.begin(), O.Terms.end());
  R.normalize();
  return R;
}

Expr Expr::operator-() const {
  Expr R = *this;
  for (Term &T : R.Terms)
    T.Coef = -T.Coef;
  return R;
}

Expr Expr::operator-(const Expr &O) const { return *this + (-O); }

Expr Expr::operator*(const Expr &O) const {
  Expr R;
  for (const Term &A : Terms)
    for (const Term &B : O.Terms)
      R.Terms.push_back({A.Coef * B.Coef, monoMul(A.Mono, B.Mono)});
  R.normalize();
  return R;
}

std::optional<Rational> Expr::asConstant() const {
  if (Terms.empty())
    return Rational(0);
  if (Terms.size() == 1 && Terms[0].Mono.empty())
    return Terms[0].Coef;
  return std::nullopt;
}

void Expr::collectSymbols(std::set<std::string> &Out) const {
  for (const Term &T : Terms)
    for (const auto &P : T.Mono) {
      if (P.first->Kind == AtomKind::Symbol)
        Out.insert(P.first->Name);
      for (const Expr &Op : P.first->Ops)
        Op.collectSymbols(Out);
    }
}

bool Expr::mentions(const std::string &Name) const {
  std::set<std::string> S;
  collectSymbols(S);
  return S.count(Name) != 0;
}

static bool atomMentionsKind(const Atom &A, SymbolKind K) {
  if (A.Kind == AtomKind::Symbol)
    return A.SymKind == K;
  for (const Expr &Op : A.Ops)
    if (Op.mentionsKind(K))
      return true;
  return false;
}

bool Expr::mentionsKind(SymbolKind K) const {
  for (const Term &T : Terms)
    for (const auto &P : T.Mono)
      if (atomMentionsKind(*P.first, K))
        return true;
  return false;
}

static Expr rebuildAtom(const Atom &A, const std::vector<Expr> &Ops) {
  switch (A.Kind) {
  case AtomKind::FloorDiv:
    return Expr::floorDiv(Ops[0], Ops[1]);
  case AtomKind::Mod:
    return Expr::mod(Ops[0], Ops[1]);
  case AtomKind::TruncDiv:
    return Expr::truncDiv(Ops[0], Ops[1]);
  case AtomKind::TruncRem:
    return Expr::truncRem(Ops[0], Ops[1]);
  case AtomKind::Max:
    return Expr::max(Ops[0], Ops[1]);
  case AtomKind::Min:
    return Expr::min(Ops[0], Ops[1]);
  case AtomKind::BitAnd:
    return Expr::bitAnd(Ops[0], Ops[1]);
  case AtomKind::SelectNonNeg:
    return Expr::select(CmpKind::GE, Ops[0], Expr(0), Ops[1], Ops[2]);
  case AtomKind::SelectZero:
    return Expr::select(CmpKind::EQ, Ops[0], Expr(0), Ops[1], Ops[2]);
  case AtomKind::Symbol:
    break;
  }
  assert(false && "symbols are not rebuilt");
  return Expr();
}

Expr Expr::mapAtoms(
    const std::function<std::optional<Expr>(const Atom &)> &F) const {
  Expr R;
  for (const Term &T : Terms) {
    Expr Prod = constant(T.Coef);
    for (const auto &P : T.Mono) {
      std::optional<Expr> Base = F(*P.first);
      if (!Base) {
        if (P.first->Kind == AtomKind::Symbol) {
          Base = fromAtom(P.first);
        } else {
          std::vector<Expr> Ops;
          for (const Expr &Op : P.first->Ops)
            Ops.push_back(Op.mapAtoms(F));
          Base = rebuildAtom(*P.first, Ops);
        }
      }
      for (unsigned I = 0; I < P.second; ++I)
        Prod = Prod * *Base;
    }
    R = R + Prod;
  }
  return R;
}

Expr Expr::substitute(const std::map<std::string, Expr> &Map) const {
  return mapAtoms([&](const Atom &A) -> std::optional<Expr> {
    if (A.Kind != AtomKind::Symbol)
      return std::nullopt;
    auto It = Map.find(A.Name);
    return It == Map.end() ? std::nullopt : std::optional<Expr>(It->second);
  });
}

/// `x & y`: exact at points; a nonnegative operand bounds the result.
static std::optional<Interval> boundBitAnd(const Interval &X,
                                           const Interval &Y) {
  if (X.isPoint() && Y.isPoint()) {
    auto A = X.Lo.toInt64(), B = Y.Lo.toInt64();
    if (!A || !B || !X.Lo.isInteger() || !Y.Lo.isInteger())
      return std::nullopt;
    Rational V(*A & *B);
    return Interval{V, V};
  }
  bool XNonNeg = !(X.Lo < Rational(0)), YNonNeg = !(Y.Lo < Rational(0));
  if (XNonNeg && YNonNeg)
    return Interval{Rational(0), X.Hi < Y.Hi ? X.Hi : Y.Hi};
  if (XNonNeg || YNonNeg)
    return Interval{Rational(0), XNonNeg ? X.Hi : Y.Hi};
  return std::nullopt;
}

static bool isSelect(const Atom &A) {
  return A.Kind == AtomKind::SelectNonNeg || A.Kind == AtomKind::SelectZero;
}

/// The arm a select takes everywhere over Env (0 for T, 1 for F), or
/// nullopt where its condition is mixed or unbounded.
static std::optional<unsigned> selectArm(const Atom &A,
                                         const IntervalEnv &Env) {
  auto D = A.Ops[0].bound(Env);
  if (!D)
    return std::nullopt;
  Rational Zero(0);
  if (A.Kind == AtomKind::SelectZero) {
    if (D->isPoint() && D->Lo.isZero())
      return 0u;
    if (Zero < D->Lo || D->Hi < Zero)
      return 1u;
    return std::nullopt;
  }
  if (!(D->Lo < Zero))
    return 0u;
  if (D->Hi < Zero)
    return 1u;
  return std::nullopt;
}

static std::optional<Interval> boundAtom(const Atom &A,
                                         const IntervalEnv &Env) {
  if (A.Kind == AtomKind::Symbol) {
    auto It = Env.find(A.Name);
    if (It == Env.end())
      return std::nullopt;
    return It->second;
  }
  if (isSelect(A)) {
    if (auto Arm = selectArm(A, Env))
      return A.Ops[1 + *Arm].bound(Env);
    auto T = A.Ops[1].bound(Env), F = A.Ops[2].bound(Env);
    if (!T || !F)
      return std::nullopt;
    return Interval{T->Lo < F->Lo ? T->Lo : F->Lo,
                    T->Hi < F->Hi ? F->Hi : T->Hi};
  }
  auto X = A.Ops[0].bound(Env);
  auto Y = A.Ops[1].bound(Env);
  if (!X || !Y)
    return std::nullopt;
  switch (A.Kind) {
  case AtomKind::Max:
    return Interval{X->Lo < Y->Lo ? Y->Lo : X->Lo,
                    X->Hi < Y->Hi ? Y->Hi : X->Hi};
  case AtomKind::Min:
    return Interval{X->Lo < Y->Lo ? X->Lo : Y->Lo,
                    X->Hi < Y->Hi ? X->Hi : Y->Hi};
  case AtomKind::FloorDiv: {
    // Only positive divisors are modelled (sizes, strides, tile widths).
    if (Y->Lo <= Rational(0))
      return std::nullopt;
    return corners(*X, *Y, floorDivR);
  }
  case AtomKind::Mod: {
    if (Y->Lo <= Rational(0))
      return std::nullopt;
    if (X->isPoint() && Y->isPoint())
      return Interval{X->Lo - Y->Lo * floorDivR(X->Lo, Y->Lo),
                      X->Lo - Y->Lo * floorDivR(X->Lo, Y->Lo)};
    // Within one period the remainder is monotone.
    if (Y->isPoint() && Rational(0) <= X->Lo &&
        floorDivR(X->Lo, Y->Lo) == floorDivR(X->Hi, Y->Lo)) {
      Rational Base = Y->Lo * floorDivR(X->Lo, Y->Lo);
      return Interval{X->Lo - Base, X->Hi - Base};
    }
    return Interval{Rational(0), Y->Hi - Rational(1)};
  }
  case AtomKind::TruncDiv: {
    if (Y->Lo <= Rational(0))
      return std::nullopt;
    // Monotone in each operand on each side of zero: corners, and zero
    // when the dividend spans it.
    Interval R = corners(*X, *Y, truncDivR);
    if (X->Lo < Rational(0) && Rational(0) < X->Hi) {
      if (Rational(0) < R.Lo)
        R.Lo = Rational(0);
      if (R.Hi < Rational(0))
        R.Hi = Rational(0);
    }
    return R;
  }
  case AtomKind::TruncRem: {
    if (Y->Lo <= Rational(0))
      return std::nullopt;
    if (X->isPoint() && Y->isPoint()) {
      Rational V = X->Lo - Y->Lo * truncDivR(X->Lo, Y->Lo);
      return Interval{V, V};
    }
    if (Rational(0) <= X->Lo)
      return boundAtom(
          Atom{AtomKind::Mod, "", SymbolKind::Param, A.Ops, "", ""}, Env);
    return Interval{Rational(1) - Y->Hi, Y->Hi - Rational(1)};
  }
  case AtomKind::BitAnd:
    return boundBitAnd(*X, *Y);
  case AtomKind::Symbol:
  case AtomKind::SelectNonNeg:
  case AtomKind::SelectZero:
    break;
  }
  return std::nullopt;
}

std::optional<Interval> Expr::bound(const IntervalEnv &Env) const {
  Interval R{Rational(0), Rational(0)};
  for (const Term &T : Terms) {
    Interval M{T.Coef, T.Coef};
    for (const auto &P : T.Mono) {
      auto B = boundAtom(*P.first, Env);
      if (!B)
        return std::nullopt;
      M = mulI(M, powI(*B, P.second));
    }
    R.Lo = R.Lo + M.Lo;
    R.Hi = R.Hi + M.Hi;
  }
  if (hasOverflow(R))
    return std::nullopt;
  return R;
}

std::optional<Rational> Expr::evaluate(const IntervalEnv &Env) const {
  auto B = bound(Env);
  if (!B || !B->isPoint())
    return std::nullopt;
  return B->Lo;
}

std::optional<unsigned> Expr::polyDegree(const std::string &Var) const {
  unsigned Deg = 0;
  for (const Term &T : Terms)
    for (const auto &P : T.Mono) {
      if (P.first->Kind == AtomKind::Symbol) {
        if (P.first->Name == Var)
          Deg = std::max(Deg, P.second);
        continue;
      }
      for (const Expr &Op : P.first->Ops)
        if (Op.mentions(Var))
          return std::nullopt;
    }
  return Deg;
}

std::optional<std::pair<Expr, Expr>>
Expr::splitAffine(const std::string &Var) const {
  auto D = polyDegree(Var);
  if (!D || *D > 1)
    return std::nullopt;
  Expr Coef, Rest;
  for (const Term &T : Terms) {
    Term Stripped{T.Coef, {}};
    bool Has = false;
    for (const auto &P : T.Mono) {
      if (P.first->Kind == AtomKind::Symbol && P.first->Name == Var)
        Has = true;
      else
        Stripped.Mono.push_back(P);
    }
    Expr Part;
    Part.Terms.push_back(Stripped);
    Part.normalize();
    if (Has)
      Coef = Coef + Part;
    else
      Rest = Rest + Part;
  }
  return std::make_pair(Coef, Rest);
}

// Sum_{v=0}^{T-1} v^P as a polynomial in T (Faulhaber).
static Expr powerSum(unsigned P, const Expr &T) {
  Expr One(1);
  Expr TM1 = T - One;
  switch (P) {
  case 0:
    return T;
  case 1:
    return Expr::constant(Rational::fraction(1, 2)) * T * TM1;
  case 2:
    return Expr::constant(Rational::fraction(1, 6)) * TM1 * T *
           (Expr(2) * T - One);
  case 3: {
    Expr S1 = Expr::constant(Rational::fraction(1, 2)) * T * TM1;
    return S1 * S1;
  }
  case 4:
    return Expr::constant(Rational::fraction(1, 30)) * T * TM1 *
           (Expr(2) * T - One) * (Expr(3) * T * T - Expr(3) * T - One);
  default:
    break;
  }
  assert(false && "power sum degree out of range");
  return Expr();
}

std::optional<Expr> Expr::sum(const std::string &Var, const Expr &Lo,
                              const Expr &Hi) const {
  auto D = polyDegree(Var);
  if (!D || *D > 4)
    return std::nullopt;
  // Group terms by the power of Var: body = sum_p C_p * Var^p.
  std::vector<Expr> ByPower(*D + 1);
  for (const Term &T : Terms) {
    unsigned Pow = 0;
    Term Stripped{T.Coef, {}};
    for (const auto &P : T.Mono) {
      if (P.first->Kind == AtomKind::Symbol && P.first->Name == Var)
        Pow = P.second;
      else
        Stripped.Mono.push_back(P);
    }
    Expr Part;
    Part.Terms.push_back(Stripped);
    Part.normalize();
    ByPower[Pow] = ByPower[Pow] + Part;
  }
  Expr R;
  bool LoIsZero = Lo.isZero();
  for (unsigned P = 0; P <= *D; ++P) {
    if (ByPower[P].isZero())
      continue;
    Expr S = powerSum(P, Hi);
    if (!LoIsZero)
      S = S - powerSum(P, Lo);
    R = R + ByPower[P] * S;
  }
  return R;
}

static std::string coefText(const Rational &C) {
  return int128ToString(C.num() < 0 ? -C.num() : C.num());
}

std::string Expr::str() const {
  if (Terms.empty())
    return "0";
  // Print fractional polynomials over a common denominator: (n^2 - n)/2.
  Int128 Den = 1;
  for (const Term &T : Terms) {
    Int128 A = Den, B = T.Coef.den();
    while (B != 0) {
      Int128 X = A % B;
      A = B;
      B = X;
    }
    Den = Den / A * T.Coef.den();
  }
  std::string S;
  bool First = true;
  for (const Term &T : Terms) {
    Rational C = T.Coef * Rational::fraction(Den, 1);
    bool Neg = C.num() < 0;
    if (First)
      S += Neg ? "-" : "";
    else
      S += Neg ? " - " : " + ";
    First = false;
    std::string Mono;
    for (const auto &P : T.Mono) {
      if (!Mono.empty())
        Mono += "*";
      const Atom &A = *P.first;
      bool Division = A.Kind != AtomKind::Symbol && A.Kind != AtomKind::Max &&
                      A.Kind != AtomKind::Min && A.Kind != AtomKind::BitAnd &&
                      !isSelect(A);
      // 4*(K/16) is not 4*K/16: a quotient inside a product is wrapped.
      bool Alone = T.Mono.size() == 1 && P.second == 1 &&
                   (C.num() == 1 || C.num() == -1);
      bool Rem = A.Kind == AtomKind::Mod || A.Kind == AtomKind::TruncRem;
      Mono += Division && (!Alone || Rem) ? "(" + A.Display + ")" : A.Display;
      if (P.second > 1)
        Mono += "^" + std::to_string(P.second);
    }
    bool UnitCoef = C.num() == 1 || C.num() == -1;
    if (Mono.empty())
      S += coefText(C);
    else if (UnitCoef)
      S += Mono;
    else
      S += coefText(C) + "*" + Mono;
  }
  if (Den != 1)
    S = (Terms.size() > 1 ? "(" + S + ")" : S) + "/" + int128ToString(Den);
  return S;
}

// x & m for a constant m and 0 <= x < 2^k keeps the low k bits of m only;
// when those are 2^j - 1, it is x % 2^j (the divisor of a modulo guard).
static std::optional<Expr> lowMask(const Atom &A, const IntervalEnv &Env) {
  for (unsigned I = 0; I < 2; ++I) {
    auto MB = A.Ops[1 - I].bound(Env);
    auto X = A.Ops[I].bound(Env);
    if (!MB || !MB->isPoint() || !X || X->Lo < Rational(0))
      continue;
    auto M = MB->Lo.toInt64();
    if (!M || !MB->Lo.isInteger() || !X->Hi.toInt64())
      continue;
    uint64_t Span = 1;
    while (Span <= uint64_t(*X->Hi.toInt64()) && Span < (uint64_t(1) << 62))
      Span <<= 1;
    uint64_t Low = uint64_t(*M) & (Span - 1);
    if ((Low & (Low + 1)) != 0)
      continue;
    return Expr::mod(A.Ops[I].freeze(Env), Expr(int64_t(Low + 1)));
  }
  return std::nullopt;
}

Expr Expr::freeze(const IntervalEnv &Env) const {
  return mapAtoms([&](const Atom &A) -> std::optional<Expr> {
    if (A.Kind == AtomKind::Symbol)
      return std::nullopt;
    auto B = boundAtom(A, Env);
    if (B && B->isPoint())
      return constant(B->Lo);
    // A select decided over the box is its arm (a border clamp away from
    // the border is the index itself).
    if (isSelect(A))
      if (auto Arm = selectArm(A, Env))
        return A.Ops[1 + *Arm].freeze(Env);
    if (A.Kind == AtomKind::BitAnd)
      if (auto M = lowMask(A, Env))
        return *M;
    if (A.Kind == AtomKind::Max || A.Kind == AtomKind::Min)
      if (auto D = (A.Ops[0] - A.Ops[1]).bound(Env)) {
        bool FirstGreater = !(D->Lo < Rational(0));
        if (FirstGreater || !(Rational(0) < D->Hi))
          return A.Ops[FirstGreater == (A.Kind == AtomKind::Max) ? 0 : 1]
              .freeze(Env);
      }
    // Within one period a remainder is affine in its operand (tid % 64 over
    // threads 64..127 is tid - 64), which keeps footprints of tiles whose
    // thread layout is split by / and % in closed form.
    if (A.Kind == AtomKind::Mod ||
        (A.Kind == AtomKind::TruncRem && A.Ops[0].bound(Env) &&
         Rational(0) <= A.Ops[0].bound(Env)->Lo)) {
      auto D = A.Ops[1].asConstant();
      if (!D || *D <= Rational(0))
        return std::nullopt;
      auto Q = floorDiv(A.Ops[0], A.Ops[1]).bound(Env);
      if (Q && Q->isPoint()) {
        Expr X = A.Ops[0].freeze(Env);
        return X - constant(*D * Q->Lo);
      }
    }
    return std::nullopt;
  });
}
