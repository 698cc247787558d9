//===- Rational.h - Exact rational numbers for symbolic counts --*- C++ -*-===//
//
// Counts must be exact, and intermediate formulas such as n*(n-1)/2 have
// fractional coefficients, so the symbolic layer works on rationals over
// 128-bit integers. Overflow is detected and reported, never wrapped.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_RATIONAL_H
#define CUDA_ROOFLINE_RATIONAL_H

#include <cstdint>
#include <optional>
#include <string>

namespace roofline {

using Int128 = __int128;

/// A normalized fraction Num/Den with Den > 0. Operations set Overflow on the
/// result rather than wrapping.
class Rational {
public:
  Rational() = default;
  Rational(int64_t V);
  static Rational fraction(Int128 N, Int128 D);

  Int128 num() const { return Num; }
  Int128 den() const { return Den; }
  bool isInteger() const { return Den == 1; }
  bool isZero() const { return Num == 0; }
  bool overflowed() const { return Overflow; }

  Rational operator+(const Rational &O) const;
  Rational operator-(const Rational &O) const;
  Rational operator*(const Rational &O) const;
  Rational operator/(const Rational &O) const;
  Rational operator-() const;

  bool operator==(const Rational &O) const {
    return Num == O.Num && Den == O.Den;
  }
  bool operator!=(const Rational &O) const { return !(*this == O); }
  bool operator<(const Rational &O) const;
  bool operator<=(const Rational &O) const { return !(O < *this); }
  bool operator>(const Rational &O) const { return O < *this; }
  bool operator>=(const Rational &O) const { return !(*this < O); }

  Int128 floor() const;
  Int128 ceil() const;
  double toDouble() const { return double(Num) / double(Den); }
  std::optional<int64_t> toInt64() const;
  std::string str() const;

private:
  Int128 Num = 0;
  Int128 Den = 1;
  bool Overflow = false;
};

std::string int128ToString(Int128 V);

} // namespace roofline

#endif
