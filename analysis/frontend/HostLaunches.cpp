//===- HostLaunches.cpp ---------------------------------------------------===//

#include "HostLaunches.h"
#include "Limits.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/ParentMap.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

using namespace clang;
using namespace roofline;

static std::string withoutSpaces(llvm::StringRef S) {
  std::string R;
  for (char C : S)
    if (C != ' ')
      R += C;
  return R;
}

bool KernelDecl::isNamed(const std::string &Want) const {
  std::string W = withoutSpaces(Want);
  // Anonymous namespaces print as "(anonymous namespace)::k".
  return W == withoutSpaces(Name) || W == withoutSpaces(ShortName) ||
         W == PlainName || W == withoutSpaces(QualifiedPlain);
}

const KernelDecl *HostFacts::findKernel(const std::string &Mangled) const {
  for (const KernelDecl &K : Kernels)
    if (K.MangledName == Mangled)
      return &K;
  return nullptr;
}

namespace {

SourceLoc toLoc(const SourceManager &SM, SourceLocation L) {
  SourceLoc R;
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
  if (P.isInvalid())
    return R;
  // Relative names are relative to the compile command's directory, which
  // need not be ours: make them absolute as the device IR's locations are.
  llvm::SmallString<256> Path(P.getFilename());
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  R.File = Path.str().str();
  R.Line = P.getLine();
  R.Column = P.getColumn();
  return R;
}

/// True if the body that declares VD assigns to it (or to a member of it,
/// takes its address, binds it to a non-const reference or calls a
/// non-const member function on it) anywhere: then its initializer is not
/// its value at the launch, and evaluating it would give a silently wrong
/// size.
class ModificationFinder : public DynamicRecursiveASTVisitor {
public:
  explicit ModificationFinder(const VarDecl *VD) : VD(VD) {}
  bool Found = false;
  /// The first modification, and what kind it is, for the messages.
  const Stmt *Where = nullptr;
  enum Kind { Assigned, AddressTaken, ByReference } How = Assigned;

  bool refersToVar(const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (auto *M = dyn_cast<MemberExpr>(E))
      return refersToVar(M->getBase());
    if (auto *D = dyn_cast<DeclRefExpr>(E))
      return D->getDecl() == VD;
    return false;
  }
  bool VisitBinaryOperator(BinaryOperator *B) override {
    if (B->isAssignmentOp() && refersToVar(B->getLHS()))
      found(B, Assigned);
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *U) override {
    if (U->isIncrementDecrementOp() && refersToVar(U->getSubExpr()))
      found(U, Assigned);
    if (U->getOpcode() == UO_AddrOf && refersToVar(U->getSubExpr()))
      found(U, AddressTaken);
    return !Found;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) override {
    if (C->isAssignmentOp() && C->getNumArgs() > 0 && refersToVar(C->getArg(0)))
      found(C, Assigned);
    return !Found;
  }
  // f(x) where f takes an `int &`: f may assign it.
  bool VisitCallExpr(CallExpr *C) override {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return !Found;
    // A member operator's first argument is the object, not a parameter.
    unsigned Shift =
        isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = Shift;
         I < C->getNumArgs() && I - Shift < FD->getNumParams(); ++I)
      if (isMutableReference(FD->getParamDecl(I - Shift)->getType()) &&
          refersToVar(C->getArg(I)))
        found(C, ByReference);
    return !Found;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *C) override {
    const CXXMethodDecl *MD = C->getMethodDecl();
    if (MD && !MD->isConst() && !MD->isStatic() &&
        C->getImplicitObjectArgument() &&
        refersToVar(C->getImplicitObjectArgument()))
      found(C, Assigned);
    return !Found;
  }
  bool VisitVarDecl(VarDecl *V) override {
    if (V != VD && isMutableReference(V->getType()) && V->getInit() &&
        refersToVar(V->getInit()))
      found(V->getInit(), ByReference);
    return !Found;
  }

private:
  const VarDecl *VD;

  static bool isMutableReference(QualType T) {
    return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
  }
  void found(const Stmt *S, Kind K) {
    if (Found)
      return;
    Found = true;
    Where = S;
    How = K;
  }
};

bool isModifiedAfterInit(const VarDecl *VD) {
  if (!VD->isLocalVarDecl())
    return false;
  auto *FD = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!FD || !FD->getBody())
    return false;
  ModificationFinder F(VD);
  F.TraverseStmt(FD->getBody());
  return F.Found;
}

/// Bounds of the host evaluation, so that no input makes it run long or
/// deep: how far expressions nest, how deep calls nest, how many statements
/// the called functions may run in all, and how many launches the loops
/// around one call site may give.
constexpr unsigned MaxDepth = 96;
constexpr unsigned MaxCallDepth = 16;
constexpr unsigned MaxCallSteps = 10000;
constexpr size_t MaxLoopLaunches = 64;
/// How many callers up the chain a launcher's parameters are followed
/// (llm.c: main -> layernorm_forward -> layernorm_forward1 -> <<<>>>).
constexpr unsigned MaxCallerDepth = 4;

/// Why a host value could not be evaluated. The first cause found is kept:
/// it is the innermost one (an initializer fails because a variable in it
/// has no value, which is what the user can supply).
struct Failure {
  std::string Text; ///< What was not evaluated, and why.
  std::string Hint; ///< What gives it a value ("--param n=VALUE").
  /// The name a --param (or annotation) gives a value to, if that is all
  /// that is missing.
  std::string Param;
  bool empty() const { return Text.empty(); }
  std::string str() const {
    return Hint.empty() ? Text : Text + " (use " + Hint + ")";
  }
};

/// The variable a loop statement declares for its iterations:
/// `for (int i = 0; ...)` or `for (int bs : sizes)`.
const VarDecl *loopVariable(const Stmt *S) {
  if (const auto *F = dyn_cast<ForStmt>(S)) {
    const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
    return DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                    : nullptr;
  }
  if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
    return R->getLoopVariable();
  return nullptr;
}

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// V converted to integer type T as the host converts it: to bool, zero or
/// not; to a narrower unsigned type, modulo 2^bits; to a narrower signed
/// type, two's complement truncation.
int64_t convertTo(int64_t V, QualType T, const ASTContext &Ctx) {
  if (T->isBooleanType())
    return V != 0;
  if (!T->isIntegralOrEnumerationType())
    return V;
  unsigned Bits = Ctx.getIntWidth(T);
  if (Bits >= 64)
    return V;
  if (T->isUnsignedIntegerOrEnumerationType())
    return int64_t(uint64_t(V) & ((uint64_t(1) << Bits) - 1));
  unsigned Shift = 64 - Bits;
  return int64_t(uint64_t(V) << Shift) >> Shift;
}

/// V as the evaluator stores it: a 64-bit unsigned value by its bits (as
/// convertTo makes them), a wider one only if an int64_t holds it.
std::optional<int64_t> toInt64(const llvm::APSInt &V) {
  if (V.getBitWidth() <= 64)
    return V.isUnsigned() ? int64_t(V.getZExtValue()) : V.getSExtValue();
  if (!V.isRepresentableByInt64())
    return std::nullopt;
  return V.getExtValue();
}

/// Evaluates integer host expressions (launch configurations, kernel
/// arguments) given the user's values for named variables. Calls of the
/// translation unit's functions (ceil_div and the like) are evaluated by
/// running their bodies with the arguments' values, within bounds.
class HostEvaluator {
public:
  /// Pos is the statement at which values are wanted (the launch), PM the
  /// parent map of the function containing it.
  HostEvaluator(ASTContext &Ctx, const std::map<std::string, int64_t> &Params,
                const Stmt *Pos = nullptr, ParentMap *PM = nullptr)
      : Ctx(Ctx), Params(Params), Pos(Pos), PM(PM) {}

  Failure Why;               // The first value that could not be evaluated.
  std::string RangeError;    // A --param value its variable cannot hold.
  bool LimitReached = false; // The file's limits stopped the evaluation.
  /// Local variables of the launching function whose values were needed
  /// (those --param names are not): the loops that set them are the ones
  /// worth enumerating.
  std::set<const VarDecl *> Needed;
  /// Integer variables found without a value, that --param would give,
  /// in the order found.
  std::vector<std::string> Unvalued;
  /// Parameters of the function the values are wanted in that had none:
  /// its callers may give them.
  std::vector<const ParmVarDecl *> UnvaluedParams;
  void unvalued(const VarDecl *VD) {
    if (const auto *P = dyn_cast<ParmVarDecl>(VD);
        P &&
        P->getType().getNonReferenceType()->isIntegralOrEnumerationType() &&
        !llvm::is_contained(UnvaluedParams, P))
      UnvaluedParams.push_back(P);
    std::string N = VD->getName().str();
    if (VD->getType().getNonReferenceType()->isIntegralOrEnumerationType() &&
        !llvm::is_contained(Unvalued, N))
      Unvalued.push_back(N);
  }
  /// Values of the variables of the loops around the launch, for one
  /// iteration.
  std::map<const VarDecl *, int64_t> Bindings;
  /// Why the loop that a variable belongs to is not enumerated, said when
  /// its value is needed.
  std::map<const VarDecl *, std::string> LoopNotes;

  // A --param for a host variable narrower than 64 bits must fit it.
  void checkFits(const VarDecl *VD, int64_t V) {
    QualType T = VD->getType().getNonReferenceType();
    if (!T->isIntegerType() || !RangeError.empty())
      return;
    unsigned Bits = Ctx.getIntWidth(T);
    if (Bits >= 64)
      return;
    bool Signed = T->isSignedIntegerType();
    int64_t Lo = Signed ? -(int64_t(1) << (Bits - 1)) : 0;
    int64_t Hi = Signed ? (int64_t(1) << (Bits - 1)) - 1
                        : int64_t((uint64_t(1) << Bits) - 1);
    if (V >= Lo && V <= Hi)
      return;
    std::string Owner;
    if (auto *FD = dyn_cast<FunctionDecl>(VD->getDeclContext()))
      Owner = " of '" + FD->getQualifiedNameAsString() + "'";
    RangeError = "value " + std::to_string(V) + " of '" + VD->getName().str() +
                 "' does not fit the " + std::to_string(Bits) + "-bit " +
                 (Signed ? "signed" : "unsigned") +
                 (isa<ParmVarDecl>(VD) ? " parameter" : " variable") + Owner;
  }

  /// The value of integer expression E, in E's type: unsigned arithmetic
  /// wraps as it does on the host (rows * cols in 32-bit unsigned).
  std::optional<int64_t> evalInt(const clang::Expr *E, unsigned Depth = 0) {
    std::optional<int64_t> V = evalIntRaw(E, Depth);
    if (!V || !E || !E->getType()->isIntegralOrEnumerationType())
      return V;
    return convertTo(*V, E->getType(), Ctx);
  }

  /// E evaluated as of statement At (values of locals assigned before it).
  std::optional<int64_t> evalIntAt(const clang::Expr *E, const Stmt *At) {
    return at<int64_t>(At, [&] { return evalInt(E); });
  }

  std::optional<int64_t> evalIntRaw(const clang::Expr *E, unsigned Depth) {
    if (!evaluable(E, Depth))
      return std::nullopt;
    E = E->IgnoreParens();
    if (E->getType()->isRealFloatingType()) {
      // A float is an integer only through a conversion (evalFloat).
      return std::nullopt;
    }
    if (auto *C = dyn_cast<CastExpr>(E)) {
      const clang::Expr *Sub = C->getSubExpr();
      QualType From = Sub->getType();
      if (From->isRealFloatingType())
        return floatToInt(C, Depth);
      // Pointers and class types are not integer values.
      if (!From->isIntegralOrEnumerationType())
        return std::nullopt;
      return evalInt(Sub, Depth + 1);
    }
    if (auto *C = dyn_cast<MaterializeTemporaryExpr>(E))
      return evalInt(C->getSubExpr(), Depth + 1);
    if (auto *C = dyn_cast<ExprWithCleanups>(E))
      return evalInt(C->getSubExpr(), Depth + 1);
    if (auto *C = dyn_cast<CXXDefaultArgExpr>(E))
      return evalInt(C->getExpr(), Depth + 1);
    if (auto *C = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      return evalInt(C->getReplacement(), Depth + 1);
    if (auto *D = dyn_cast<DeclRefExpr>(E))
      return evalDecl(D->getDecl(), Depth);
    if (auto *B = dyn_cast<BinaryOperator>(E))
      return evalBinary(B, Depth);
    if (auto *U = dyn_cast<UnaryOperator>(E)) {
      switch (U->getOpcode()) {
      case UO_Minus:
      case UO_Plus:
      case UO_Not:
      case UO_LNot:
        break;
      default:
        return std::nullopt; // ++, --, *p, &x: not a value of ours.
      }
      auto V = evalInt(U->getSubExpr(), Depth + 1);
      if (!V)
        return std::nullopt;
      switch (U->getOpcode()) {
      case UO_Minus:
        return int64_t(0 - uint64_t(*V));
      case UO_Not:
        return ~*V;
      case UO_LNot:
        return int64_t(!*V);
      default:
        return *V;
      }
    }
    if (auto *C = dyn_cast<ConditionalOperator>(E)) {
      auto Cond = evalCondition(C->getCond(), Depth + 1);
      if (!Cond)
        return std::nullopt;
      return evalInt(*Cond ? C->getTrueExpr() : C->getFalseExpr(), Depth + 1);
    }
    if (auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      return evalElement(AS, Depth);
    if (auto *M = dyn_cast<MemberExpr>(E)) {
      // grid.x of a dim3 variable.
      if (isDim3(M->getBase()->getType())) {
        auto D3 = evalDim3(M->getBase(), Depth + 1);
        StringRef F = M->getMemberDecl()->getName();
        if (D3 && F.size() == 1 && F[0] >= 'x' && F[0] <= 'z')
          return D3->V[F[0] - 'x'];
        return std::nullopt;
      }
      // param.m of a struct initialized from a list: that member's
      // initializer, where the struct is declared.
      if (auto F = fieldInit(M, Depth))
        return at<int64_t>(F->At, [&] { return evalInt(F->Init, Depth + 1); });
      return std::nullopt;
    }
    if (auto *Call = dyn_cast<CallExpr>(E)) {
      std::optional<CallValue> R = evalCall(Call, /*WantDim3=*/false, Depth);
      if (!R)
        return std::nullopt;
      return R->Int;
    }
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
      return toInt64(R.Val.getInt());
    return std::nullopt;
  }

  std::optional<Dim3> evalDim3(const clang::Expr *E, unsigned Depth = 0) {
    if (!evaluable(E, Depth))
      return std::nullopt;
    E = E->IgnoreParenImpCasts();
    // cfg.grid: a dim3 member of a struct initialized from a list.
    if (auto *M = dyn_cast<MemberExpr>(E); M && isDim3(E->getType()))
      if (auto F = fieldInit(M, Depth))
        return at<Dim3>(F->At, [&] { return evalDim3(F->Init, Depth + 1); });
    if (auto *C = dyn_cast<MaterializeTemporaryExpr>(E))
      return evalDim3(C->getSubExpr(), Depth + 1);
    if (auto *C = dyn_cast<ExprWithCleanups>(E))
      return evalDim3(C->getSubExpr(), Depth + 1);
    if (auto *C = dyn_cast<CXXBindTemporaryExpr>(E))
      return evalDim3(C->getSubExpr(), Depth + 1);
    if (auto *C = dyn_cast<CXXFunctionalCastExpr>(E))
      return evalDim3(C->getSubExpr(), Depth + 1);
    // make_grid(n, 256), a function returning a dim3.
    if (auto *Call = dyn_cast<CallExpr>(E); Call && isDim3(E->getType())) {
      std::optional<CallValue> R = evalCall(Call, /*WantDim3=*/true, Depth);
      if (!R)
        return std::nullopt;
      return R->D3;
    }
    if (auto *C = dyn_cast<CXXConstructExpr>(E)) {
      // Copy construction from another dim3.
      if (C->getNumArgs() == 1 &&
          C->getArg(0)->getType()->getAsCXXRecordDecl() ==
              C->getType()->getAsCXXRecordDecl())
        return evalDim3(C->getArg(0), Depth + 1);
      Dim3 D;
      for (unsigned I = 0; I < C->getNumArgs() && I < 3; ++I) {
        if (isa<CXXDefaultArgExpr>(C->getArg(I)))
          continue;
        auto V = evalInt(C->getArg(I), Depth + 1);
        if (!V)
          return std::nullopt;
        D.V[I] = *V;
      }
      return D;
    }
    if (auto *IL = dyn_cast<InitListExpr>(E)) {
      Dim3 D;
      for (unsigned I = 0; I < IL->getNumInits() && I < 3; ++I) {
        auto V = evalInt(IL->getInit(I), Depth + 1);
        if (!V)
          return std::nullopt;
        D.V[I] = *V;
      }
      return D;
    }
    if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
      if (auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
        // Another struct's initializer is not a dim3's (its first three
        // members would read as x, y and z).
        if (VD->getType()->isRecordType() && !isDim3(VD->getType()))
          return std::nullopt;
        if (VD->getType()->isIntegerType()) {
          auto V = evalDecl(VD, Depth);
          if (!V)
            return std::nullopt;
          Dim3 D;
          D.V[0] = *V;
          return D;
        }
        if (Frame *F = frameOf(VD)) {
          auto It = F->Dims.find(VD);
          if (It != F->Dims.end())
            return It->second;
          fail("'" + VD->getName().str() + "' is not an integer or a dim3");
          return std::nullopt;
        }
        if (PM && Pos && VD->isLocalVarDecl())
          return dim3At(VD, Pos, Depth + 1);
        if (VD->getInit() && !isModifiedAfterInit(VD))
          return evalDim3(VD->getInit(), Depth + 1);
        if (VD->getInit())
          notFollowed(VD, "is assigned after its declaration");
        else
          noValue(VD);
        return std::nullopt;
      }
    }
    if (E->getType()->isIntegerType()) {
      auto V = evalInt(E, Depth + 1);
      if (!V)
        return std::nullopt;
      Dim3 D;
      D.V[0] = *V;
      return D;
    }
    return std::nullopt;
  }

  /// The values the variable V of loop statement Loop takes, in order:
  /// a counted `for` whose start, condition and step evaluate, or a
  /// range-based `for` over a constant array or a braced list. Empty, with
  /// WhyNot set, if they are not evaluated.
  std::vector<int64_t> loopValues(const Stmt *Loop, const VarDecl *V,
                                  std::string &WhyNot) {
    std::vector<int64_t> Values;
    const Stmt *Saved = Pos;
    Pos = Loop;
    if (const auto *F = dyn_cast<ForStmt>(Loop))
      Values = forValues(F, V, WhyNot);
    else if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
      Values = rangeValues(R, V, WhyNot);
    Pos = Saved;
    if (!WhyNot.empty())
      Values.clear();
    return Values;
  }

  /// Whether an iteration runs a launch, and whether it ends the loops.
  struct Reach {
    bool Runs = true;
    /// Index in Loops of the loop that stops (a break, or -1 for a return
    /// that stops them all); Loops.size() if none does.
    int Stops;
  };
  /// Whether, in the iteration Bindings describe, the launch At runs:
  /// ifs around it whose condition evaluates, and `if (C) continue;`
  /// (or break, return) before it whose C evaluates, can skip it. Loops are
  /// the enumerated loops around At, outermost first.
  Reach reaches(const Stmt *At, const std::vector<const Stmt *> &Loops) {
    Reach R{true, int(Loops.size())};
    if (!PM || Loops.empty())
      return R;
    auto LoopIndex = [&](const Stmt *S) -> int {
      for (size_t I = 0; I < Loops.size(); ++I)
        if (Loops[I] == S)
          return int(I);
      return -1;
    };
    const Stmt *Cur = At;
    while (const Stmt *Parent = PM->getParent(Cur)) {
      if (Parent == Loops.front())
        break;
      if (const auto *If = dyn_cast<IfStmt>(Parent);
          If && !If->getInit() && !If->getConditionVariable() &&
          (Cur == If->getThen() || Cur == If->getElse())) {
        auto C =
            at<int64_t>(If, [&] { return evalCondition(If->getCond(), 0); });
        if (C && bool(*C) != (Cur == If->getThen())) {
          R.Runs = false;
          return R;
        }
      }
      if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
        for (const Stmt *S : CS->body()) {
          if (S == Cur)
            break;
          const auto *If = dyn_cast<IfStmt>(S);
          const Stmt *Jump = If ? onlyJump(If) : nullptr;
          if (!Jump)
            continue;
          auto C =
              at<int64_t>(If, [&] { return evalCondition(If->getCond(), 0); });
          if (!C || !*C)
            continue;
          if (isa<ReturnStmt>(Jump)) {
            R.Runs = false;
            R.Stops = -1;
            return R;
          }
          int Owner = LoopIndex(jumpTarget(If, isa<BreakStmt>(Jump)));
          if (Owner < 0)
            continue; // Leaves an inner loop or a switch: not ours to say.
          R.Runs = false;
          if (isa<BreakStmt>(Jump))
            R.Stops = Owner;
          return R;
        }
      }
      Cur = Parent;
    }
    return R;
  }

private:
  ASTContext &Ctx;
  const std::map<std::string, int64_t> &Params;
  const Stmt *Pos;
  ParentMap *PM;

  /// A call being evaluated: the values of its parameters and locals
  /// (integers and dim3s), and what it returned.
  struct Frame {
    const FunctionDecl *Fn;
    bool WantDim3 = false;
    std::map<const VarDecl *, int64_t> Vars;
    std::map<const VarDecl *, Dim3> Dims;
    std::optional<int64_t> RetInt;
    std::optional<Dim3> RetDim3;
  };
  std::vector<Frame> Frames;
  unsigned CallSteps = 0;
  struct CallValue {
    int64_t Int = 0;
    Dim3 D3;
  };
  /// Parent maps of the functions whose local arrays are read.
  std::map<const Stmt *, std::unique_ptr<ParentMap>> ArrayMaps;

  void fail(std::string Text, std::string Hint = "", std::string Param = "") {
    if (Why.empty())
      Why = {std::move(Text), std::move(Hint), std::move(Param)};
  }
  void noValue(const VarDecl *VD) {
    std::string N = VD->getName().str();
    unvalued(VD);
    fail("'" + N + "' has no value", "--param " + N + "=VALUE", N);
  }
  /// VD is modified in a way that is not followed (How: "is assigned in a
  /// loop at line 9").
  void notFollowed(const VarDecl *VD, const std::string &How) {
    std::string N = VD->getName().str();
    fail("'" + N + "' " + How + ", so its value at the launch is not evaluated",
         "--param " + N + "=VALUE or --launch");
  }
  /// After VD's initializer or assignment failed to evaluate: if that
  /// failure said nothing of what to give, VD's --param gives it.
  void hintFor(const VarDecl *VD, bool HadFailure) {
    if (HadFailure || !(Why.empty() || Why.Hint.empty()))
      return;
    unvalued(VD);
    if (Why.empty())
      fail("the value given to '" + VD->getName().str() + "' is not evaluated",
           "--param " + VD->getName().str() + "=VALUE or --launch");
    else
      Why.Hint = "--param " + VD->getName().str() + "=VALUE or --launch";
  }
  unsigned lineOf(const Stmt *S) const {
    return Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
  }
  std::string line(const Stmt *S) const {
    return "line " + std::to_string(lineOf(S));
  }
  /// Records why S's modification of VD is not followed.
  void modifiedBy(const VarDecl *VD, const Stmt *S) {
    ModificationFinder F(VD);
    F.TraverseStmt(const_cast<Stmt *>(S));
    if (isLoop(S))
      notFollowed(VD, "is assigned in a loop at " + line(S));
    else if (F.Found && F.How == ModificationFinder::AddressTaken)
      notFollowed(VD, "has its address taken at " + line(F.Where));
    else if (F.Found && F.How == ModificationFinder::ByReference)
      notFollowed(VD, "is passed by reference at " + line(F.Where));
    else
      notFollowed(VD, "is assigned after its declaration");
  }

  /// Whether E can be evaluated at all: a template's own body (types and
  /// values depending on its parameters), an expression clang rejected, or
  /// a recursion this deep is "not evaluated", never a guess or a crash.
  /// Each call is a step of the evaluation, which can branch widely (both
  /// sides of every operator, each variable's definitions); past the file's
  /// limits it stops.
  bool evaluable(const clang::Expr *E, unsigned Depth) {
    if ((++Steps & 255) == 0 && FileLimits::expired())
      LimitReached = true;
    if (Depth > MaxDepth)
      fail("the expression nests too deeply");
    return !LimitReached && E && Depth <= MaxDepth && !E->getType().isNull() &&
           !E->isTypeDependent() && !E->isValueDependent() &&
           !E->containsErrors();
  }
  uint64_t Steps = 0;

  static bool isDim3(QualType T) {
    const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
    return RD && RD->getIdentifier() &&
           (RD->getName() == "dim3" || RD->getName() == "uint3");
  }

  /// A condition's truth value: integers, and comparisons of floats.
  std::optional<int64_t> evalCondition(const clang::Expr *E, unsigned Depth) {
    return evalInt(E, Depth);
  }

  std::optional<int64_t> evalBinary(const BinaryOperator *B, unsigned Depth) {
    BinaryOperatorKind Op = B->getOpcode();
    // Assignments and commas have effects a value does not capture.
    if (B->isAssignmentOp() || Op == BO_Comma)
      return std::nullopt;
    QualType LT = B->getLHS()->getType();
    if (LT->isRealFloatingType()) {
      if (!B->isComparisonOp())
        return std::nullopt;
      auto L = evalFloat(B->getLHS(), Depth + 1);
      auto R = evalFloat(B->getRHS(), Depth + 1);
      if (!L || !R)
        return std::nullopt;
      llvm::APFloat::cmpResult C = L->compare(*R);
      switch (Op) {
      case BO_LT:
        return int64_t(C == llvm::APFloat::cmpLessThan);
      case BO_GT:
        return int64_t(C == llvm::APFloat::cmpGreaterThan);
      case BO_LE:
        return int64_t(C == llvm::APFloat::cmpLessThan ||
                       C == llvm::APFloat::cmpEqual);
      case BO_GE:
        return int64_t(C == llvm::APFloat::cmpGreaterThan ||
                       C == llvm::APFloat::cmpEqual);
      case BO_EQ:
        return int64_t(C == llvm::APFloat::cmpEqual);
      case BO_NE:
        return int64_t(C != llvm::APFloat::cmpEqual);
      default:
        return std::nullopt;
      }
    }
    if (!LT->isIntegralOrEnumerationType() ||
        !B->getRHS()->getType()->isIntegralOrEnumerationType())
      return std::nullopt; // Pointer arithmetic and comparisons.
    // && and || do not evaluate their right side when the left decides
    // (n > 0 && total / n > 4).
    if (Op == BO_LAnd || Op == BO_LOr) {
      auto L = evalInt(B->getLHS(), Depth + 1);
      if (!L)
        return std::nullopt;
      if (bool(*L) == (Op == BO_LOr))
        return int64_t(bool(*L));
      auto R = evalInt(B->getRHS(), Depth + 1);
      if (!R)
        return std::nullopt;
      return int64_t(bool(*R));
    }
    auto L = evalInt(B->getLHS(), Depth + 1);
    auto R = evalInt(B->getRHS(), Depth + 1);
    if (!L || !R)
      return std::nullopt;
    auto V = binop(Op, *L, *R, LT->isUnsignedIntegerOrEnumerationType());
    if (!V && (Op == BO_Div || Op == BO_Rem))
      fail(
          (*R == 0 ? "a division by zero at " : "an overflowing division at ") +
          line(B));
    else if (!V && (Op == BO_Shl || Op == BO_Shr))
      fail("a shift by " + std::to_string(*R) + " bits at " + line(B));
    return V;
  }

  /// L Op R on the host, in 64 bits: wrapping, and unsigned where the
  /// operands are (a 64-bit unsigned value is stored in an int64_t). The
  /// caller converts the result to the expression's type.
  static std::optional<int64_t> binop(BinaryOperatorKind Op, int64_t L,
                                      int64_t R, bool Unsigned) {
    uint64_t UL = uint64_t(L), UR = uint64_t(R);
    switch (Op) {
    case BO_Add:
      return int64_t(UL + UR);
    case BO_Sub:
      return int64_t(UL - UR);
    case BO_Mul:
      return int64_t(UL * UR);
    case BO_Div:
    case BO_Rem:
      if (R == 0)
        return std::nullopt;
      if (Unsigned)
        return int64_t(Op == BO_Div ? UL / UR : UL % UR);
      if (L == INT64_MIN && R == -1)
        return std::nullopt;
      return Op == BO_Div ? L / R : L % R;
    case BO_Shl:
      if (R < 0 || R >= 64)
        return std::nullopt;
      return int64_t(UL << R);
    case BO_Shr:
      if (R < 0 || R >= 64)
        return std::nullopt;
      return Unsigned ? int64_t(UL >> R) : L >> R;
    case BO_And:
      return L & R;
    case BO_Or:
      return L | R;
    case BO_Xor:
      return L ^ R;
    case BO_LT:
      return int64_t(Unsigned ? UL < UR : L < R);
    case BO_GT:
      return int64_t(Unsigned ? UL > UR : L > R);
    case BO_LE:
      return int64_t(Unsigned ? UL <= UR : L <= R);
    case BO_GE:
      return int64_t(Unsigned ? UL >= UR : L >= R);
    case BO_EQ:
      return int64_t(L == R);
    case BO_NE:
      return int64_t(L != R);
    case BO_LAnd:
      return int64_t(L && R);
    case BO_LOr:
      return int64_t(L || R);
    default:
      return std::nullopt;
    }
  }

  //===--------------------------------------------------------------------===//
  // Floating point: (int)ceil((float)n / bs), in the expression's own
  // precision, as the host computes it.
  //===--------------------------------------------------------------------===//

  std::optional<int64_t> floatToInt(const CastExpr *C, unsigned Depth) {
    auto F = evalFloat(C->getSubExpr(), Depth + 1);
    if (!F)
      return std::nullopt;
    if (C->getCastKind() == CK_FloatingToBoolean)
      return int64_t(!F->isZero());
    if (C->getCastKind() != CK_FloatingToIntegral)
      return std::nullopt;
    QualType T = C->getType();
    unsigned Bits = Ctx.getIntWidth(T);
    if (Bits > 64)
      return std::nullopt; // __int128: values are 64-bit here.
    llvm::APSInt I(Bits, T->isUnsignedIntegerOrEnumerationType());
    bool Exact = false;
    // A value out of the type's range is undefined behaviour on the host.
    if (F->convertToInteger(I, llvm::APFloat::rmTowardZero, &Exact) &
        llvm::APFloat::opInvalidOp) {
      fail("a floating-point value out of the integer's range at " + line(C));
      return std::nullopt;
    }
    return I.isSigned() ? I.getSExtValue() : int64_t(I.getZExtValue());
  }

  std::optional<llvm::APFloat> evalFloat(const clang::Expr *E, unsigned Depth) {
    if (!evaluable(E, Depth) || !E->getType()->isRealFloatingType())
      return std::nullopt;
    E = E->IgnoreParens();
    const llvm::fltSemantics &Sem = Ctx.getFloatTypeSemantics(E->getType());
    if (auto *L = dyn_cast<FloatingLiteral>(E))
      return L->getValue();
    if (auto *C = dyn_cast<CastExpr>(E)) {
      const clang::Expr *Sub = C->getSubExpr();
      if (Sub->getType()->isIntegralOrEnumerationType()) {
        auto V = evalInt(Sub, Depth + 1);
        if (!V)
          return std::nullopt;
        llvm::APFloat F(Sem);
        bool Unsigned = Sub->getType()->isUnsignedIntegerOrEnumerationType();
        F.convertFromAPInt(llvm::APInt(64, uint64_t(*V), !Unsigned), !Unsigned,
                           llvm::APFloat::rmNearestTiesToEven);
        return F;
      }
      if (Sub->getType()->isRealFloatingType()) {
        auto F = evalFloat(Sub, Depth + 1);
        if (!F)
          return std::nullopt;
        bool Lost = false;
        F->convert(Sem, llvm::APFloat::rmNearestTiesToEven, &Lost);
        return F;
      }
      return std::nullopt;
    }
    if (auto *C = dyn_cast<MaterializeTemporaryExpr>(E))
      return evalFloat(C->getSubExpr(), Depth + 1);
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      auto L = evalFloat(B->getLHS(), Depth + 1);
      auto R = evalFloat(B->getRHS(), Depth + 1);
      if (!L || !R)
        return std::nullopt;
      auto RM = llvm::APFloat::rmNearestTiesToEven;
      switch (B->getOpcode()) {
      case BO_Add:
        L->add(*R, RM);
        return L;
      case BO_Sub:
        L->subtract(*R, RM);
        return L;
      case BO_Mul:
        L->multiply(*R, RM);
        return L;
      case BO_Div:
        L->divide(*R, RM);
        return L;
      default:
        return std::nullopt;
      }
    }
    if (auto *U = dyn_cast<UnaryOperator>(E)) {
      auto V = evalFloat(U->getSubExpr(), Depth + 1);
      if (!V || (U->getOpcode() != UO_Minus && U->getOpcode() != UO_Plus))
        return std::nullopt;
      if (U->getOpcode() == UO_Minus)
        V->changeSign();
      return V;
    }
    if (auto *C = dyn_cast<ConditionalOperator>(E)) {
      auto Cond = evalCondition(C->getCond(), Depth + 1);
      if (!Cond)
        return std::nullopt;
      return evalFloat(*Cond ? C->getTrueExpr() : C->getFalseExpr(), Depth + 1);
    }
    // ceil, floor and trunc of the C library (std:: or not, f or not):
    // exact roundings.
    if (auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (FD && FD->getIdentifier() && Call->getNumArgs() == 1) {
        StringRef N = FD->getName();
        std::optional<llvm::RoundingMode> Mode;
        if (N == "ceil" || N == "ceilf")
          Mode = llvm::APFloat::rmTowardPositive;
        else if (N == "floor" || N == "floorf")
          Mode = llvm::APFloat::rmTowardNegative;
        else if (N == "trunc" || N == "truncf")
          Mode = llvm::APFloat::rmTowardZero;
        if (Mode) {
          auto V = evalFloat(Call->getArg(0), Depth + 1);
          if (!V)
            return std::nullopt;
          V->roundToIntegral(*Mode);
          bool Lost = false;
          V->convert(Sem, llvm::APFloat::rmNearestTiesToEven, &Lost);
          return V;
        }
      }
      if (FD && FD->getIdentifier())
        fail("not evaluated: call to '" + FD->getNameAsString() + "' (" +
             (Ctx.getSourceManager().isInSystemHeader(FD->getLocation())
                  ? "a library function"
                  : "it returns a floating-point value") +
             ")");
      return std::nullopt;
    }
    // Named constants (const float kScale = 0.5f;).
    llvm::APFloat F(Sem);
    if (!E->isValueDependent() && E->EvaluateAsFloat(F, Ctx))
      return F;
    if (auto *D = dyn_cast<DeclRefExpr>(E))
      fail("'" + D->getDecl()->getNameAsString() +
           "' is a floating-point variable, whose value is not followed");
    return std::nullopt;
  }

  //===--------------------------------------------------------------------===//
  // Calls: ceil_div(n, 256), div_up<int>(...), std::min, make_grid(n).
  //===--------------------------------------------------------------------===//

  /// The name of the namespace that declares D, inline namespaces (a
  /// library's ABI versions) skipped.
  static StringRef enclosingNamespace(const Decl *D) {
    for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && !NS->isInline())
        return NS->getIdentifier() ? NS->getName() : StringRef();
    return StringRef();
  }

  /// The frame whose function declares VD, if VD belongs to the call being
  /// evaluated.
  Frame *frameOf(const VarDecl *VD) {
    if (Frames.empty())
      return nullptr;
    const auto *Owner =
        dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
    return Owner == Frames.back().Fn ? &Frames.back() : nullptr;
  }

  /// A callee as messages name it: 'f', or the lambda at line N.
  std::string calleeName(const FunctionDecl *FD) {
    std::string Name = "'" + FD->getNameAsString() + "'";
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && MD->getParent()->isLambda())
      Name = "the lambda at line " +
             std::to_string(Ctx.getSourceManager().getExpansionLineNumber(
                 MD->getParent()->getLocation()));
    return Name;
  }

  /// Fails the evaluation at the call to Name, for Reason.
  std::nullopt_t failCall(const std::string &Name, const std::string &Reason) {
    fail("not evaluated: call to " + Name + " (" + Reason + ")");
    return std::nullopt;
  }

  /// std::min / std::max / min / max over integers, wherever declared.
  std::optional<CallValue> evalMinMax(const CallExpr *Call,
                                      const FunctionDecl *FD, unsigned Depth) {
    auto A = evalInt(Call->getArg(0), Depth + 1);
    auto B = evalInt(Call->getArg(1), Depth + 1);
    if (!A || !B)
      return std::nullopt;
    bool Unsigned = Call->getType()->isUnsignedIntegerOrEnumerationType();
    bool Less = Unsigned ? uint64_t(*A) < uint64_t(*B) : *A < *B;
    return CallValue{FD->getName() == "min" ? (Less ? *A : *B)
                                            : (Less ? *B : *A)};
  }

  /// A ceiling division of the CCCL, rounded up to a multiple of the
  /// divisor for RoundUp.
  std::optional<CallValue> evalCeilDiv(const CallExpr *Call, bool RoundUp,
                                       const std::string &Name,
                                       unsigned Depth) {
    auto A = evalInt(Call->getArg(0), Depth + 1);
    auto B = evalInt(Call->getArg(1), Depth + 1);
    if (!A || !B)
      return std::nullopt;
    if (*A < 0 || *B <= 0)
      return failCall(Name, "its dividend must not be negative, its divisor "
                            "positive");
    int64_t Q = *A / *B + (*A % *B != 0);
    return CallValue{RoundUp ? int64_t(uint64_t(Q) * uint64_t(*B)) : Q};
  }

  /// Calls that are not run but known by what they compute: false if Call
  /// is none of them, else Result is its value (none when it fails).
  bool evalKnownCall(const CallExpr *Call, const FunctionDecl *FD,
                     const std::string &Name, bool WantDim3, unsigned Depth,
                     std::optional<CallValue> &Result) {
    const SourceManager &SM = Ctx.getSourceManager();
    if (!WantDim3 && FD->getIdentifier() &&
        (FD->getName() == "min" || FD->getName() == "max") &&
        Call->getNumArgs() == 2 && Call->getType()->isIntegerType()) {
      Result = evalMinMax(Call, FD, Depth);
      return true;
    }
    // std::size(array): the array's length.
    if (!WantDim3 && FD->getIdentifier() && FD->getName() == "size" &&
        FD->isInStdNamespace() && Call->getNumArgs() == 1)
      if (const auto *AT = Ctx.getAsConstantArrayType(
              Call->getArg(0)->IgnoreParenImpCasts()->getType())) {
        Result = CallValue{int64_t(AT->getSize().getZExtValue())};
        return true;
      }
    // The CCCL's ceiling divisions (cuda::ceil_div, cuda::round_up,
    // cub::DivideAndRoundUp) by what they are documented to compute: their
    // bodies are library code, written for every integer and enum type.
    if (!WantDim3 && Call->getNumArgs() == 2 && FD->getIdentifier() &&
        SM.isInSystemHeader(FD->getLocation())) {
      StringRef N = FD->getName(), NS = enclosingNamespace(FD);
      bool RoundUp = NS == "cuda" && N == "round_up";
      if ((NS == "cuda" && N == "ceil_div") || RoundUp ||
          (NS == "cub" && N == "DivideAndRoundUp")) {
        Result = evalCeilDiv(Call, RoundUp, Name, Depth);
        return true;
      }
    }
    // Of the library, only what clang evaluates as a constant
    // (numeric_limits<int>::max()); the functions of the file are run
    // instead, so that a --param for a constant's name is heard.
    if (SM.isInSystemHeader(FD->getLocation())) {
      Expr::EvalResult Const;
      if (!WantDim3 && !Call->isValueDependent() &&
          Call->EvaluateAsInt(Const, Ctx))
        if (auto V = toInt64(Const.Val.getInt())) {
          Result = CallValue{*V};
          return true;
        }
      Result = failCall(Name, "a library function");
      return true;
    }
    return false;
  }

  /// The frame a call to a function of the file runs in: the callee's
  /// definition and the arguments' values, evaluated in the caller's
  /// context; none if the call cannot be run.
  std::optional<Frame> callFrame(const CallExpr *Call, const FunctionDecl *FD,
                                 const std::string &Name, bool WantDim3,
                                 unsigned Depth) {
    // A lambda without captures is a function like the others.
    unsigned FirstArg = 0;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && !MD->isStatic()) {
      const CXXRecordDecl *RD = MD->getParent();
      if (!RD->isLambda() || RD->capture_size() != 0 ||
          !isa<CXXOperatorCallExpr>(Call))
        return failCall(Name, RD->isLambda() ? "it has captures"
                                             : "a member function");
      FirstArg = 1;
    }
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def || !Def->getBody())
      return failCall(Name, "no definition in this file");
    if (Def->isVariadic())
      return failCall(Name, "a variadic function");
    if (Call->getNumArgs() != Def->getNumParams() + FirstArg)
      return failCall(Name, "its arguments do not match its parameters");
    if (Frames.size() >= MaxCallDepth)
      return failCall(Name, "calls nest more than " +
                                std::to_string(MaxCallDepth) + " deep");
    Frame F;
    F.Fn = Def;
    F.WantDim3 = WantDim3;
    for (unsigned I = 0; I < Def->getNumParams(); ++I) {
      const ParmVarDecl *P = Def->getParamDecl(I);
      QualType T = P->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        return failCall(Name,
                        "it takes '" + P->getName().str() + "' by reference");
      if (isDim3(T)) {
        auto D = evalDim3(Call->getArg(I + FirstArg), Depth + 1);
        if (!D)
          return std::nullopt;
        F.Dims[P] = *D;
        continue;
      }
      if (!T.getNonReferenceType()->isIntegralOrEnumerationType())
        continue; // Read in the body, it fails there.
      auto V = evalInt(Call->getArg(I + FirstArg), Depth + 1);
      if (!V)
        return std::nullopt;
      F.Vars[P] = convertTo(*V, T.getNonReferenceType(), Ctx);
    }
    return F;
  }

  /// Runs the body of F's function to its return value. The body sees
  /// nothing of the caller's positions: its locals are its own.
  std::optional<CallValue> runCall(Frame F, const std::string &Name,
                                   unsigned Depth) {
    const Stmt *Body = F.Fn->getBody();
    bool WantDim3 = F.WantDim3;
    const Stmt *SavedPos = Pos;
    ParentMap *SavedPM = PM;
    Pos = nullptr;
    PM = nullptr;
    bool HadFailure = !Why.empty();
    Frames.push_back(std::move(F));
    Flow R = exec(Body, Depth + 1);
    Frame Done = std::move(Frames.back());
    Frames.pop_back();
    Pos = SavedPos;
    PM = SavedPM;
    if (R == Flow::Return &&
        (WantDim3 ? bool(Done.RetDim3) : bool(Done.RetInt))) {
      CallValue V;
      if (Done.RetInt)
        V.Int = *Done.RetInt;
      if (Done.RetDim3)
        V.D3 = *Done.RetDim3;
      return V;
    }
    if (LimitReached)
      return std::nullopt;
    // Say which call failed, around what failed in it (a call nested in it
    // has said so already).
    if (HadFailure)
      return std::nullopt;
    if (Why.empty())
      return failCall(Name, R == Flow::Return ? "it returns no value"
                                              : "it ends without a return");
    if (!StringRef(Why.Text).starts_with("not evaluated: call to"))
      Why.Text = "not evaluated: call to " + Name + " (" + Why.Text + ")";
    return std::nullopt;
  }

  std::optional<CallValue> evalCall(const CallExpr *Call, bool WantDim3,
                                    unsigned Depth) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD) {
      fail("not evaluated: a call through a function pointer at " + line(Call));
      return std::nullopt;
    }
    std::string Name = calleeName(FD);
    std::optional<CallValue> Known;
    if (evalKnownCall(Call, FD, Name, WantDim3, Depth, Known))
      return Known;
    std::optional<Frame> F = callFrame(Call, FD, Name, WantDim3, Depth);
    if (!F)
      return std::nullopt;
    return runCall(std::move(*F), Name, Depth);
  }

  enum class Flow { Next, Break, Continue, Return, Fail };

  /// Runs statement S of the innermost frame's function.
  Flow exec(const Stmt *S, unsigned Depth) {
    if (!S)
      return Flow::Next;
    if (++CallSteps > MaxCallSteps) {
      fail("more than " + std::to_string(MaxCallSteps) + " steps");
      return Flow::Fail;
    }
    if ((++Steps & 255) == 0 && FileLimits::expired()) {
      LimitReached = true;
      return Flow::Fail;
    }
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Sub : CS->body()) {
        Flow R = exec(Sub, Depth);
        if (R != Flow::Next)
          return R;
      }
      return Flow::Next;
    }
    if (isa<NullStmt>(S))
      return Flow::Next;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (!declare(VD, Depth))
            return Flow::Fail;
      return Flow::Next;
    }
    if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      const clang::Expr *RV = RS->getRetValue();
      if (!RV)
        return Flow::Return;
      bool Had = !Why.empty();
      if (Frames.back().WantDim3) {
        auto D = evalDim3(RV, Depth + 1);
        if (D)
          Frames.back().RetDim3 = D;
      } else {
        auto V = evalInt(RV, Depth + 1);
        if (V)
          Frames.back().RetInt = V;
      }
      if (Frames.back().RetDim3 || Frames.back().RetInt)
        return Flow::Return;
      if (!Had && Why.empty())
        fail("the value it returns at " + line(RS) + " is not evaluated");
      return Flow::Fail;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->isConsteval())
        return exec(If->isNegatedConsteval() ? If->getThen() : If->getElse(),
                    Depth);
      if (!enterSelection(If->getInit(), If->getConditionVariable(), Depth))
        return Flow::Fail;
      auto C = evalCondition(If->getCond(), Depth + 1);
      if (!C) {
        fail("the condition at " + line(If) + " is not evaluated");
        return Flow::Fail;
      }
      return exec(*C ? If->getThen() : If->getElse(), Depth);
    }
    if (isa<ForStmt, WhileStmt, DoStmt>(S))
      return execLoop(S, Depth);
    if (const auto *Sw = dyn_cast<SwitchStmt>(S))
      return execSwitch(Sw, Depth);
    // Reached by falling through from the case before.
    if (const auto *SC = dyn_cast<SwitchCase>(S))
      return exec(SC->getSubStmt(), Depth);
    if (isa<BreakStmt>(S))
      return Flow::Break;
    if (isa<ContinueStmt>(S))
      return Flow::Continue;
    if (const auto *A = dyn_cast<AttributedStmt>(S))
      return exec(A->getSubStmt(), Depth);
    if (const auto *E = dyn_cast<clang::Expr>(S))
      return execExpr(E, Depth) ? Flow::Next : Flow::Fail;
    std::string Kind = isa<CXXForRangeStmt>(S) ? "range-based for"
                       : isa<CXXTryStmt>(S)    ? "try"
                                               : S->getStmtClassName();
    if (StringRef(Kind).ends_with("Stmt"))
      Kind.resize(Kind.size() - 4);
    fail("a '" + StringRef(Kind).lower() + "' statement at " + line(S));
    return Flow::Fail;
  }

  /// Runs the init-statement and declares the condition variable of an
  /// `if` or `switch` (either may be null).
  bool enterSelection(const Stmt *Init, const VarDecl *CV, unsigned Depth) {
    if (Init && exec(Init, Depth) != Flow::Next)
      return false;
    return !CV || declare(CV, Depth);
  }

  /// Runs the case of Sw its condition selects, falling through to the
  /// next ones until a break, as C++ does. Case labels must be statements
  /// of the switch's body (or labels of those): a label inside a nested
  /// statement (Duff's device) is not followed.
  Flow execSwitch(const SwitchStmt *Sw, unsigned Depth) {
    if (!enterSelection(Sw->getInit(), Sw->getConditionVariable(), Depth))
      return Flow::Fail;
    auto V = evalInt(Sw->getCond(), Depth + 1);
    if (!V) {
      fail("the condition at " + line(Sw) + " is not evaluated");
      return Flow::Fail;
    }
    const SwitchCase *Target = nullptr, *Default = nullptr;
    for (const SwitchCase *SC = Sw->getSwitchCaseList(); SC;
         SC = SC->getNextSwitchCase()) {
      const auto *Case = dyn_cast<CaseStmt>(SC);
      if (!Case) {
        Default = SC;
        continue;
      }
      clang::Expr::EvalResult Lo, Hi;
      if (!Case->getLHS()->EvaluateAsInt(Lo, Ctx) ||
          (Case->getRHS() && !Case->getRHS()->EvaluateAsInt(Hi, Ctx))) {
        fail("the case label at " + line(Case) + " is not a constant");
        return Flow::Fail;
      }
      std::optional<int64_t> L = toInt64(Lo.Val.getInt());
      std::optional<int64_t> H = Case->getRHS() ? toInt64(Hi.Val.getInt()) : L;
      if (L && H && *L <= *V && *V <= *H)
        Target = Case;
    }
    if (!Target)
      Target = Default;
    if (!Target)
      return Flow::Next;
    const auto *Body = dyn_cast<CompoundStmt>(Sw->getBody());
    // The statement of the body whose label chain holds Target.
    auto Holds = [&](const Stmt *St) {
      while (const auto *SC = dyn_cast_or_null<SwitchCase>(St)) {
        if (SC == Target)
          return true;
        St = SC->getSubStmt();
      }
      return false;
    };
    auto Ended = [](Flow R) { return R == Flow::Break ? Flow::Next : R; };
    if (!Body)
      return Holds(Sw->getBody()) ? Ended(exec(Target, Depth)) : Flow::Next;
    bool Running = false;
    for (const Stmt *St : Body->body()) {
      Flow R;
      if (Running) {
        R = exec(St, Depth);
      } else if (Holds(St)) {
        Running = true;
        R = exec(Target, Depth);
      } else {
        continue;
      }
      if (R != Flow::Next)
        return Ended(R);
    }
    if (!Running) {
      fail("the case label at " + line(Target) +
           " is inside a nested statement");
      return Flow::Fail;
    }
    return Flow::Next;
  }

  Flow execLoop(const Stmt *S, unsigned Depth) {
    const clang::Expr *Cond = nullptr, *Inc = nullptr;
    const Stmt *Body = nullptr;
    bool CondFirst = true;
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      if (F->getInit() && exec(F->getInit(), Depth) != Flow::Next)
        return Flow::Fail;
      Cond = F->getCond();
      Inc = F->getInc();
      Body = F->getBody();
      if (F->getConditionVariable()) {
        fail("a condition variable at " + line(S));
        return Flow::Fail;
      }
    } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
      if (W->getConditionVariable()) {
        fail("a condition variable at " + line(S));
        return Flow::Fail;
      }
      Cond = W->getCond();
      Body = W->getBody();
    } else {
      const auto *D = cast<DoStmt>(S);
      Cond = D->getCond();
      Body = D->getBody();
      CondFirst = false;
    }
    // MaxCallSteps bounds the iterations (exec counts each body).
    for (bool First = true;; First = false) {
      if (Cond && (CondFirst || !First)) {
        auto C = evalCondition(Cond, Depth + 1);
        if (!C) {
          fail("the condition of the loop at " + line(S) + " is not evaluated");
          return Flow::Fail;
        }
        if (!*C)
          return Flow::Next;
      }
      Flow R = exec(Body, Depth);
      if (R == Flow::Break)
        return Flow::Next;
      if (R == Flow::Return || R == Flow::Fail)
        return R;
      if (Inc && !execExpr(Inc, Depth))
        return Flow::Fail;
    }
  }

  /// Declares local VD of the innermost frame: an integer gets its
  /// initializer's value; other types are left without one (reading them
  /// fails), unless their initializer could change a local.
  bool declare(const VarDecl *VD, unsigned Depth) {
    Frame &F = Frames.back();
    QualType T = VD->getType();
    std::string N = VD->getName().str();
    if (VD->isStaticLocal() && !T.isConstQualified()) {
      fail("'" + N + "' is a static local that is not const");
      return false;
    }
    if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified()) {
      fail("'" + N + "' is a reference");
      return false;
    }
    if (isDim3(T)) {
      auto D = VD->getInit() ? evalDim3(VD->getInit(), Depth + 1) : Dim3();
      if (!D)
        return false;
      Frames.back().Dims[VD] = *D;
      return true;
    }
    if (!T.getNonReferenceType()->isIntegralOrEnumerationType()) {
      if (VD->getInit() && !readsOnly(VD->getInit()))
        return false;
      F.Vars.erase(VD);
      return true;
    }
    if (!VD->getInit()) {
      F.Vars.erase(VD);
      return true;
    }
    auto V = evalInt(VD->getInit(), Depth + 1);
    if (!V)
      return false;
    Frames.back().Vars[VD] = convertTo(*V, T.getNonReferenceType(), Ctx);
    return true;
  }

  /// Runs expression statement E: assignments and increments of the
  /// frame's integers; anything else only if it changes none of them
  /// (printf, assert) and does not leave the function (throw, exit).
  bool execExpr(const clang::Expr *E, unsigned Depth) {
    E = E->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      return execExpr(EWC->getSubExpr(), Depth);
    if (const auto *C = dyn_cast<CStyleCastExpr>(E);
        C && C->getType()->isVoidType())
      return execExpr(C->getSubExpr(), Depth);
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->getOpcode() == BO_Comma)
        return execExpr(B->getLHS(), Depth) && execExpr(B->getRHS(), Depth);
      if (B->isAssignmentOp())
        return assign(B, Depth);
      // assert-style `C || fail()`: the right side runs only if needed.
      if (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr) {
        auto L = evalCondition(B->getLHS(), Depth + 1);
        if (!L)
          return false;
        if (bool(*L) == (B->getOpcode() == BO_LOr))
          return true;
        return execExpr(B->getRHS(), Depth);
      }
    }
    // assert(): `C ? void(0) : __assert_fail(...)`.
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      auto Cond = evalCondition(C->getCond(), Depth + 1);
      if (!Cond)
        return false;
      return execExpr(*Cond ? C->getTrueExpr() : C->getFalseExpr(), Depth);
    }
    // grid = dim3(...) of a local dim3.
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      if (const VarDecl *VD = frameVar(OC->getArg(0));
          VD && Frames.back().Dims.count(VD)) {
        auto D = evalDim3(OC->getArg(1), Depth + 1);
        if (!D)
          return false;
        Frames.back().Dims[VD] = *D;
        return true;
      }
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && U->isIncrementDecrementOp()) {
      const VarDecl *VD = frameVar(U->getSubExpr());
      if (!VD || !Frames.back().Vars.count(VD)) {
        fail("an increment at " + line(U) + " that is not followed");
        return false;
      }
      int64_t &V = Frames.back().Vars[VD];
      V = convertTo(int64_t(uint64_t(V) + (U->isIncrementOp() ? 1 : -1)),
                    VD->getType(), Ctx);
      return true;
    }
    return readsOnly(E);
  }

  /// The frame's local that E names.
  const VarDecl *frameVar(const clang::Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    const auto *VD = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
    return VD && frameOf(VD) ? VD : nullptr;
  }

  bool assign(const BinaryOperator *B, unsigned Depth) {
    // grid.x = ... of a local dim3.
    if (const auto *ME =
            dyn_cast<MemberExpr>(B->getLHS()->IgnoreParenImpCasts());
        ME && B->getOpcode() == BO_Assign) {
      const VarDecl *D3 = frameVar(ME->getBase());
      StringRef F = ME->getMemberDecl()->getName();
      if (D3 && Frames.back().Dims.count(D3) && F.size() == 1 && F[0] >= 'x' &&
          F[0] <= 'z') {
        auto R = evalInt(B->getRHS(), Depth + 1);
        if (!R)
          return false;
        Frames.back().Dims[D3].V[F[0] - 'x'] = *R;
        return true;
      }
    }
    const VarDecl *VD = frameVar(B->getLHS());
    if (!VD || !VD->getType()->isIntegralOrEnumerationType()) {
      fail("an assignment at " + line(B) + " that is not followed");
      return false;
    }
    auto R = evalInt(B->getRHS(), Depth + 1);
    if (!R)
      return false;
    int64_t V = *R;
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(B)) {
      auto Old = Frames.back().Vars.find(VD);
      if (Old == Frames.back().Vars.end()) {
        fail("'" + VD->getName().str() + "' is read before it has a value");
        return false;
      }
      QualType CT = CA->getComputationLHSType();
      auto New =
          binop(BinaryOperator::getOpForCompoundAssignment(B->getOpcode()),
                convertTo(Old->second, CT, Ctx), *R,
                CT->isUnsignedIntegerOrEnumerationType());
      if (!New) {
        fail("the assignment at " + line(B) + " is not evaluated");
        return false;
      }
      V = convertTo(*New, CA->getComputationResultType(), Ctx);
    }
    Frames.back().Vars[VD] = convertTo(V, VD->getType(), Ctx);
    return true;
  }

  /// Whether running E leaves the frame's values as they are and the
  /// function running: every use of a local reads its value, and nothing
  /// throws or calls a function that does not return.
  bool readsOnly(const clang::Expr *E) {
    struct Check : DynamicRecursiveASTVisitor {
      HostEvaluator &H;
      std::set<const DeclRefExpr *> Reads;
      std::string Why;
      explicit Check(HostEvaluator &H) : H(H) {}
      bool VisitImplicitCastExpr(ImplicitCastExpr *C) override {
        if (C->getCastKind() == CK_LValueToRValue)
          if (auto *D = dyn_cast<DeclRefExpr>(C->getSubExpr()->IgnoreParens()))
            Reads.insert(D);
        return true;
      }
      // Visited before the operand: says "address" rather than "use".
      bool VisitUnaryOperator(UnaryOperator *U) override {
        auto *D = U->getOpcode() == UO_AddrOf
                      ? dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParens())
                      : nullptr;
        auto *VD = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
        if (VD && H.frameOf(VD))
          Why = "'" + VD->getName().str() + "' has its address taken at " +
                H.line(U);
        return Why.empty();
      }
      bool VisitDeclRefExpr(DeclRefExpr *D) override {
        auto *VD = dyn_cast<VarDecl>(D->getDecl());
        if (VD && H.frameOf(VD) && !Reads.count(D))
          Why = "'" + VD->getName().str() + "' is used at " + H.line(D) +
                " in a way that is not followed";
        return Why.empty();
      }
      bool VisitCXXThrowExpr(CXXThrowExpr *T) override {
        Why = "it throws at " + H.line(T);
        return false;
      }
      bool VisitCallExpr(CallExpr *C) override {
        const FunctionDecl *FD = C->getDirectCallee();
        if (FD && FD->isNoReturn())
          Why = "it calls '" + FD->getNameAsString() + "' at " + H.line(C);
        return Why.empty();
      }
    } C(*this);
    C.TraverseStmt(const_cast<clang::Expr *>(E));
    if (C.Why.empty())
      return true;
    fail(C.Why);
    return false;
  }

  //===--------------------------------------------------------------------===//
  // Constant arrays: block_sizes[i] of `int block_sizes[] = {32, 64, 128}`.
  //===--------------------------------------------------------------------===//

  /// The initializer of array A if its elements keep their values: A is
  /// const, or a local whose elements are only ever read. Sets At to where
  /// its elements are evaluated.
  const InitListExpr *arrayInit(const VarDecl *A, const Stmt *&At) {
    std::string N = A->getName().str();
    const auto *Init =
        A->getInit() ? dyn_cast<InitListExpr>(A->getInit()->IgnoreImplicit())
                     : nullptr;
    if (Init && !Init->isSemanticForm())
      Init = Init->getSemanticForm();
    if (!Init) {
      fail("'" + N + "' is not initialized from a braced list",
           "--param or --launch");
      return nullptr;
    }
    At = nullptr;
    bool Const = Ctx.getBaseElementType(A->getType()).isConstQualified();
    if (!A->isLocalVarDecl() || A->isStaticLocal()) {
      if (!Const) {
        fail("'" + N + "' is a global array that is not const", "--launch");
        return nullptr;
      }
      return Init;
    }
    const auto *FD =
        dyn_cast_or_null<FunctionDecl>(A->getParentFunctionOrMethod());
    if (!FD || !FD->getBody())
      return nullptr;
    auto &Map = ArrayMaps[FD->getBody()];
    if (!Map)
      Map = std::make_unique<ParentMap>(FD->getBody());
    if (!Const)
      if (const Stmt *W = arrayWrite(A, FD->getBody(), *Map)) {
        fail("'" + N + "' may be written at " + line(W), "--launch");
        return nullptr;
      }
    // Inside a called function, positions mean nothing (elementValue
    // takes only constants there); in the launching function the elements
    // are evaluated where the array is declared.
    if (frameOf(A) || !PM)
      At = Pos;
    else
      At = Map->getParent(A->getInit());
    return Init;
  }

  /// A use of local array A, in Body, that may change its elements:
  /// anything but reading an element, sizeof, and a range-based for with a
  /// non-reference or const loop variable.
  static const Stmt *arrayWrite(const VarDecl *A, const Stmt *Body,
                                ParentMap &Map) {
    struct Uses : DynamicRecursiveASTVisitor {
      const VarDecl *A;
      std::vector<const DeclRefExpr *> Refs;
      explicit Uses(const VarDecl *A) : A(A) {}
      bool VisitDeclRefExpr(DeclRefExpr *D) override {
        if (D->getDecl() == A)
          Refs.push_back(D);
        return true;
      }
    } U(A);
    U.TraverseStmt(const_cast<Stmt *>(Body));
    auto Up = [&](const Stmt *S) -> const Stmt * {
      return Map.getParentIgnoreParens(const_cast<Stmt *>(S));
    };
    for (const DeclRefExpr *D : U.Refs) {
      const Stmt *P = Up(D);
      if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(P))
        continue; // sizeof(a)
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(P)) {
        const auto *R = dyn_cast_or_null<CXXForRangeStmt>(Map.getParent(DS));
        if (R && R->getRangeStmt() == DS) {
          QualType T = R->getLoopVariable()->getType();
          if (!T->isReferenceType() ||
              T.getNonReferenceType().isConstQualified())
            continue;
        }
        return D;
      }
      // a[i], a[i][j]: through each decay and subscript to the element,
      // which must be read.
      const Stmt *Cur = D;
      for (;;) {
        const auto *Decay = dyn_cast_or_null<ImplicitCastExpr>(Up(Cur));
        if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
          break;
        const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(Up(Decay));
        if (!Sub || Sub->getBase()->IgnoreParens() != Decay)
          break;
        Cur = Sub;
      }
      const auto *Read = dyn_cast_or_null<ImplicitCastExpr>(Up(Cur));
      if (Cur == D || !Read || Read->getCastKind() != CK_LValueToRValue)
        return D;
    }
    return nullptr;
  }

  /// The initializer of element Index of the array Init initializes.
  const clang::Expr *elementInit(const InitListExpr *Init, QualType ArrayType,
                                 int64_t Index) {
    const auto *AT = Ctx.getAsConstantArrayType(ArrayType);
    if (!AT || Index < 0 || uint64_t(Index) >= AT->getSize().getZExtValue()) {
      fail("an array index out of bounds (" + std::to_string(Index) + ")");
      return nullptr;
    }
    if (uint64_t(Index) < Init->getNumInits())
      return Init->getInit(unsigned(Index));
    if (Init->hasArrayFiller())
      return Init->getArrayFiller();
    return nullptr;
  }

  std::optional<int64_t> evalElement(const ArraySubscriptExpr *AS,
                                     unsigned Depth) {
    // a[i][j]: indices outermost first.
    std::vector<const clang::Expr *> Indices;
    const clang::Expr *Base = AS;
    while (const auto *S =
               dyn_cast<ArraySubscriptExpr>(Base->IgnoreParenImpCasts())) {
      Indices.insert(Indices.begin(), S->getIdx());
      Base = S->getBase();
    }
    const auto *DR = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
    const auto *A = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!A || !Ctx.getAsConstantArrayType(A->getType())) {
      fail("not evaluated: an element of an array that is not declared "
           "with its elements at " +
               line(AS),
           "--launch");
      return std::nullopt;
    }
    // The array first: an index is needed (and its loop enumerated) only
    // if the elements are known.
    const Stmt *At = nullptr;
    const InitListExpr *Init = arrayInit(A, At);
    if (!Init)
      return std::nullopt;
    std::vector<int64_t> Idx;
    for (const clang::Expr *I : Indices) {
      auto V = evalInt(I, Depth + 1);
      if (!V)
        return std::nullopt;
      Idx.push_back(*V);
    }
    const clang::Expr *Elt = Init;
    QualType T = A->getType();
    for (int64_t I : Idx) {
      const auto *IL = dyn_cast<InitListExpr>(Elt->IgnoreImplicit());
      if (IL && !IL->isSemanticForm())
        IL = IL->getSemanticForm();
      Elt = IL ? elementInit(IL, T, I) : nullptr;
      if (!Elt)
        return std::nullopt;
      T = Ctx.getAsArrayType(T)->getElementType();
    }
    return elementValue(Elt, A, At, Depth);
  }

  std::optional<int64_t> elementValue(const clang::Expr *Elt, const VarDecl *A,
                                      const Stmt *At, unsigned Depth) {
    if (isa<ImplicitValueInitExpr>(Elt))
      return 0;
    if (!Frames.empty() && frameOf(A)) {
      Expr::EvalResult R;
      if (!Elt->isValueDependent() && Elt->EvaluateAsInt(R, Ctx))
        return toInt64(R.Val.getInt());
      fail("the elements of '" + A->getName().str() + "' are not constants");
      return std::nullopt;
    }
    return at<int64_t>(At, [&] { return evalInt(Elt, Depth + 1); });
  }

  /// ": " and what failed, for a loop's note.
  std::string because() const { return Why.empty() ? "" : ": " + Why.str(); }

  /// The values of `for (int I = START; COND; STEP)`.
  std::vector<int64_t> forValues(const ForStmt *F, const VarDecl *V,
                                 std::string &WhyNot) {
    std::vector<int64_t> Values;
    std::string N = V->getName().str();
    if (!V->getType()->isIntegralOrEnumerationType() || !V->getInit() ||
        !F->getCond() || !F->getInc() || F->getConditionVariable()) {
      WhyNot = "not a counted loop";
      return Values;
    }
    if (modifies(F->getBody(), V)) {
      WhyNot = "its body assigns '" + N + "'";
      return Values;
    }
    // What the condition and step read must not change in the loop.
    struct Vars : DynamicRecursiveASTVisitor {
      std::set<const VarDecl *> Out;
      bool VisitDeclRefExpr(DeclRefExpr *D) override {
        if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
          Out.insert(VD);
        return true;
      }
    } Read;
    Read.TraverseStmt(const_cast<clang::Expr *>(F->getCond()));
    Read.TraverseStmt(const_cast<clang::Expr *>(F->getInc()));
    for (const VarDecl *R : Read.Out)
      if (R != V && modifies(F, R)) {
        WhyNot = "'" + R->getName().str() + "' changes in the loop";
        return Values;
      }
    auto Start = evalInt(V->getInit());
    if (!Start) {
      WhyNot = "its start is not evaluated" + because();
      return Values;
    }
    int64_t Cur = convertTo(*Start, V->getType(), Ctx);
    for (;;) {
      Bindings[V] = Cur;
      auto C = evalCondition(F->getCond(), 0);
      if (!C) {
        WhyNot = "its condition is not evaluated" + because();
        break;
      }
      if (!*C)
        break;
      Values.push_back(Cur);
      if (Values.size() > MaxLoopLaunches) {
        WhyNot = "more than " + std::to_string(MaxLoopLaunches) + " iterations";
        break;
      }
      auto Next = step(F->getInc(), V, Cur);
      if (!Next) {
        WhyNot = "its step is not evaluated";
        break;
      }
      Cur = *Next;
    }
    Bindings.erase(V);
    return Values;
  }

  /// V after the step expression of its loop, from Cur (++i, i += 2,
  /// bs *= 2, i = i + 4).
  std::optional<int64_t> step(const clang::Expr *Inc, const VarDecl *V,
                              int64_t Cur) {
    Inc = Inc->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(Inc))
      Inc = EWC->getSubExpr()->IgnoreParens();
    auto IsV = [&](const clang::Expr *E) {
      const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return D && D->getDecl() == V;
    };
    if (const auto *U = dyn_cast<UnaryOperator>(Inc);
        U && U->isIncrementDecrementOp() && IsV(U->getSubExpr()))
      return convertTo(int64_t(uint64_t(Cur) + (U->isIncrementOp() ? 1 : -1)),
                       V->getType(), Ctx);
    const auto *B = dyn_cast<BinaryOperator>(Inc);
    if (!B || !B->isAssignmentOp() || !IsV(B->getLHS()))
      return std::nullopt;
    auto R = evalInt(B->getRHS());
    if (!R)
      return std::nullopt;
    if (B->getOpcode() == BO_Assign)
      return convertTo(*R, V->getType(), Ctx);
    const auto *CA = cast<CompoundAssignOperator>(B);
    QualType CT = CA->getComputationLHSType();
    auto New = binop(BinaryOperator::getOpForCompoundAssignment(B->getOpcode()),
                     convertTo(Cur, CT, Ctx), *R,
                     CT->isUnsignedIntegerOrEnumerationType());
    if (!New)
      return std::nullopt;
    return convertTo(convertTo(*New, CA->getComputationResultType(), Ctx),
                     V->getType(), Ctx);
  }

  /// The values of `for (int V : RANGE)` over a constant array or a
  /// braced list.
  std::vector<int64_t> rangeValues(const CXXForRangeStmt *R, const VarDecl *V,
                                   std::string &WhyNot) {
    std::vector<int64_t> Values;
    QualType VT = V->getType().getNonReferenceType();
    if (!VT->isIntegralOrEnumerationType()) {
      WhyNot = "its variable is not an integer";
      return Values;
    }
    if (modifies(R->getBody(), V)) {
      WhyNot = "its body assigns '" + V->getName().str() + "'";
      return Values;
    }
    const clang::Expr *Range = R->getRangeInit()->IgnoreImplicit();
    // for (int bs : {64, 128, 256})
    if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(Range)) {
      const auto *List =
          dyn_cast<InitListExpr>(IL->getSubExpr()->IgnoreImplicit());
      if (!List) {
        WhyNot = "its list is not evaluated";
        return Values;
      }
      if (!List->isSemanticForm())
        List = List->getSemanticForm();
      if (List->getNumInits() > MaxLoopLaunches) {
        WhyNot = "more than " + std::to_string(MaxLoopLaunches) + " iterations";
        return Values;
      }
      for (const clang::Expr *E : List->inits()) {
        auto X = evalInt(E);
        if (!X) {
          WhyNot = "an element is not evaluated" + because();
          return Values;
        }
        Values.push_back(convertTo(*X, VT, Ctx));
      }
      return Values;
    }
    const auto *DR = dyn_cast<DeclRefExpr>(Range->IgnoreParenImpCasts());
    const auto *A = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    const auto *AT = A ? Ctx.getAsConstantArrayType(A->getType()) : nullptr;
    if (!AT || !AT->getElementType()->isIntegralOrEnumerationType()) {
      WhyNot = "not over a constant array of integers or a braced list";
      return Values;
    }
    uint64_t Size = AT->getSize().getZExtValue();
    if (Size > MaxLoopLaunches) {
      WhyNot = "more than " + std::to_string(MaxLoopLaunches) + " iterations";
      return Values;
    }
    const Stmt *At = nullptr;
    const InitListExpr *Init = arrayInit(A, At);
    if (!Init) {
      WhyNot = Why.Text;
      return Values;
    }
    for (uint64_t I = 0; I < Size; ++I) {
      const clang::Expr *Elt = elementInit(Init, A->getType(), int64_t(I));
      std::optional<int64_t> X;
      if (Elt)
        X = elementValue(Elt, A, At, 0);
      if (!X) {
        WhyNot = "an element is not evaluated" + because();
        return Values;
      }
      Values.push_back(convertTo(*X, VT, Ctx));
    }
    return Values;
  }

  /// If's only statement, when it is a continue, break or return (and the
  /// if has no else): `if (bs > max_threads) continue;`.
  static const Stmt *onlyJump(const IfStmt *If) {
    if (If->getElse() || If->getInit() || If->getConditionVariable())
      return nullptr;
    const Stmt *Then = If->getThen();
    if (const auto *CS = dyn_cast<CompoundStmt>(Then))
      Then = CS->size() == 1 ? CS->body_front() : nullptr;
    return isa_and_nonnull<ContinueStmt, BreakStmt, ReturnStmt>(Then) ? Then
                                                                      : nullptr;
  }

  /// The loop (or, for a break, switch) a jump at S leaves.
  const Stmt *jumpTarget(const Stmt *S, bool IsBreak) {
    while ((S = PM->getParent(S)))
      if (isLoop(S) || (IsBreak && isa<SwitchStmt>(S)))
        return S;
    return nullptr;
  }

  /// The initializer of a member read from a struct variable: S.F where S
  /// is initialized from a list (Param p{a, b, m}; Param p = {...}) and
  /// never assigned, nor its address taken; At is S's declaration, where
  /// the initializer's own variables are evaluated.
  struct FieldValue {
    const clang::Expr *Init;
    const Stmt *At;
  };
  std::optional<FieldValue> fieldInit(const MemberExpr *M, unsigned Depth) {
    const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!FD || M->isArrow() || FD->isBitField() || Depth > MaxDepth)
      return std::nullopt;
    const auto *DR = dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts());
    const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!VD)
      return std::nullopt;
    if (frameOf(VD)) {
      fail("'" + VD->getName().str() + "' is not an integer");
      return std::nullopt;
    }
    if (isa<ParmVarDecl>(VD) || !VD->getInit()) {
      noValue(VD);
      return std::nullopt;
    }
    if (isModifiedAfterInit(VD)) {
      notFollowed(VD, "is assigned after its declaration");
      return std::nullopt;
    }
    const clang::Expr *Init = VD->getInit()->IgnoreImplicit();
    const RecordDecl *RD = FD->getParent();
    unsigned Index = FD->getFieldIndex();
    if (const auto *CXXRD = dyn_cast<CXXRecordDecl>(RD))
      Index += CXXRD->getNumBases(); // Aggregate bases come first.
    const clang::Expr *Elt = nullptr;
    if (const auto *IL = dyn_cast<InitListExpr>(Init)) {
      if (!IL->isSemanticForm())
        IL = IL->getSemanticForm();
      if (IL && IL->getType()->getAsRecordDecl() == RD &&
          Index < IL->getNumInits())
        Elt = IL->getInit(Index);
    } else if (const auto *PL = dyn_cast<CXXParenListInitExpr>(Init)) {
      if (Index < PL->getInitExprs().size())
        Elt = PL->getInitExprs()[Index];
      else
        Elt = PL->getArrayFiller(); // Members with no initializer.
    }
    if (!Elt)
      return std::nullopt;
    if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(Elt))
      Elt = DI->getExpr(); // The member's default initializer.
    const Stmt *At = PM ? PM->getParent(VD->getInit()) : nullptr;
    return FieldValue{Elt, At ? At : Pos};
  }

  /// Evaluates E as of statement At (values of locals assigned before it).
  template <typename T, typename Fn>
  std::optional<T> at(const Stmt *At, Fn Eval) {
    const Stmt *Saved = Pos;
    Pos = At;
    std::optional<T> R = Eval();
    Pos = Saved;
    return R;
  }

  static bool isVar(const clang::Expr *E, const VarDecl *VD) {
    auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == VD;
  }

  enum class DefKind { None, Found, Fail };

  /// Follows the structure of S for a definition search: a compound
  /// statement is searched last statement first, an if only on the side its
  /// condition takes (Fail if the condition does not evaluate). nullopt if S
  /// is neither.
  template <typename Fn>
  std::optional<DefKind> searchStructure(const Stmt *S, const VarDecl *VD,
                                         unsigned Depth, Fn Search) {
    if (auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (auto It = CS->body_rbegin(); It != CS->body_rend(); ++It) {
        DefKind K = Search(*It);
        if (K != DefKind::None)
          return K;
      }
      return DefKind::None;
    }
    if (auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getInit() || If->getConditionVariable()) {
        notFollowed(VD, "is assigned in the if at " + line(If));
        return DefKind::Fail;
      }
      bool Had = !Why.empty();
      auto C = at<int64_t>(
          S, [&] { return evalCondition(If->getCond(), Depth + 1); });
      if (!C) {
        if (!Had && Why.empty())
          notFollowed(VD, "is assigned in the if at " + line(If) +
                              ", whose condition is not evaluated");
        hintFor(VD, Had);
        return DefKind::Fail;
      }
      // A side that does not assign leaves the value from before the if.
      const Stmt *Taken = *C ? If->getThen() : If->getElse();
      return Taken ? Search(Taken) : DefKind::None;
    }
    return std::nullopt;
  }

  /// The last definition of integer VD within S (a statement before the
  /// point of interest). Straight-line assignments and `if`s whose
  /// condition evaluates are followed; anything else that modifies VD
  /// (loops, address taken) makes the value unknown. Every Fail has said
  /// why.
  DefKind lastDef(const Stmt *S, const VarDecl *VD, int64_t &V,
                  unsigned Depth) {
    if (!S)
      return DefKind::None;
    if (auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (D == VD) {
          if (!VD->getInit()) {
            noValue(VD);
            return DefKind::Fail;
          }
          bool Had = !Why.empty();
          auto R =
              at<int64_t>(S, [&] { return evalInt(VD->getInit(), Depth + 1); });
          if (!R) {
            hintFor(VD, Had);
            return DefKind::Fail;
          }
          V = *R;
          return DefKind::Found;
        }
      return DefKind::None;
    }
    if (!modifies(S, VD))
      return DefKind::None;
    if (auto K = searchStructure(S, VD, Depth, [&](const Stmt *Sub) {
          return lastDef(Sub, VD, V, Depth);
        }))
      return *K;
    if (auto *B = dyn_cast<BinaryOperator>(S)) {
      if (!B->isAssignmentOp() || !isVar(B->getLHS(), VD)) {
        modifiedBy(VD, S);
        return DefKind::Fail;
      }
      bool Had = !Why.empty();
      auto R = at<int64_t>(S, [&] { return evalInt(B->getRHS(), Depth + 1); });
      if (!R) {
        hintFor(VD, Had);
        return DefKind::Fail;
      }
      if (B->getOpcode() == BO_Assign) {
        V = convertTo(*R, VD->getType(), Ctx);
        return DefKind::Found;
      }
      auto Old = valueAt(VD, S, Depth + 1);
      if (!Old)
        return DefKind::Fail;
      const auto *CA = cast<CompoundAssignOperator>(B);
      QualType CT = CA->getComputationLHSType();
      auto New =
          binop(BinaryOperator::getOpForCompoundAssignment(B->getOpcode()),
                convertTo(*Old, CT, Ctx), *R,
                CT->isUnsignedIntegerOrEnumerationType());
      if (!New) {
        modifiedBy(VD, S);
        return DefKind::Fail;
      }
      V = convertTo(convertTo(*New, CA->getComputationResultType(), Ctx),
                    VD->getType(), Ctx);
      return DefKind::Found;
    }
    if (auto *U = dyn_cast<UnaryOperator>(S)) {
      if (!U->isIncrementDecrementOp() || !isVar(U->getSubExpr(), VD)) {
        modifiedBy(VD, S);
        return DefKind::Fail;
      }
      auto Old = valueAt(VD, S, Depth + 1);
      if (!Old)
        return DefKind::Fail;
      V = convertTo(int64_t(uint64_t(*Old) + (U->isIncrementOp() ? 1 : -1)),
                    VD->getType(), Ctx);
      return DefKind::Found;
    }
    if (auto *E = dyn_cast<ExprWithCleanups>(S))
      return lastDef(E->getSubExpr(), VD, V, Depth);
    modifiedBy(VD, S);
    return DefKind::Fail;
  }

  static bool modifies(const Stmt *S, const VarDecl *VD) {
    ModificationFinder Finder(VD);
    Finder.TraverseStmt(const_cast<Stmt *>(S));
    return Finder.Found;
  }

  /// Visits the statements that run before At, nearest first, until Visit
  /// returns Found or Fail. An enclosing loop that modifies VD, or whose
  /// variable VD is, is a Fail: the value would depend on the iteration.
  template <typename Fn>
  DefKind scanBefore(const VarDecl *VD, const Stmt *At, Fn Visit) {
    const Stmt *Cur = At;
    while (const Stmt *Parent = PM->getParent(Cur)) {
      if (auto *CS = dyn_cast<CompoundStmt>(Parent)) {
        bool Before = false;
        for (auto It = CS->body_rbegin(); It != CS->body_rend(); ++It) {
          if (*It == Cur) {
            Before = true;
            continue;
          }
          if (!Before)
            continue;
          DefKind K = Visit(*It);
          if (K != DefKind::None)
            return K;
        }
      } else if (isLoop(Parent) && loopVariable(Parent) == VD) {
        auto Note = LoopNotes.find(VD);
        notFollowed(VD,
                    "is the variable of the loop at " + line(Parent) +
                        (Note == LoopNotes.end() ? std::string()
                                                 : " (" + Note->second + ")"));
        return DefKind::Fail;
      } else if (isLoop(Parent) && modifies(Parent, VD)) {
        notFollowed(VD, "is assigned in the loop at " + line(Parent) +
                            " around the launch");
        return DefKind::Fail;
      }
      Cur = Parent;
    }
    return DefKind::None;
  }

  /// The value of local VD just before statement At.
  std::optional<int64_t> valueAt(const VarDecl *VD, const Stmt *At,
                                 unsigned Depth) {
    if (Depth > MaxDepth) {
      fail("the expression nests too deeply");
      return std::nullopt;
    }
    int64_t V = 0;
    DefKind K = scanBefore(
        VD, At, [&](const Stmt *S) { return lastDef(S, VD, V, Depth); });
    if (K == DefKind::Found)
      return V;
    if (K == DefKind::None)
      noValue(VD);
    return std::nullopt;
  }

  /// Within S, the last whole definition of dim3 VD (into Base) and the
  /// member assignments after it (into Members, nearest first).
  DefKind dim3Def(const Stmt *S, const VarDecl *VD,
                  std::vector<std::pair<int, int64_t>> &Members,
                  std::optional<Dim3> &Base, unsigned Depth) {
    if (auto *EWC = dyn_cast<ExprWithCleanups>(S))
      S = EWC->getSubExpr();
    if (auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (D == VD) {
          bool Had = !Why.empty();
          if (VD->getInit())
            Base =
                at<Dim3>(S, [&] { return evalDim3(VD->getInit(), Depth + 1); });
          if (!Base)
            hintFor(VD, Had);
          return Base ? DefKind::Found : DefKind::Fail;
        }
      return DefKind::None;
    }
    if (!modifies(S, VD))
      return DefKind::None;
    if (auto K = searchStructure(S, VD, Depth, [&](const Stmt *Sub) {
          return dim3Def(Sub, VD, Members, Base, Depth);
        }))
      return *K;
    const clang::Expr *LHS = nullptr, *RHS = nullptr;
    if (auto *B = dyn_cast<BinaryOperator>(S);
        B && B->getOpcode() == BO_Assign) {
      LHS = B->getLHS();
      RHS = B->getRHS();
    } else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
               OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
      LHS = OC->getArg(0);
      RHS = OC->getArg(1);
    }
    if (!LHS) {
      modifiedBy(VD, S);
      return DefKind::Fail;
    }
    bool Had = !Why.empty();
    if (auto *ME = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts());
        ME && isVar(ME->getBase(), VD)) {
      StringRef F = ME->getMemberDecl()->getName();
      if (F.size() != 1 || F[0] < 'x' || F[0] > 'z') {
        modifiedBy(VD, S);
        return DefKind::Fail;
      }
      auto V = at<int64_t>(S, [&] { return evalInt(RHS, Depth + 1); });
      if (!V) {
        hintFor(VD, Had);
        return DefKind::Fail;
      }
      Members.emplace_back(F[0] - 'x', *V);
      return DefKind::None;
    }
    if (!isVar(LHS, VD)) {
      modifiedBy(VD, S);
      return DefKind::Fail;
    }
    Base = at<Dim3>(S, [&] { return evalDim3(RHS, Depth + 1); });
    if (!Base)
      hintFor(VD, Had);
    return Base ? DefKind::Found : DefKind::Fail;
  }

  /// The value of local dim3 VD just before At: its last whole assignment
  /// or initializer, then the member assignments (grid.x = ...) after it.
  std::optional<Dim3> dim3At(const VarDecl *VD, const Stmt *At,
                             unsigned Depth) {
    std::vector<std::pair<int, int64_t>> Members; // Nearest first.
    std::optional<Dim3> Base;
    DefKind K = scanBefore(VD, At, [&](const Stmt *S) {
      return dim3Def(S, VD, Members, Base, Depth);
    });
    if (K != DefKind::Found) {
      if (K == DefKind::None)
        noValue(VD);
      return std::nullopt;
    }
    for (auto MI = Members.rbegin(); MI != Members.rend(); ++MI)
      Base->V[MI->first] = MI->second;
    return Base;
  }

  std::optional<int64_t> evalDecl(const ValueDecl *D, unsigned Depth) {
    if (auto *EC = dyn_cast<EnumConstantDecl>(D))
      return EC->getInitVal().getExtValue();
    auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      return std::nullopt;
    // A parameter or local of a function being called: its frame's value,
    // whatever --param says of its name.
    if (Frame *F = frameOf(VD)) {
      auto It = F->Vars.find(VD);
      if (It != F->Vars.end())
        return It->second;
      if (!VD->getType().getNonReferenceType()->isIntegralOrEnumerationType())
        fail("'" + VD->getName().str() + "' is not an integer");
      else
        fail("'" + VD->getName().str() + "' is read before it has a value");
      return std::nullopt;
    }
    if (auto B = Bindings.find(VD); B != Bindings.end())
      return B->second;
    auto It = Params.find(VD->getName().str());
    if (It != Params.end()) {
      checkFits(VD, It->second);
      return It->second;
    }
    if (isa<ParmVarDecl>(VD)) {
      noValue(VD);
      return std::nullopt;
    }
    if (PM && Pos && VD->isLocalVarDecl()) {
      Needed.insert(VD);
      return valueAt(VD, Pos, Depth + 1);
    }
    if (isModifiedAfterInit(VD)) {
      notFollowed(VD, "is assigned after its declaration");
      return std::nullopt;
    }
    if (const clang::Expr *Init = VD->getInit()) {
      bool Had = !Why.empty();
      auto V = evalInt(Init, Depth + 1);
      if (!V)
        hintFor(VD, Had);
      return V;
    }
    noValue(VD);
    return std::nullopt;
  }
};

/// Traverses D with Inner, keeping Stack the functions being traversed,
/// unless D is in a system header (the CUDA and C++ headers are most of the
/// unit; kernels and launches live in user code) or a host function clang
/// rejected (Skip).
bool traverseUserDecl(Decl *D, ASTContext &Ctx,
                      llvm::function_ref<bool(const Decl *)> Skip,
                      std::vector<const FunctionDecl *> &Stack,
                      llvm::function_ref<bool()> Inner) {
  if (D && !isa<TranslationUnitDecl>(D) &&
      Ctx.getSourceManager().isInSystemHeader(D->getLocation()))
    return true;
  if (D && Skip && isa<FunctionDecl>(D) && !D->hasAttr<CUDAGlobalAttr>() &&
      Skip(D))
    return true;
  auto *FD = dyn_cast_or_null<FunctionDecl>(D);
  if (FD)
    Stack.push_back(FD);
  bool Continue = Inner();
  if (FD)
    Stack.pop_back();
  return Continue;
}

class Collector : public DynamicRecursiveASTVisitor {
public:
  Collector(ASTContext &Ctx, HostFacts &Facts,
            const std::map<std::string, int64_t> &Params)
      : Ctx(Ctx), Facts(Facts), Params(Params), Names(Ctx) {
    ShouldVisitTemplateInstantiations = true;
  }

  /// Functions clang rejected: their launches are not evaluated.
  llvm::function_ref<bool(const Decl *)> Skip = nullptr;

  bool TraverseDecl(Decl *D) override {
    return traverseUserDecl(D, Ctx, Skip, Functions, [&] {
      return DynamicRecursiveASTVisitor::TraverseDecl(D);
    });
  }

  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *TD) override {
    FunctionDecl *FD = TD->getTemplatedDecl();
    if (!FD->hasAttr<CUDAGlobalAttr>() || !TD->isThisDeclarationADefinition())
      return true;
    if (TD->specializations().empty())
      Facts.UninstantiatedTemplates.push_back(
          {TD->getNameAsString(),
           toLoc(Ctx.getSourceManager(), TD->getLocation())});
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) override {
    if (!FD->hasAttr<CUDAGlobalAttr>() || !FD->doesThisDeclarationHaveABody())
      return true;
    if (FD->isDependentContext())
      return true;
    KernelDecl K;
    K.MangledName = Names.getName(FD);
    for (const KernelDecl &Existing : Facts.Kernels)
      if (Existing.MangledName == K.MangledName)
        return true;
    K.PlainName = FD->getNameAsString();
    K.QualifiedPlain = FD->getQualifiedNameAsString();
    // Anonymous namespaces are not part of a name anyone writes.
    PrintingPolicy Policy = Ctx.getPrintingPolicy();
    Policy.SuppressUnwrittenScope = true;
    for (bool Qualified : {false, true}) {
      std::string S;
      llvm::raw_string_ostream OS(S);
      FD->getNameForDiagnostic(OS, Policy, Qualified);
      (Qualified ? K.Name : K.ShortName) = OS.str();
    }
    K.Loc = toLoc(Ctx.getSourceManager(), FD->getLocation());
    for (const ParmVarDecl *P : FD->parameters()) {
      K.ParamNames.push_back(P->getName().str());
      QualType T = P->getType();
      if (T->isIntegerType())
        K.IntParamTypes[P->getName().str()] = {Ctx.getIntWidth(T),
                                               T->isSignedIntegerType()};
      else if (T->isPointerType())
        K.PointerParams.insert(P->getName().str());
    }
    // An instantiation's attribute has its template arguments substituted.
    if (const auto *LB = FD->getAttr<CUDALaunchBoundsAttr>()) {
      const clang::Expr *Max = LB->getMaxThreads();
      clang::Expr::EvalResult R;
      if (Max && !Max->isValueDependent() && Max->EvaluateAsInt(R, Ctx) &&
          R.Val.getInt().isStrictlyPositive())
        K.MaxThreadsPerBlock = R.Val.getInt().getExtValue();
    }
    if (auto *Args = FD->getTemplateSpecializationArgs()) {
      if (auto *Tmpl = FD->getPrimaryTemplate()) {
        auto *TPL = Tmpl->getTemplateParameters();
        for (unsigned I = 0; I < Args->size() && I < TPL->size(); ++I) {
          std::string V;
          llvm::raw_string_ostream VS(V);
          Args->get(I).print(Ctx.getPrintingPolicy(), VS,
                             /*IncludeType=*/false);
          K.TemplateArgs[TPL->getParam(I)->getName().str()] = VS.str();
        }
      }
    }
    if (FD->getTemplateSpecializationArgs() && FD->getBody()) {
      struct Uses : DynamicRecursiveASTVisitor {
        ASTContext &Ctx;
        KernelDecl &K;
        Uses(ASTContext &Ctx, KernelDecl &K) : Ctx(Ctx), K(K) {}
        bool VisitSubstNonTypeTemplateParmExpr(
            SubstNonTypeTemplateParmExpr *E) override {
          clang::Expr::EvalResult R;
          const NonTypeTemplateParmDecl *P = E->getParameter();
          if (!P || !E->getReplacement()->EvaluateAsInt(R, Ctx))
            return true;
          SourceLoc L = toLoc(Ctx.getSourceManager(), E->getBeginLoc());
          K.TemplateUses.push_back(
              {L.Line, P->getName().str(), R.Val.getInt().getExtValue()});
          return true;
        }
      } U(Ctx, K);
      U.TraverseStmt(FD->getBody());
    }
    Facts.Kernels.push_back(std::move(K));
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Call) override {
    auto *FD = Call->getDirectCallee();
    if (!FD || FD->isDependentContext())
      return true;
    // A launch in a host template's own body: its sizes depend on the
    // template's parameters; each instantiation's copy is visited instead.
    if (const FunctionDecl *Host = functionOf(Call);
        Host && Host->isDependentContext())
      return true;
    if (!Call->getConfig())
      return true;
    KernelLaunch Site;
    Site.Source = LaunchSource::Call;
    Site.KernelMangledName = Names.getName(FD);
    Site.Loc = toLoc(Ctx.getSourceManager(), Call->getBeginLoc());
    Site.HostNames = hostNames(Call);
    const FunctionDecl *F = functionOf(Call);
    // A map's box computed from the launching function's parameters
    // (`box[1] = box_rows`) takes their values from the callers, as the
    // launch's sizes do.
    std::map<unsigned, std::vector<const ParmVarDecl *>> BoxNeeds;
    std::vector<const ParmVarDecl *> Want;
    for (unsigned I = 0; I < Call->getNumArgs() && I < FD->getNumParams(); ++I)
      if (isTensorMapType(FD->getParamDecl(I)->getType())) {
        std::vector<const ParmVarDecl *> Needs;
        TensorMapBox Box = tensorMapBox(Ctx, Call->getArg(I), {}, &Needs);
        llvm::erase_if(Needs, [&](const ParmVarDecl *P) {
          return !F || P->getDeclContext() != F;
        });
        if (Box.known() || Needs.empty()) {
          mergeTensorMapBox(Facts.TensorMaps[Site.KernelMangledName][I], Box);
          continue;
        }
        BoxNeeds[I] = Needs;
        for (const ParmVarDecl *P : Needs)
          if (!llvm::is_contained(Want, P))
            Want.push_back(P);
      }
    ParentMap *PM = parentMapFor(Call);
    // The launch in its own function; if that lacks values of the
    // function's parameters, in each context its callers give it.
    // An evaluation stops at the first value it lacks: the parameters
    // wanted are found a few at a time, with the callers' values of those
    // found so far.
    std::vector<CallContext> Contexts(1);
    for (unsigned Round = 0; F && Round < 8; ++Round) {
      std::vector<const ParmVarDecl *> Unvalued;
      evaluate(Site, Call, PM, Contexts.front().Bindings, {}, nullptr,
               &Unvalued, /*Sample=*/false);
      size_t Before = Want.size();
      for (const ParmVarDecl *U : Unvalued)
        if (!llvm::is_contained(Want, U))
          Want.push_back(U);
      // The boxes' parameters are wanted from the first round on.
      if (Want.size() == Before && (Round > 0 || BoxNeeds.empty()))
        break;
      std::vector<CallContext> FromCallers = callerContexts(F, Want, 0);
      if (FromCallers.empty())
        break;
      Contexts = std::move(FromCallers);
    }
    addBoxesFromCallers(Site, Call, BoxNeeds, Contexts);
    size_t Start = Facts.Launches.size();
    for (const CallContext &C : Contexts) {
      // Past the file's limits the first context still gives the launch
      // (which says the limit was reached); the others are left.
      if (&C != &Contexts.front() && FileLimits::expired())
        break;
      launchesIn(Site, Call, PM, C);
    }
    // Contexts that give the same launch (two callers passing the same
    // sizes) are one launch.
    for (size_t I = Start + 1; I < Facts.Launches.size();) {
      const KernelLaunch &L = Facts.Launches[I];
      bool Same =
          std::any_of(Facts.Launches.begin() + Start,
                      Facts.Launches.begin() + I, [&](const KernelLaunch &P) {
                        auto Dims = [](const std::optional<Dim3> &D) {
                          return D ? D->V : std::array<int64_t, 3>{0, 0, 0};
                        };
                        return Dims(P.Grid) == Dims(L.Grid) &&
                               Dims(P.Block) == Dims(L.Block) &&
                               P.SharedBytes == L.SharedBytes &&
                               P.SharedBytesUnknown == L.SharedBytesUnknown &&
                               P.Args == L.Args && P.Unresolved == L.Unresolved;
                      });
      if (Same)
        Facts.Launches.erase(Facts.Launches.begin() + I);
      else
        ++I;
    }
    return true;
  }

private:
  struct CallContext;

  /// The boxes of the maps (argument index -> the launching function's
  /// parameters they need) in each of the callers' contexts: one box if
  /// they all give the same, else the bytes unknown naming both.
  void addBoxesFromCallers(
      const KernelLaunch &Site, const CUDAKernelCallExpr *Call,
      const std::map<unsigned, std::vector<const ParmVarDecl *>> &BoxNeeds,
      const std::vector<CallContext> &Contexts) {
    for (const auto &[I, Needs] : BoxNeeds) {
      TensorMapBox &Into = Facts.TensorMaps[Site.KernelMangledName][I];
      for (const CallContext &C : Contexts) {
        ParamValues Values;
        for (const auto &[V, Value] : C.Bindings)
          if (auto *P = dyn_cast<ParmVarDecl>(V))
            Values[P] = Value;
        mergeTensorMapBox(Into, tensorMapBox(Ctx, Call->getArg(I), Values));
      }
    }
  }

  /// Values of the launching function's parameters from one of its
  /// callers (one iteration of the loops around the call, one context of
  /// the caller's own function), and what says where they come from.
  struct CallContext {
    std::map<const VarDecl *, int64_t> Bindings;
    std::string Values; ///< "B=8, T=1024"
    /// The calls, innermost first: "50", "74 with j=0".
    std::vector<std::string> Calls;
    std::string label() const {
      if (Calls.empty())
        return "";
      std::string S = Values + (Values.empty() ? "" : " ") + "from the call" +
                      (Calls.size() > 1 ? "s at lines " : " at line ");
      for (size_t I = 0; I < Calls.size(); ++I)
        S += (I ? ", " : "") + Calls[I];
      return S;
    }
  };

  /// The iterations of the loops around At whose variables Needed holds
  /// (and --param does not give), outermost first, that reach At: each
  /// one's bindings (on top of Base) and label ("bs=64").
  struct Iterations {
    bool Enumerated = false; ///< Some loop was enumerated.
    std::vector<std::map<const VarDecl *, int64_t>> Each;
    std::vector<std::string> Labels;
    /// Why a needed loop variable is not enumerated, said when its value
    /// is needed.
    std::map<const VarDecl *, std::string> Notes;
    /// Why At never runs ("the loop at line 9 ... runs no iteration").
    std::string Never;
  };
  Iterations iterationsAt(const Stmt *At, ParentMap *PM,
                          const std::set<const VarDecl *> &Needed,
                          const std::map<const VarDecl *, int64_t> &Base) {
    Iterations It;
    std::vector<const Stmt *> Loops;
    std::vector<const VarDecl *> Vars;
    std::vector<std::vector<int64_t>> Values;
    size_t Count = 1;
    for (const Stmt *S = At; PM && (S = PM->getParent(S));) {
      const VarDecl *V = isLoop(S) ? loopVariable(S) : nullptr;
      if (!V || !Needed.count(V))
        continue;
      HostEvaluator LoopEval(Ctx, Params, S, PM);
      LoopEval.Bindings = Base;
      std::string WhyNot;
      std::vector<int64_t> Vs = LoopEval.loopValues(S, V, WhyNot);
      if (!WhyNot.empty()) {
        It.Notes[V] = "not enumerated: " + WhyNot;
        continue;
      }
      if (Vs.empty()) {
        It.Never = "the loop at line " + std::to_string(lineOf(S)) +
                   " around the launch runs no iteration";
        return It;
      }
      Loops.insert(Loops.begin(), S);
      Vars.insert(Vars.begin(), V);
      Values.insert(Values.begin(), std::move(Vs));
      Count *= Values.front().size();
      if (Count > MaxLoopLaunches)
        break;
    }
    if (Count > MaxLoopLaunches) {
      for (const VarDecl *V : Vars)
        It.Notes[V] = "not enumerated: the loops around the launch give "
                      "more than " +
                      std::to_string(MaxLoopLaunches) + " launches";
      Loops.clear();
    }
    if (Loops.empty())
      return It;
    It.Enumerated = true;
    // In the order the program runs them.
    std::map<const VarDecl *, int64_t> Bound = Base;
    std::function<int(size_t)> Walk = [&](size_t J) -> int {
      if (J == Loops.size()) {
        HostEvaluator Guards(Ctx, Params, At, PM);
        Guards.Bindings = Bound;
        HostEvaluator::Reach R = Guards.reaches(At, Loops);
        if (R.Runs) {
          std::string Label;
          for (const VarDecl *V : Vars)
            Label += (Label.empty() ? "" : ", ") + V->getName().str() + "=" +
                     std::to_string(Bound[V]);
          It.Each.push_back(Bound);
          It.Labels.push_back(std::move(Label));
        }
        return R.Stops;
      }
      for (int64_t V : Values[J]) {
        if (FileLimits::expired())
          return -1;
        Bound[Vars[J]] = V;
        int Stop = Walk(J + 1);
        if (Stop < int(J))
          return Stop; // A return, or a break of an outer loop.
        if (Stop == int(J))
          break;
      }
      return int(Loops.size());
    };
    Walk(0);
    if (It.Each.empty())
      It.Never = FileLimits::expired()
                     ? FileLimits::reason()
                     : "no iteration of the loops around the launch reaches it";
    return It;
  }

  /// The launches of Call in context C: one, or one per iteration of the
  /// loops around it that it needs.
  void launchesIn(const KernelLaunch &Site, const CUDAKernelCallExpr *Call,
                  ParentMap *PM, const CallContext &C) {
    auto Labelled = [&](KernelLaunch L, const std::string &Iteration) {
      L.Iteration = Iteration;
      if (!C.Calls.empty())
        L.Iteration += (L.Iteration.empty() ? "" : "; ") + C.label();
      return L;
    };
    std::set<const VarDecl *> Needed;
    KernelLaunch Once = evaluate(Site, Call, PM, C.Bindings, {}, &Needed);
    Iterations It = iterationsAt(Call, PM, Needed, C.Bindings);
    if (!It.Never.empty()) {
      // The launch never runs: no size to report, and no guess.
      Once.Grid.reset();
      Once.Block.reset();
      Once.Samples.clear();
      Once.Unresolved = It.Never;
      Facts.Launches.push_back(Labelled(std::move(Once), ""));
      return;
    }
    if (!It.Enumerated) {
      Facts.Launches.push_back(Labelled(
          It.Notes.empty()
              ? std::move(Once)
              : evaluate(Site, Call, PM, C.Bindings, It.Notes, nullptr),
          ""));
      return;
    }
    size_t First = Facts.Launches.size();
    for (size_t I = 0; I < It.Each.size(); ++I)
      Facts.Launches.push_back(
          Labelled(evaluate(Site, Call, PM, It.Each[I], It.Notes, nullptr),
                   It.Labels[I]));
    // Iterations that all fail alike (a size the loop does not decide has
    // no value) are one unresolved launch, not one per iteration.
    auto Begin = Facts.Launches.begin() + First;
    if (Facts.Launches.size() - First > 1 &&
        std::all_of(Begin, Facts.Launches.end(), [&](const KernelLaunch &L) {
          return !L.Unresolved.empty() && L.Unresolved == Begin->Unresolved &&
                 L.Args == Begin->Args;
        })) {
      Begin->Iteration = Labelled(*Begin, "").Iteration;
      Facts.Launches.erase(Begin + 1, Facts.Launches.end());
    }
  }

  /// Contexts of F from the calls of it in the translation unit: the values
  /// of its parameters Want that each call (each iteration of the loops
  /// around it, each context of its own function, up to a depth) passes.
  std::vector<CallContext>
  callerContexts(const FunctionDecl *F,
                 const std::vector<const ParmVarDecl *> &Want, unsigned Depth) {
    std::vector<CallContext> Out;
    if (Depth >= MaxCallerDepth || Want.empty())
      return Out;
    std::vector<const ParmVarDecl *> Sorted = Want;
    llvm::sort(Sorted, [](const ParmVarDecl *A, const ParmVarDecl *B) {
      return A->getFunctionScopeIndex() < B->getFunctionScopeIndex();
    });
    auto It = callers().find(F->getCanonicalDecl());
    if (It == callers().end())
      return Out;
    for (const auto &[CE, G] : It->second) {
      if (G->isDependentContext() || FileLimits::expired())
        continue;
      ParentMap *PM = parentMapOf(G);
      // Want's values at CE with Bindings, or nullopt; adds what they need
      // of G's loops and parameters.
      auto ArgsAt = [&](const std::map<const VarDecl *, int64_t> &Bindings,
                        std::set<const VarDecl *> *Needed,
                        std::vector<const ParmVarDecl *> *Unvalued) {
        std::map<const VarDecl *, int64_t> Vals;
        for (const ParmVarDecl *P : Want) {
          unsigned I = P->getFunctionScopeIndex();
          if (I >= CE->getNumArgs())
            continue;
          HostEvaluator E(Ctx, Params, CE, PM);
          E.Bindings = Bindings;
          if (auto V = E.evalInt(CE->getArg(I)))
            Vals[P] = *V;
          if (Needed)
            Needed->insert(E.Needed.begin(), E.Needed.end());
          if (Unvalued)
            for (const ParmVarDecl *U : E.UnvaluedParams)
              if (!llvm::is_contained(*Unvalued, U))
                Unvalued->push_back(U);
        }
        return Vals;
      };
      std::set<const VarDecl *> Needed;
      std::vector<const ParmVarDecl *> UnvaluedOfG;
      ArgsAt({}, &Needed, &UnvaluedOfG);
      std::vector<CallContext> Outer(1);
      if (!UnvaluedOfG.empty()) {
        Outer = callerContexts(G, UnvaluedOfG, Depth + 1);
        if (Outer.empty())
          Outer.resize(1);
      }
      for (const CallContext &O : Outer) {
        Iterations Its = iterationsAt(CE, PM, Needed, O.Bindings);
        if (!Its.Never.empty())
          continue;
        if (!Its.Enumerated) {
          Its.Each.push_back(O.Bindings);
          Its.Labels.push_back("");
        }
        for (size_t I = 0; I < Its.Each.size(); ++I) {
          // A call that does not give every value is kept, with those it
          // gives: the launch then says what is missing, and where from.
          CallContext C;
          C.Bindings = ArgsAt(Its.Each[I], nullptr, nullptr);
          for (const ParmVarDecl *P : Sorted)
            if (C.Bindings.count(P))
              C.Values += (C.Values.empty() ? "" : ", ") + P->getName().str() +
                          "=" + std::to_string(C.Bindings[P]);
          C.Calls.push_back(
              std::to_string(lineOf(CE)) +
              (Its.Labels[I].empty() ? "" : " with " + Its.Labels[I]));
          llvm::append_range(C.Calls, O.Calls);
          Out.push_back(std::move(C));
          if (Out.size() >= MaxLoopLaunches)
            return Out;
        }
      }
    }
    return Out;
  }

  /// The direct calls of each function (canonical declaration) in user
  /// code, with the function each is in; found on first use.
  using CallList =
      std::vector<std::pair<const CallExpr *, const FunctionDecl *>>;
  std::map<const FunctionDecl *, CallList> &callers() {
    if (Callers)
      return *Callers;
    Callers.emplace();
    struct Finder : DynamicRecursiveASTVisitor {
      Collector &C;
      std::vector<const FunctionDecl *> Fns;
      explicit Finder(Collector &C) : C(C) {
        ShouldVisitTemplateInstantiations = true;
      }
      bool TraverseDecl(Decl *D) override {
        return traverseUserDecl(D, C.Ctx, C.Skip, Fns, [&] {
          return DynamicRecursiveASTVisitor::TraverseDecl(D);
        });
      }
      bool VisitCallExpr(CallExpr *CE) override {
        if (Fns.empty() || isa<CUDAKernelCallExpr, CXXOperatorCallExpr>(CE))
          return true;
        if (const FunctionDecl *F = CE->getDirectCallee())
          (*C.Callers)[F->getCanonicalDecl()].push_back({CE, Fns.back()});
        return true;
      }
    } Find(*this);
    Find.TraverseDecl(Ctx.getTranslationUnitDecl());
    return *Callers;
  }
  std::optional<std::map<const FunctionDecl *, CallList>> Callers;

  /// Base evaluated at launch Call, with the loop variables' values
  /// Bindings; adds to Needed the locals it needed.
  KernelLaunch evaluate(const KernelLaunch &Base,
                        const CUDAKernelCallExpr *Call, ParentMap *PM,
                        const std::map<const VarDecl *, int64_t> &Bindings,
                        const std::map<const VarDecl *, std::string> &Notes,
                        std::set<const VarDecl *> *Needed,
                        std::vector<const ParmVarDecl *> *Unvalued = nullptr,
                        bool Sample = true) {
    KernelLaunch L = Base;
    const CallExpr *Config = Call->getConfig();
    const FunctionDecl *FD = Call->getDirectCallee();
    HostEvaluator Eval(Ctx, Params, Call, PM);
    Eval.Bindings = Bindings;
    Eval.LoopNotes = Notes;
    if (Config->getNumArgs() >= 2) {
      L.Grid = Eval.evalDim3(Config->getArg(0));
      L.Block = Eval.evalDim3(Config->getArg(1));
    }
    if (Config->getNumArgs() >= 3 &&
        !isa<CXXDefaultArgExpr>(Config->getArg(2))) {
      std::optional<int64_t> Shared = Eval.evalInt(Config->getArg(2));
      L.SharedBytes = Shared.value_or(0);
      L.SharedBytesUnknown = !Shared;
    } else {
      L.SharedBytes = 0;
    }
    if (!Eval.RangeError.empty() &&
        !llvm::is_contained(Facts.Errors, Eval.RangeError))
      Facts.Errors.push_back(Eval.RangeError);
    if ((!L.Grid || !L.Block) && (Eval.LimitReached || FileLimits::expired()))
      L.Unresolved = FileLimits::reason();
    else if (!L.Grid || !L.Block)
      L.Unresolved = Eval.Why.empty()
                         ? "the launch configuration is not a constant "
                           "expression of known values"
                     : Eval.Why.Hint.empty() ? Eval.Why.Text + " (use --launch)"
                                             : Eval.Why.str();
    if (!L.Grid || !L.Block)
      L.UnresolvedParam = Eval.Why.Param;
    if (Needed)
      Needed->insert(Eval.Needed.begin(), Eval.Needed.end());
    if (Unvalued)
      *Unvalued = Eval.UnvaluedParams;
    if (Sample && (!L.Grid || !L.Block) && !Eval.LimitReached &&
        !FileLimits::expired())
      sample(L, Call, PM, Bindings);
    for (unsigned I = 0; I < Call->getNumArgs() && I < FD->getNumParams();
         ++I) {
      const ParmVarDecl *P = FD->getParamDecl(I);
      // A launch that passes nullptr (NULL, 0) decides the kernel's null
      // tests of that pointer for this launch (docs/counting.md).
      if (P->getType()->isPointerType()) {
        if (Call->getArg(I)->isNullPointerConstant(
                Ctx, clang::Expr::NPC_ValueDependentIsNotNull))
          L.Args[P->getName().str()] = 0;
        continue;
      }
      if (!P->getType()->isIntegerType())
        continue;
      HostEvaluator ArgEval(Ctx, Params, Call, PM);
      ArgEval.Bindings = Bindings;
      if (auto V = ArgEval.evalInt(Call->getArg(I)))
        L.Args[P->getName().str()] = *V;
      if (Unvalued)
        for (const ParmVarDecl *U : ArgEval.UnvaluedParams)
          if (!llvm::is_contained(*Unvalued, U))
            Unvalued->push_back(U);
      if (Needed)
        Needed->insert(ArgEval.Needed.begin(), ArgEval.Needed.end());
    }
    return L;
  }

  unsigned lineOf(const Stmt *S) const {
    return Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
  }

  /// Fills L.SampledNames and L.Samples when L's grid misses integer
  /// values --param would give and its block does not: a block size is the
  /// author's choice, not the problem's, and is not guessed.
  void sample(KernelLaunch &L, const CUDAKernelCallExpr *Call, ParentMap *PM,
              const std::map<const VarDecl *, int64_t> &Bindings) {
    const CallExpr *Config = Call->getConfig();
    const FunctionDecl *FD = Call->getDirectCallee();
    if (Config->getNumArgs() < 2 || !FD)
      return;
    std::vector<std::string> Names; // In the order they are found.
    // The launch with every name in Names set to Size; adds to More the
    // names still without a value.
    auto At =
        [&](int64_t Size,
            std::vector<std::string> *More) -> std::optional<SampledLaunch> {
      std::map<std::string, int64_t> P = Params;
      for (const std::string &N : Names)
        P[N] = Size;
      auto Eval = [&](auto &&Fn) {
        HostEvaluator E(Ctx, P, Call, PM);
        E.Bindings = Bindings;
        auto V = Fn(E);
        if (!V && More)
          llvm::append_range(*More, E.Unvalued);
        return V;
      };
      SampledLaunch S;
      S.Size = Size;
      auto B =
          Eval([&](HostEvaluator &E) { return E.evalDim3(Config->getArg(1)); });
      auto G =
          Eval([&](HostEvaluator &E) { return E.evalDim3(Config->getArg(0)); });
      std::optional<int64_t> Sh = 0;
      if (Config->getNumArgs() >= 3 &&
          !isa<CXXDefaultArgExpr>(Config->getArg(2)))
        Sh = Eval(
            [&](HostEvaluator &E) { return E.evalInt(Config->getArg(2)); });
      for (unsigned I = 0; I < Call->getNumArgs() && I < FD->getNumParams();
           ++I)
        if (FD->getParamDecl(I)->getType()->isIntegerType())
          if (auto V = Eval(
                  [&](HostEvaluator &E) { return E.evalInt(Call->getArg(I)); }))
            S.Args[FD->getParamDecl(I)->getName().str()] = *V;
      if (!B || !G || !Sh)
        return std::nullopt;
      S.Block = *B;
      S.Grid = *G;
      S.SharedBytes = *Sh;
      return S;
    };
    {
      HostEvaluator E(Ctx, Params, Call, PM);
      E.Bindings = Bindings;
      if (!E.evalDim3(Config->getArg(1)))
        return;
    }
    // Names are found one failure at a time: each evaluation stops at the
    // first value it lacks.
    const int64_t Probe = 1024;
    for (unsigned Round = 0; Round < 8; ++Round) {
      std::vector<std::string> More;
      std::optional<SampledLaunch> S = At(Probe, &More);
      size_t Before = Names.size();
      for (const std::string &N : More)
        if (!llvm::is_contained(Names, N))
          Names.push_back(N);
      if (S && Names.size() == Before)
        break;
      if (Names.size() == Before || FileLimits::expired())
        return;
    }
    if (Names.empty())
      return;
    std::vector<SampledLaunch> Samples;
    for (int64_t Size : rooflineSweepSizes()) {
      std::optional<SampledLaunch> S = At(Size, nullptr);
      if (!S || !launchLimitError(S->Grid, S->Block).empty())
        continue;
      // The block must not move with the sizes (checked at the probe).
      if (!Samples.empty() && S->Block.V != Samples.front().Block.V)
        return;
      Samples.push_back(std::move(*S));
    }
    if (Samples.empty())
      return;
    L.SampledNames = std::move(Names);
    L.Samples = std::move(Samples);
  }

  ASTContext &Ctx;
  HostFacts &Facts;
  const std::map<std::string, int64_t> &Params;
  ASTNameGenerator Names;
  std::map<const Stmt *, std::unique_ptr<ParentMap>> ParentMaps;

  /// The functions being traversed, innermost last (TraverseDecl).
  std::vector<const FunctionDecl *> Functions;

  /// The function that contains S, a statement of the one being traversed.
  /// (ASTContext::getParents would build a parent map of the whole
  /// translation unit, the CUDA headers included: a tenth of the run.)
  const FunctionDecl *functionOf(const Stmt *) {
    return Functions.empty() ? nullptr : Functions.back();
  }

  /// Parent map of the body of the function that contains S.
  ParentMap *parentMapFor(const Stmt *S) { return parentMapOf(functionOf(S)); }
  ParentMap *parentMapOf(const FunctionDecl *FD) {
    Stmt *Body = FD ? FD->getBody() : nullptr;
    if (!Body)
      return nullptr;
    auto &PM = ParentMaps[Body];
    if (!PM)
      PM = std::make_unique<ParentMap>(Body);
    return PM.get();
  }

  /// Parameters and local variables of the function that contains S.
  std::set<std::string> hostNames(const Stmt *S) {
    std::set<std::string> Names;
    const FunctionDecl *FD = functionOf(S);
    if (!FD)
      return Names;
    for (const ParmVarDecl *P : FD->parameters())
      Names.insert(P->getName().str());
    struct Locals : DynamicRecursiveASTVisitor {
      std::set<std::string> &Out;
      explicit Locals(std::set<std::string> &Out) : Out(Out) {}
      bool VisitVarDecl(VarDecl *VD) override {
        Out.insert(VD->getName().str());
        return true;
      }
    } L(Names);
    if (FD->getBody())
      L.TraverseStmt(FD->getBody());
    return Names;
  }
};

class CollectorConsumer : public ASTConsumer {
public:
  CollectorConsumer(HostFacts &Facts,
                    const std::map<std::string, int64_t> &Params)
      : Facts(Facts), Params(Params) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    Collector C(Ctx, Facts, Params);
    C.TraverseDecl(Ctx.getTranslationUnitDecl());
  }

private:
  HostFacts &Facts;
  const std::map<std::string, int64_t> &Params;
};

} // namespace

std::unique_ptr<ASTConsumer> roofline::createHostLaunchCollector(
    HostFacts &Facts, const std::map<std::string, int64_t> &Params) {
  return std::make_unique<CollectorConsumer>(Facts, Params);
}

void roofline::collectHostFacts(ASTContext &Ctx, HostFacts &Facts,
                                const std::map<std::string, int64_t> &Params,
                                llvm::function_ref<bool(const Decl *)> Skip) {
  Collector C(Ctx, Facts, Params);
  C.Skip = Skip;
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
}

SourceLoc roofline::toSourceLoc(const SourceManager &SM, SourceLocation L) {
  return toLoc(SM, L);
}
