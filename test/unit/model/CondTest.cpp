//===- CondTest.cpp - Guards: three-valued evaluation, assumptions, text --===//
//
// Part of cuda-roofline.
//
// Cond (analysis/model/KernelModel.h) is a guard over expressions. evaluate()
// decides it over a box of values: True when it holds for every point,
// False when for none, Unknown when it is mixed (or a symbol is unbound).
// A comparison L pred R is decided from the bounds of L - R over the box.
//
//===----------------------------------------------------------------------===//

#include "KernelModel.h"

#include "gtest/gtest.h"

#include <functional>
#include <memory>
#include <ostream>
#include <string>

using namespace roofline;

namespace roofline {
// Readable values in assertion failures.
static void PrintTo(Truth T, std::ostream *OS) {
  *OS << (T == Truth::True ? "True" : T == Truth::False ? "False" : "Unknown");
}
} // namespace roofline

namespace {

Expr thread(const char *Name) { return Expr::symbol(Name, SymbolKind::Thread); }
Expr param(const char *Name) { return Expr::symbol(Name, SymbolKind::Param); }
Expr iter(const char *Name) {
  return Expr::symbol(Name, SymbolKind::Iteration);
}

Interval range(int64_t Lo, int64_t Hi) {
  return Interval{Rational(Lo), Rational(Hi)};
}
Interval point(int64_t V) { return range(V, V); }

/// Evaluates `i Pred n` with i in [ILo, IHi] and n = N.
Truth cmpOver(CmpKind Pred, int64_t ILo, int64_t IHi, int64_t N) {
  CondRef C = Cond::cmp(Pred, thread("i"), param("n"));
  IntervalEnv Env{{"i", range(ILo, IHi)}, {"n", point(N)}};
  return C->evaluate(Env);
}

UnknownReason why(const char *R) {
  UnknownReason U;
  U.Reason = R;
  return U;
}

//===----------------------------------------------------------------------===//
// evaluate(): comparisons. i ranges over [0, 9]; D = i - n over the box is
// [-n, 9 - n].
//===----------------------------------------------------------------------===//

TEST(CondEvaluateTest, LessThan) {
  // n = 10: D in [-10, -1], all < 0 -> True.
  EXPECT_EQ(cmpOver(CmpKind::LT, 0, 9, 10), Truth::True);
  // n = 9: D in [-9, 0]; i = 9 fails -> Unknown (mixed).
  EXPECT_EQ(cmpOver(CmpKind::LT, 0, 9, 9), Truth::Unknown);
  // n = 0: D in [0, 9], none < 0 -> False.
  EXPECT_EQ(cmpOver(CmpKind::LT, 0, 9, 0), Truth::False);
}

TEST(CondEvaluateTest, LessEqual) {
  // n = 9: D in [-9, 0], all <= 0 -> True.
  EXPECT_EQ(cmpOver(CmpKind::LE, 0, 9, 9), Truth::True);
  // n = 0: D in [0, 9]; only i = 0 passes -> Unknown.
  EXPECT_EQ(cmpOver(CmpKind::LE, 0, 9, 0), Truth::Unknown);
  // n = -1: D in [1, 10] -> False.
  EXPECT_EQ(cmpOver(CmpKind::LE, 0, 9, -1), Truth::False);
}

TEST(CondEvaluateTest, GreaterThan) {
  // n = -1: D in [1, 10] -> True.
  EXPECT_EQ(cmpOver(CmpKind::GT, 0, 9, -1), Truth::True);
  // n = 0: D in [0, 9]; i = 0 fails -> Unknown.
  EXPECT_EQ(cmpOver(CmpKind::GT, 0, 9, 0), Truth::Unknown);
  // n = 9: D in [-9, 0] -> False.
  EXPECT_EQ(cmpOver(CmpKind::GT, 0, 9, 9), Truth::False);
}

TEST(CondEvaluateTest, GreaterEqual) {
  // n = 0: D in [0, 9] -> True.
  EXPECT_EQ(cmpOver(CmpKind::GE, 0, 9, 0), Truth::True);
  // n = 5: D in [-5, 4] -> Unknown.
  EXPECT_EQ(cmpOver(CmpKind::GE, 0, 9, 5), Truth::Unknown);
  // n = 10: D in [-10, -1] -> False.
  EXPECT_EQ(cmpOver(CmpKind::GE, 0, 9, 10), Truth::False);
}

TEST(CondEvaluateTest, Equal) {
  // A single point: i = 3, n = 3 -> D = 0 -> True; n = 4 -> D = -1 -> False.
  EXPECT_EQ(cmpOver(CmpKind::EQ, 3, 3, 3), Truth::True);
  EXPECT_EQ(cmpOver(CmpKind::EQ, 3, 3, 4), Truth::False);
  // A range containing n: i = 5 passes, others not -> Unknown.
  EXPECT_EQ(cmpOver(CmpKind::EQ, 0, 9, 5), Truth::Unknown);
  // A range entirely above or below n -> False (D in [-20, -11] / [1, 10]).
  EXPECT_EQ(cmpOver(CmpKind::EQ, 0, 9, 20), Truth::False);
  EXPECT_EQ(cmpOver(CmpKind::EQ, 0, 9, -1), Truth::False);
}

TEST(CondEvaluateTest, NotEqual) {
  // The complement of EQ in every case above.
  EXPECT_EQ(cmpOver(CmpKind::NE, 3, 3, 3), Truth::False);
  EXPECT_EQ(cmpOver(CmpKind::NE, 3, 3, 4), Truth::True);
  EXPECT_EQ(cmpOver(CmpKind::NE, 0, 9, 5), Truth::Unknown);
  EXPECT_EQ(cmpOver(CmpKind::NE, 0, 9, 20), Truth::True);
  EXPECT_EQ(cmpOver(CmpKind::NE, 0, 9, -1), Truth::True);
}

TEST(CondEvaluateTest, ExpressionsAndUnboundSymbols) {
  // blockDim.x*blockIdx.x + threadIdx.x < n with blockDim.x = 256,
  // blockIdx.x = 3, threadIdx.x in [0, 255], n = 1000: i in [768, 1023],
  // D in [-232, 23] -> Unknown; with n = 1024: D in [-256, -1] -> True.
  Expr I = param("blockDim.x") * thread("blockIdx.x") + thread("threadIdx.x");
  CondRef C = Cond::cmp(CmpKind::LT, I, param("n"));
  IntervalEnv Env{{"blockDim.x", point(256)},
                  {"blockIdx.x", point(3)},
                  {"threadIdx.x", range(0, 255)},
                  {"n", point(1000)}};
  EXPECT_EQ(C->evaluate(Env), Truth::Unknown);
  Env["n"] = point(1024);
  EXPECT_EQ(C->evaluate(Env), Truth::True);
  // Terms cancel symbolically: i < i + 1 is D = -1 whatever i is, True even
  // with i unbound.
  CondRef Succ = Cond::cmp(CmpKind::LT, thread("i"), thread("i") + Expr(1));
  EXPECT_EQ(Succ->evaluate({}), Truth::True);
  // An unbound symbol that does not cancel: Unknown.
  EXPECT_EQ(Cond::cmp(CmpKind::LT, thread("i"), param("n"))
                ->evaluate({{"i", point(0)}}),
            Truth::Unknown);
}

//===----------------------------------------------------------------------===//
// evaluate(): connectives. With i = 0 and n = 10, T = (i < n) is True, F =
// (i >= n) is False; U is an Unknown leaf; M = (i < 5) over i in [0, 9] is a
// mixed comparison.
//===----------------------------------------------------------------------===//

class CondLogicTest : public ::testing::Test {
protected:
  IntervalEnv Env{{"i", point(0)}, {"j", range(0, 9)}, {"n", point(10)}};
  CondRef T = Cond::cmp(CmpKind::LT, thread("i"), param("n"));
  CondRef F = Cond::cmp(CmpKind::GE, thread("i"), param("n"));
  CondRef U = Cond::unknown(why("data-dependent branch"));
  CondRef M = Cond::cmp(CmpKind::LT, thread("j"), Expr(5));
};

TEST_F(CondLogicTest, Leaves) {
  EXPECT_EQ(T->evaluate(Env), Truth::True);
  EXPECT_EQ(F->evaluate(Env), Truth::False);
  EXPECT_EQ(U->evaluate(Env), Truth::Unknown);
  EXPECT_EQ(M->evaluate(Env), Truth::Unknown);
  EXPECT_EQ(Cond::makeTrue()->evaluate(Env), Truth::True);
  EXPECT_EQ(Cond::makeFalse()->evaluate(Env), Truth::False);
}

TEST_F(CondLogicTest, And) {
  // Kleene conjunction: False dominates, True is the identity.
  EXPECT_EQ(Cond::conj(T, T)->evaluate(Env), Truth::True);
  EXPECT_EQ(Cond::conj(T, F)->evaluate(Env), Truth::False);
  EXPECT_EQ(Cond::conj(F, T)->evaluate(Env), Truth::False);
  EXPECT_EQ(Cond::conj(F, U)->evaluate(Env), Truth::False);
  EXPECT_EQ(Cond::conj(U, F)->evaluate(Env), Truth::False);
  EXPECT_EQ(Cond::conj(T, U)->evaluate(Env), Truth::Unknown);
  EXPECT_EQ(Cond::conj(U, T)->evaluate(Env), Truth::Unknown);
  EXPECT_EQ(Cond::conj(M, T)->evaluate(Env), Truth::Unknown);
  EXPECT_EQ(Cond::conj(U, U)->evaluate(Env), Truth::Unknown);
}

TEST_F(CondLogicTest, Or) {
  // Kleene disjunction: True dominates, False is the identity.
  EXPECT_EQ(Cond::disj(F, F)->evaluate(Env), Truth::False);
  EXPECT_EQ(Cond::disj(T, F)->evaluate(Env), Truth::True);
  EXPECT_EQ(Cond::disj(F, T)->evaluate(Env), Truth::True);
  EXPECT_EQ(Cond::disj(T, U)->evaluate(Env), Truth::True);
  EXPECT_EQ(Cond::disj(U, T)->evaluate(Env), Truth::True);
  EXPECT_EQ(Cond::disj(F, U)->evaluate(Env), Truth::Unknown);
  EXPECT_EQ(Cond::disj(U, F)->evaluate(Env), Truth::Unknown);
  EXPECT_EQ(Cond::disj(M, F)->evaluate(Env), Truth::Unknown);
}

TEST_F(CondLogicTest, Not) {
  EXPECT_EQ(Cond::negate(T)->evaluate(Env), Truth::False);
  EXPECT_EQ(Cond::negate(F)->evaluate(Env), Truth::True);
  EXPECT_EQ(Cond::negate(M)->evaluate(Env), Truth::Unknown);
  EXPECT_EQ(Cond::negate(U)->evaluate(Env), Truth::Unknown);
  // !(T && F) = !False = True; !(T || M) = !True = False; !(F || M) =
  // !Unknown = Unknown.
  EXPECT_EQ(Cond::negate(Cond::conj(T, F))->evaluate(Env), Truth::True);
  EXPECT_EQ(Cond::negate(Cond::disj(T, M))->evaluate(Env), Truth::False);
  EXPECT_EQ(Cond::negate(Cond::disj(F, M))->evaluate(Env), Truth::Unknown);
}

TEST_F(CondLogicTest, ConstructorsSimplify) {
  CondRef True = Cond::makeTrue(), False = Cond::makeFalse();
  // true && x = x, false && x = false, true || x = true, false || x = x.
  EXPECT_EQ(Cond::conj(True, M), M);
  EXPECT_EQ(Cond::conj(M, True), M);
  EXPECT_EQ(Cond::conj(False, M)->K, Cond::False);
  EXPECT_EQ(Cond::conj(M, False)->K, Cond::False);
  EXPECT_EQ(Cond::disj(True, M)->K, Cond::True);
  EXPECT_EQ(Cond::disj(M, True)->K, Cond::True);
  EXPECT_EQ(Cond::disj(False, M), M);
  EXPECT_EQ(Cond::disj(M, False), M);
  // !true = false, !!x = x, !unknown = the same unknown.
  EXPECT_EQ(Cond::negate(True)->K, Cond::False);
  EXPECT_EQ(Cond::negate(False)->K, Cond::True);
  EXPECT_EQ(Cond::negate(Cond::negate(M)), M);
  EXPECT_EQ(Cond::negate(U), U);
}

TEST_F(CondLogicTest, Substitute) {
  // (j < n) with n := 10 over j in [0, 9]: True without binding n.
  CondRef C = Cond::conj(Cond::cmp(CmpKind::LT, thread("j"), param("n")),
                         Cond::negate(U));
  CondRef S = C->substitute({{"n", Expr(10)}});
  EXPECT_EQ(S->str(), "j < 10 && unknown");
  EXPECT_EQ(S->Ops[0]->evaluate({{"j", range(0, 9)}}), Truth::True);
  EXPECT_FALSE(S->mentions("n"));
  EXPECT_TRUE(C->mentions("n"));
  EXPECT_TRUE(C->mentions("j"));
  EXPECT_FALSE(C->mentions("k"));
}

//===----------------------------------------------------------------------===//
// assumePassing()
//===----------------------------------------------------------------------===//

/// Literals on thread coordinates pass (the bounds guards of an active
/// thread); loop-variable literals stay.
bool threadLiteral(const Cond &C) {
  return C.K == Cond::Cmp && C.mentionsThread();
}

TEST(CondAssumeTest, PassingLiteralsBecomeTrue) {
  Expr I = thread("threadIdx.x"), N = param("n"), K = iter("k");
  // i < n passes -> true.
  EXPECT_EQ(Cond::cmp(CmpKind::LT, I, N)->assumePassing(threadLiteral)->K,
            Cond::True);
  // k < n does not mention a thread: kept as is.
  EXPECT_EQ(Cond::cmp(CmpKind::LT, K, N)->assumePassing(threadLiteral)->str(),
            "k < n");
  // i < n && k < n -> true && (k < n) = k < n.
  CondRef Both =
      Cond::conj(Cond::cmp(CmpKind::LT, I, N), Cond::cmp(CmpKind::LT, K, N));
  EXPECT_EQ(Both->assumePassing(threadLiteral)->str(), "k < n");
  // Constants are unchanged.
  EXPECT_EQ(Cond::makeTrue()->assumePassing(threadLiteral)->K, Cond::True);
  EXPECT_EQ(Cond::makeFalse()->assumePassing(threadLiteral)->K, Cond::False);
}

TEST(CondAssumeTest, NegationsArePushedToLiterals) {
  Expr I = thread("threadIdx.x"), N = param("n"), K = iter("k"), J = iter("j");
  // The early return `if (i >= n) return;` guards the rest by !(i >= n):
  // the literal passes, so the guard is true.
  CondRef Early = Cond::negate(Cond::cmp(CmpKind::GE, I, N));
  ASSERT_EQ(Early->K, Cond::Not);
  EXPECT_EQ(Early->assumePassing(threadLiteral)->K, Cond::True);
  // A kept literal under a negation is inverted, not wrapped:
  // !(k < n) -> k >= n, and each CmpKind to its complement.
  struct {
    CmpKind P;
    const char *Inverted;
  } Cases[] = {{CmpKind::LT, "k >= n"}, {CmpKind::LE, "k > n"},
               {CmpKind::GT, "k <= n"}, {CmpKind::GE, "k < n"},
               {CmpKind::EQ, "k != n"}, {CmpKind::NE, "k == n"}};
  for (auto &C : Cases)
    EXPECT_EQ(
        Cond::negate(Cond::cmp(C.P, K, N))->assumePassing(threadLiteral)->str(),
        C.Inverted);
  // De Morgan: !(k < n && j < n) -> k >= n || j >= n.
  CondRef NotAnd = Cond::negate(
      Cond::conj(Cond::cmp(CmpKind::LT, K, N), Cond::cmp(CmpKind::LT, J, N)));
  CondRef A = NotAnd->assumePassing(threadLiteral);
  EXPECT_EQ(A->K, Cond::Or);
  EXPECT_EQ(A->str(), "k >= n || j >= n");
  // !(k < n || j < n) -> k >= n && j >= n.
  CondRef NotOr = Cond::negate(
      Cond::disj(Cond::cmp(CmpKind::LT, K, N), Cond::cmp(CmpKind::LT, J, N)));
  EXPECT_EQ(NotOr->assumePassing(threadLiteral)->str(), "k >= n && j >= n");
  // With a passing literal inside: !(i >= n || k < n) -> true && k >= n =
  // k >= n; !(i >= n && k < n) -> true || k >= n = true.
  CondRef NotOrMixed = Cond::negate(
      Cond::disj(Cond::cmp(CmpKind::GE, I, N), Cond::cmp(CmpKind::LT, K, N)));
  EXPECT_EQ(NotOrMixed->assumePassing(threadLiteral)->str(), "k >= n");
  CondRef NotAndMixed = Cond::negate(
      Cond::conj(Cond::cmp(CmpKind::GE, I, N), Cond::cmp(CmpKind::LT, K, N)));
  EXPECT_EQ(NotAndMixed->assumePassing(threadLiteral)->K, Cond::True);
  // Double negation inside a conjunction: k < n && !(!(j < n)) keeps both
  // literals un-inverted.
  auto DoubleNot = std::make_shared<Cond>();
  DoubleNot->K = Cond::Not;
  DoubleNot->Ops = {Cond::negate(Cond::cmp(CmpKind::LT, J, N))};
  CondRef Nested = Cond::conj(Cond::cmp(CmpKind::LT, K, N), DoubleNot);
  EXPECT_EQ(Nested->assumePassing(threadLiteral)->str(), "k < n && j < n");
}

TEST(CondAssumeTest, UnknownLeaves) {
  Expr K = iter("k"), N = param("n");
  CondRef U = Cond::unknown(why("data-dependent branch"));
  CondRef C = Cond::conj(U, Cond::cmp(CmpKind::LT, K, N));
  // A predicate that does not pass unknowns keeps them (negated or not).
  CondRef Kept = C->assumePassing(threadLiteral);
  EXPECT_EQ(Kept->str(), "unknown && k < n");
  ASSERT_NE(Kept->firstUnknown(), nullptr);
  EXPECT_EQ(Kept->firstUnknown()->Reason, "data-dependent branch");
  EXPECT_EQ(Cond::negate(C)->assumePassing(threadLiteral)->str(),
            "unknown || k >= n");
  // One that passes unknown leaves: true && k < n = k < n.
  auto PassUnknown = [](const Cond &L) { return L.K == Cond::Unknown; };
  CondRef Passed = C->assumePassing(PassUnknown);
  EXPECT_EQ(Passed->str(), "k < n");
  EXPECT_EQ(Passed->firstUnknown(), nullptr);
  // Under a negation the unknown leaf passes just the same: !(U && k < n)
  // -> true || k >= n = true.
  EXPECT_EQ(Cond::negate(C)->assumePassing(PassUnknown)->K, Cond::True);
}

//===----------------------------------------------------------------------===//
// mentionsThread() and str()
//===----------------------------------------------------------------------===//

TEST(CondQueryTest, MentionsThread) {
  Expr N = param("n");
  EXPECT_TRUE(
      Cond::cmp(CmpKind::LT, thread("threadIdx.x"), N)->mentionsThread());
  // On the right-hand side too.
  EXPECT_TRUE(
      Cond::cmp(CmpKind::GT, N, thread("blockIdx.y"))->mentionsThread());
  // Parameters, launch sizes and loop variables are not threads.
  EXPECT_FALSE(Cond::cmp(CmpKind::LT, iter("k"),
                         Expr::symbol("blockDim.x", SymbolKind::Launch))
                   ->mentionsThread());
  // Through connectives: found in the second operand, under a negation.
  CondRef Deep = Cond::conj(
      Cond::cmp(CmpKind::LT, iter("k"), N),
      Cond::negate(Cond::cmp(CmpKind::EQ, thread("threadIdx.x"), Expr(0))));
  EXPECT_TRUE(Deep->mentionsThread());
  // Unknown leaves and constants mention nothing.
  EXPECT_FALSE(Cond::unknown(why("x"))->mentionsThread());
  EXPECT_FALSE(Cond::makeTrue()->mentionsThread());
}

TEST(CondQueryTest, Str) {
  CondRef A = Cond::cmp(CmpKind::LT, param("a"), param("n"));
  CondRef B = Cond::cmp(CmpKind::LT, param("b"), param("m"));
  CondRef C0 = Cond::cmp(CmpKind::EQ, param("c"), Expr(0));
  EXPECT_EQ(Cond::conj(A, B)->str(), "a < n && b < m");
  // An || inside an && is parenthesized.
  EXPECT_EQ(Cond::conj(Cond::disj(A, B), C0)->str(),
            "(a < n || b < m) && c == 0");
  EXPECT_EQ(Cond::conj(C0, Cond::disj(A, B))->str(),
            "c == 0 && (a < n || b < m)");
  // An && inside an || needs none; nor do chains of one connective.
  EXPECT_EQ(Cond::disj(Cond::conj(A, B), C0)->str(),
            "a < n && b < m || c == 0");
  EXPECT_EQ(Cond::conj(Cond::conj(A, B), C0)->str(),
            "a < n && b < m && c == 0");
  EXPECT_EQ(Cond::disj(Cond::disj(A, B), C0)->str(),
            "a < n || b < m || c == 0");
  // Negation and every operator.
  EXPECT_EQ(Cond::negate(Cond::conj(A, B))->str(), "!(a < n && b < m)");
  const char *Ops[] = {"<", "<=", ">", ">=", "==", "!="};
  CmpKind Kinds[] = {CmpKind::LT, CmpKind::LE, CmpKind::GT,
                     CmpKind::GE, CmpKind::EQ, CmpKind::NE};
  for (int I = 0; I < 6; ++I)
    EXPECT_EQ(Cond::cmp(Kinds[I], param("x"), Expr(1))->str(),
              std::string("x ") + Ops[I] + " 1");
  // Expressions print canonically on both sides.
  EXPECT_EQ(Cond::cmp(CmpKind::LT,
                      param("blockDim.x") * thread("blockIdx.x") +
                          thread("threadIdx.x"),
                      param("n"))
                ->str(),
            "blockDim.x*blockIdx.x + threadIdx.x < n");
  EXPECT_EQ(Cond::makeTrue()->str(), "true");
  EXPECT_EQ(Cond::makeFalse()->str(), "false");
  EXPECT_EQ(Cond::unknown(why("x"))->str(), "unknown");
}

} // namespace
