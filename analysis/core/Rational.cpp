//===- Rational.cpp -------------------------------------------------------===//

#include "Rational.h"

#include <cstdlib>

using namespace roofline;

static Int128 absI(Int128 V) { return V < 0 ? -V : V; }

static Int128 gcdI(Int128 A, Int128 B) {
  A = absI(A);
  B = absI(B);
  while (B != 0) {
    Int128 T = A % B;
    A = B;
    B = T;
  }
  return A;
}

// Values beyond this are treated as overflow: it leaves headroom so that a
// product of two in-range values still fits in 128 bits before the check.
static constexpr Int128 Limit = Int128(1) << 62;

Rational::Rational(int64_t V) : Num(V), Overflow(absI(V) > Limit) {}

Rational Rational::fraction(Int128 N, Int128 D) {
  Rational R;
  if (D == 0) {
    R.Overflow = true;
    return R;
  }
  if (D < 0) {
    N = -N;
    D = -D;
  }
  Int128 G = gcdI(N, D);
  if (G > 1) {
    N /= G;
    D /= G;
  }
  R.Num = N;
  R.Den = D;
  R.Overflow = absI(N) > Limit || D > Limit;
  return R;
}

Rational Rational::operator+(const Rational &O) const {
  Rational R = fraction(Num * O.Den + O.Num * Den, Den * O.Den);
  R.Overflow |= Overflow || O.Overflow;
  return R;
}

Rational Rational::operator-(const Rational &O) const { return *this + (-O); }

Rational Rational::operator-() const {
  Rational R = *this;
  R.Num = -Num;
  return R;
}

Rational Rational::operator*(const Rational &O) const {
  // Cross-reduce first so that exact results stay in range.
  Int128 G1 = gcdI(Num, O.Den), G2 = gcdI(O.Num, Den);
  if (G1 == 0)
    G1 = 1;
  if (G2 == 0)
    G2 = 1;
  Rational R = fraction((Num / G1) * (O.Num / G2), (Den / G2) * (O.Den / G1));
  R.Overflow |= Overflow || O.Overflow;
  return R;
}

Rational Rational::operator/(const Rational &O) const {
  if (O.Num == 0) {
    Rational R;
    R.Overflow = true;
    return R;
  }
  return *this * fraction(O.Den, O.Num);
}

bool Rational::operator<(const Rational &O) const {
  return Num * O.Den < O.Num * Den;
}

Int128 Rational::floor() const {
  Int128 Q = Num / Den;
  if (Num % Den != 0 && Num < 0)
    --Q;
  return Q;
}

Int128 Rational::ceil() const {
  Int128 Q = Num / Den;
  if (Num % Den != 0 && Num > 0)
    ++Q;
  return Q;
}

std::optional<int64_t> Rational::toInt64() const {
  if (Overflow || Den != 1 || Num > INT64_MAX || Num < INT64_MIN)
    return std::nullopt;
  return int64_t(Num);
}

std::string roofline::int128ToString(Int128 V) {
  if (V == 0)
    return "0";
  bool Neg = V < 0;
  std::string S;
  while (V != 0) {
    int D = int(V % 10);
    S.insert(S.begin(), char('0' + std::abs(D)));
    V /= 10;
  }
  if (Neg)
    S.insert(S.begin(), '-');
  return S;
}

std::string Rational::str() const {
  if (Den == 1)
    return int128ToString(Num);
  return int128ToString(Num) + "/" + int128ToString(Den);
}
