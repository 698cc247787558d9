//===- Expr.h - Symbolic count expressions over source names ---*- C++ -*-===//
//
// Counts are polynomials with rational coefficients over atoms. An atom is a
// named symbol (a kernel parameter, blockDim.x, threadIdx.x, a loop iteration
// index) or a non-polynomial operation (integer division, remainder, min,
// max, a choice between two values) over expressions. Canonical form makes
// equal formulas compare equal and print the same way, e.g. `2*K + 3`.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_EXPR_H
#define CUDA_ROOFLINE_EXPR_H

#include "Rational.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

/// What a symbol stands for; decides how it is bound during evaluation.
enum class SymbolKind {
  Param,     ///< Kernel parameter (value from --param or the call site).
  Launch,    ///< blockDim.*, gridDim.*: uniform over the launch.
  Thread,    ///< threadIdx.*, blockIdx.*: varies per thread.
  Iteration, ///< Iteration index of a loop (0-based), or a recurrence value.
  Opaque,    ///< A value the analysis cannot know (loaded from memory, ...).
};

/// SelectNonNeg is `D >= 0 ? T : F` and SelectZero `D == 0 ? T : F` over
/// the operands (D, T, F): every integer comparison of a `?:` is one of the
/// two after moving its terms to one side.
enum class AtomKind {
  Symbol,
  FloorDiv,
  Mod,
  TruncDiv,
  TruncRem,
  Max,
  Min,
  SelectNonNeg,
  SelectZero,
  BitAnd ///< `a & b` with a mask that is not a constant.
};

/// Boolean conditions over expressions, for guards and selects.
enum class CmpKind { LT, LE, GT, GE, EQ, NE };

class Expr;
struct Atom;
using AtomRef = std::shared_ptr<const Atom>;

/// Closed integer interval used for bounding expressions over a box.
struct Interval {
  Rational Lo, Hi;
  bool isPoint() const { return Lo == Hi; }
};

/// Values (points or ranges) bound to symbol names.
using IntervalEnv = std::map<std::string, Interval>;

class Expr {
public:
  using Monomial = std::vector<std::pair<AtomRef, unsigned>>;
  struct Term {
    Rational Coef;
    Monomial Mono;
  };

  Expr() = default;
  Expr(int64_t C);
  static Expr constant(Rational C);
  static Expr symbol(const std::string &Name, SymbolKind Kind);
  static Expr floorDiv(const Expr &A, const Expr &B);
  static Expr ceilDiv(const Expr &A, const Expr &B);
  static Expr mod(const Expr &A, const Expr &B);
  /// C's signed `/` and `%`: rounding toward zero.
  static Expr truncDiv(const Expr &A, const Expr &B);
  static Expr truncRem(const Expr &A, const Expr &B);
  static Expr max(const Expr &A, const Expr &B);
  static Expr min(const Expr &A, const Expr &B);
  /// `A & B` for a mask that is not a constant (`tid & (2 * step - 1)`,
  /// the optimizer's `tid % (2 * step)` for a step that doubles).
  static Expr bitAnd(const Expr &A, const Expr &B);
  /// C's `L Pred R ? T : F` on integers (a border clamp, say).
  static Expr select(CmpKind Pred, const Expr &L, const Expr &R, const Expr &T,
                     const Expr &F);

  Expr operator+(const Expr &O) const;
  Expr operator-(const Expr &O) const;
  Expr operator*(const Expr &O) const;
  Expr operator-() const;
  Expr &operator+=(const Expr &O) { return *this = *this + O; }
  bool operator==(const Expr &O) const { return str() == O.str(); }
  bool operator!=(const Expr &O) const { return !(*this == O); }

  bool isZero() const { return Terms.empty(); }
  std::optional<Rational> asConstant() const;
  const std::vector<Term> &terms() const { return Terms; }

  /// Names of every symbol the expression mentions, through atoms.
  void collectSymbols(std::set<std::string> &Out) const;
  bool mentions(const std::string &Name) const;
  /// True if any symbol of kind K occurs.
  bool mentionsKind(SymbolKind K) const;

  /// Rebuilds the expression with F's replacement for every atom F maps
  /// (F returns nullopt to keep an atom and map inside its operands).
  Expr
  mapAtoms(const std::function<std::optional<Expr>(const Atom &)> &F) const;
  /// Replaces symbols by expressions and folds constants.
  Expr substitute(const std::map<std::string, Expr> &Map) const;
  /// Replaces every non-symbol atom whose value over Env is a single point
  /// by that constant (e.g. a division that is constant over a box).
  Expr freeze(const IntervalEnv &Env) const;
  /// Exact value when every symbol is bound to a point.
  std::optional<Rational> evaluate(const IntervalEnv &Env) const;
  /// Sound bounds over the box given by Env; nullopt if a symbol is unbound.
  std::optional<Interval> bound(const IntervalEnv &Env) const;

  /// If the expression is a polynomial of degree <= 1 in Var, where Var does
  /// not occur inside a non-symbol atom, returns (coefficient, rest).
  std::optional<std::pair<Expr, Expr>>
  splitAffine(const std::string &Var) const;
  /// Degree in Var when Var occurs only as a plain symbol factor.
  std::optional<unsigned> polyDegree(const std::string &Var) const;

  /// Sum of this expression for Var = Lo .. Hi-1 (closed form; requires
  /// polyDegree(Var) <= 4). Empty ranges are the caller's concern.
  std::optional<Expr> sum(const std::string &Var, const Expr &Lo,
                          const Expr &Hi) const;

  std::string str() const;

private:
  std::vector<Term> Terms; // Sorted canonically; no zero coefficients.
  void normalize();

public:
  /// An expression consisting of the single atom A.
  static Expr fromAtom(AtomRef A);
};

struct Atom {
  AtomKind Kind;
  std::string Name; // Symbol name.
  SymbolKind SymKind = SymbolKind::Param;
  std::vector<Expr> Ops;
  std::string Key;     // Canonical form; identity of the atom.
  std::string Display; // How the atom prints.
};

/// Three-valued truth over a box: definitely false, definitely true, or mixed.
enum class Truth { False, True, Unknown };

} // namespace roofline

#endif
