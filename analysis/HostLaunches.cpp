//===- HostLaunches.cpp ---------------------------------------------------===//

#include "HostLaunches.h"
#include "Limits.h"

#include "llvm/Support/Path.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

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
/// or takes its address) anywhere: then its initializer is not its value at
/// the launch, and evaluating it would give a silently wrong size.
class ModificationFinder : public DynamicRecursiveASTVisitor {
public:
  explicit ModificationFinder(const VarDecl *VD) : VD(VD) {}
  bool Found = false;

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
      Found = true;
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *U) override {
    if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
        refersToVar(U->getSubExpr()))
      Found = true;
    return !Found;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) override {
    if (C->isAssignmentOp() && C->getNumArgs() > 0 && refersToVar(C->getArg(0)))
      Found = true;
    return !Found;
  }

private:
  const VarDecl *VD;
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

/// Evaluates integer host expressions (launch configurations, kernel
/// arguments) given the user's values for named variables.
class HostEvaluator {
public:
  /// Pos is the statement at which values are wanted (the launch), PM the
  /// parent map of the function containing it.
  HostEvaluator(ASTContext &Ctx, const std::map<std::string, int64_t> &Params,
                const Stmt *Pos = nullptr, ParentMap *PM = nullptr)
      : Ctx(Ctx), Params(Params), Pos(Pos), PM(PM) {}

  std::string Missing; // First variable that had no value.
  bool Modified = false; // ... because it is assigned after its declaration.
  std::string RangeError; // A --param value its variable cannot hold.

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
    RangeError = "value " + std::to_string(V) + " of '" +
                 VD->getName().str() + "' does not fit the " +
                 std::to_string(Bits) + "-bit " +
                 (Signed ? "signed" : "unsigned") +
                 (isa<ParmVarDecl>(VD) ? " parameter" : " variable") + Owner;
  }

  /// The value of integer expression E, in E's type: unsigned arithmetic
  /// wraps as it does on the host (rows * cols in 32-bit unsigned).
  std::optional<int64_t> evalInt(const clang::Expr *E, unsigned Depth = 0) {
    std::optional<int64_t> V = evalIntRaw(E, Depth);
    if (!V || !E || !E->getType()->isIntegerType())
      return V;
    QualType T = E->getType();
    unsigned Bits = Ctx.getIntWidth(T);
    if (Bits >= 64)
      return V;
    if (T->isUnsignedIntegerType())
      return int64_t(uint64_t(*V) & ((uint64_t(1) << Bits) - 1));
    // Signed: two's complement truncation, as the conversion does.
    int64_t Shift = 64 - Bits;
    return int64_t(uint64_t(*V) << Shift) >> Shift;
  }

  std::optional<int64_t> evalIntRaw(const clang::Expr *E, unsigned Depth) {
    if (!evaluable(E, Depth))
      return std::nullopt;
    E = E->IgnoreParens();
    if (auto *C = dyn_cast<ImplicitCastExpr>(E))
      return evalInt(C->getSubExpr(), Depth + 1);
    if (auto *C = dyn_cast<ExplicitCastExpr>(E))
      return evalInt(C->getSubExpr(), Depth + 1);
    if (auto *C = dyn_cast<MaterializeTemporaryExpr>(E))
      return evalInt(C->getSubExpr(), Depth + 1);
    if (auto *D = dyn_cast<DeclRefExpr>(E))
      return evalDecl(D->getDecl(), Depth);
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      auto L = evalInt(B->getLHS(), Depth + 1);
      auto R = evalInt(B->getRHS(), Depth + 1);
      if (!L || !R)
        return std::nullopt;
      return binop(B->getOpcode(), *L, *R);
    }
    if (auto *U = dyn_cast<UnaryOperator>(E)) {
      auto V = evalInt(U->getSubExpr(), Depth + 1);
      if (!V)
        return std::nullopt;
      switch (U->getOpcode()) {
      case UO_Minus:
        return -*V;
      case UO_Plus:
        return *V;
      case UO_Not:
        return ~*V;
      case UO_LNot:
        return int64_t(!*V);
      default:
        return std::nullopt;
      }
    }
    if (auto *C = dyn_cast<ConditionalOperator>(E)) {
      auto Cond = evalInt(C->getCond(), Depth + 1);
      if (!Cond)
        return std::nullopt;
      return evalInt(*Cond ? C->getTrueExpr() : C->getFalseExpr(), Depth + 1);
    }
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
      // std::min / std::max / min / max over integers.
      if (auto *FD = Call->getDirectCallee()) {
        StringRef N = FD->getName();
        if ((N == "min" || N == "max") && Call->getNumArgs() == 2) {
          auto A = evalInt(Call->getArg(0), Depth + 1);
          auto B = evalInt(Call->getArg(1), Depth + 1);
          if (!A || !B)
            return std::nullopt;
          return N == "min" ? std::min(*A, *B) : std::max(*A, *B);
        }
      }
    }
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
      return R.Val.getInt().getExtValue();
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
    if (auto *C = dyn_cast<CXXBindTemporaryExpr>(E))
      return evalDim3(C->getSubExpr(), Depth + 1);
    if (auto *C = dyn_cast<CXXFunctionalCastExpr>(E))
      return evalDim3(C->getSubExpr(), Depth + 1);
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
        if (PM && Pos && VD->isLocalVarDecl())
          return dim3At(VD, Pos, Depth + 1);
        if (VD->getInit() && !isModifiedAfterInit(VD))
          return evalDim3(VD->getInit(), Depth + 1);
        if (Missing.empty()) {
          Missing = VD->getName().str();
          Modified = VD->getInit() != nullptr;
        }
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

private:
  ASTContext &Ctx;
  const std::map<std::string, int64_t> &Params;
  const Stmt *Pos;
  ParentMap *PM;

  /// Whether E can be evaluated at all: a template's own body (types and
  /// values depending on its parameters), an expression clang rejected, or
  /// a recursion this deep is "not evaluated", never a guess or a crash.
  /// Each call is a step of the evaluation, which can branch widely (both
  /// sides of every operator, each variable's definitions); past the file's
  /// limits it stops.
  bool evaluable(const clang::Expr *E, unsigned Depth) {
    if ((++Steps & 255) == 0 && FileLimits::expired())
      LimitReached = true;
    return !LimitReached && E && Depth <= 32 && !E->getType().isNull() &&
           !E->isTypeDependent() && !E->isValueDependent() &&
           !E->containsErrors();
  }
  uint64_t Steps = 0;

public:
  bool LimitReached = false; // The file's limits stopped the evaluation.

private:

  static bool isDim3(QualType T) {
    const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
    return RD && RD->getIdentifier() &&
           (RD->getName() == "dim3" || RD->getName() == "uint3");
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
    if (!FD || M->isArrow() || FD->isBitField() || Depth > 32)
      return std::nullopt;
    const auto *DR = dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts());
    const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!VD)
      return std::nullopt;
    if (isa<ParmVarDecl>(VD) || !VD->getInit()) {
      if (Missing.empty())
        Missing = VD->getName().str();
      return std::nullopt;
    }
    if (isModifiedAfterInit(VD)) {
      markModified(VD);
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

  void markModified(const VarDecl *VD) {
    if (Missing.empty()) {
      Missing = VD->getName().str();
      Modified = true;
    }
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
  std::optional<DefKind> searchStructure(const Stmt *S, unsigned Depth,
                                         Fn Search) {
    if (auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (auto It = CS->body_rbegin(); It != CS->body_rend(); ++It) {
        DefKind K = Search(*It);
        if (K != DefKind::None)
          return K;
      }
      return DefKind::None;
    }
    if (auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getInit() || If->getConditionVariable())
        return DefKind::Fail;
      auto C = at<int64_t>(S, [&] { return evalInt(If->getCond(), Depth + 1); });
      if (!C)
        return DefKind::Fail;
      // A side that does not assign leaves the value from before the if.
      const Stmt *Taken = *C ? If->getThen() : If->getElse();
      return Taken ? Search(Taken) : DefKind::None;
    }
    return std::nullopt;
  }

  /// The last definition of integer VD within S (a statement before the
  /// point of interest). Straight-line assignments and `if`s whose
  /// condition evaluates are followed; anything else that modifies VD
  /// (loops, address taken) makes the value unknown.
  DefKind lastDef(const Stmt *S, const VarDecl *VD, int64_t &V, unsigned Depth) {
    if (!S)
      return DefKind::None;
    if (auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (D == VD) {
          if (!VD->getInit())
            return DefKind::Fail;
          auto R = at<int64_t>(S, [&] { return evalInt(VD->getInit(), Depth + 1); });
          if (!R)
            return DefKind::Fail;
          V = *R;
          return DefKind::Found;
        }
      return DefKind::None;
    }
    if (!modifies(S, VD))
      return DefKind::None;
    if (auto K = searchStructure(S, Depth, [&](const Stmt *Sub) {
          return lastDef(Sub, VD, V, Depth);
        }))
      return *K;
    if (auto *B = dyn_cast<BinaryOperator>(S)) {
      if (!B->isAssignmentOp() || !isVar(B->getLHS(), VD))
        return DefKind::Fail;
      auto R = at<int64_t>(S, [&] { return evalInt(B->getRHS(), Depth + 1); });
      if (!R)
        return DefKind::Fail;
      if (B->getOpcode() == BO_Assign) {
        V = *R;
        return DefKind::Found;
      }
      auto Old = valueAt(VD, S, Depth + 1);
      if (!Old)
        return DefKind::Fail;
      auto New = binop(BinaryOperator::getOpForCompoundAssignment(B->getOpcode()),
                       *Old, *R);
      if (!New)
        return DefKind::Fail;
      V = *New;
      return DefKind::Found;
    }
    if (auto *U = dyn_cast<UnaryOperator>(S)) {
      if (!U->isIncrementDecrementOp() || !isVar(U->getSubExpr(), VD))
        return DefKind::Fail;
      auto Old = valueAt(VD, S, Depth + 1);
      if (!Old)
        return DefKind::Fail;
      V = *Old + (U->isIncrementOp() ? 1 : -1);
      return DefKind::Found;
    }
    if (auto *E = dyn_cast<ExprWithCleanups>(S))
      return lastDef(E->getSubExpr(), VD, V, Depth);
    return DefKind::Fail;
  }

  static bool modifies(const Stmt *S, const VarDecl *VD) {
    ModificationFinder Finder(VD);
    Finder.TraverseStmt(const_cast<Stmt *>(S));
    return Finder.Found;
  }

  /// Visits the statements that run before At, nearest first, until Visit
  /// returns Found or Fail. An enclosing loop that modifies VD is a Fail:
  /// the value would depend on the iteration.
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
      } else if ((isa<ForStmt>(Parent) || isa<WhileStmt>(Parent) ||
                  isa<DoStmt>(Parent) || isa<CXXForRangeStmt>(Parent)) &&
                 modifies(Parent, VD)) {
        return DefKind::Fail;
      }
      Cur = Parent;
    }
    return DefKind::None;
  }

  /// Records why VD has no value at the launch.
  void noValue(const VarDecl *VD, DefKind K) {
    if (K == DefKind::Fail)
      markModified(VD);
    else if (Missing.empty())
      Missing = VD->getName().str();
  }

  /// The value of local VD just before statement At.
  std::optional<int64_t> valueAt(const VarDecl *VD, const Stmt *At,
                                 unsigned Depth) {
    if (Depth > 64)
      return std::nullopt;
    int64_t V = 0;
    DefKind K = scanBefore(VD, At, [&](const Stmt *S) {
      return lastDef(S, VD, V, Depth);
    });
    if (K == DefKind::Found)
      return V;
    noValue(VD, K);
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
          if (VD->getInit())
            Base = at<Dim3>(S, [&] { return evalDim3(VD->getInit(), Depth + 1); });
          return Base ? DefKind::Found : DefKind::Fail;
        }
      return DefKind::None;
    }
    if (!modifies(S, VD))
      return DefKind::None;
    if (auto K = searchStructure(S, Depth, [&](const Stmt *Sub) {
          return dim3Def(Sub, VD, Members, Base, Depth);
        }))
      return *K;
    const clang::Expr *LHS = nullptr, *RHS = nullptr;
    if (auto *B = dyn_cast<BinaryOperator>(S); B && B->getOpcode() == BO_Assign) {
      LHS = B->getLHS();
      RHS = B->getRHS();
    } else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
               OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
      LHS = OC->getArg(0);
      RHS = OC->getArg(1);
    }
    if (!LHS)
      return DefKind::Fail;
    if (auto *ME = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts());
        ME && isVar(ME->getBase(), VD)) {
      StringRef F = ME->getMemberDecl()->getName();
      auto V = at<int64_t>(S, [&] { return evalInt(RHS, Depth + 1); });
      if (F.size() != 1 || F[0] < 'x' || F[0] > 'z' || !V)
        return DefKind::Fail;
      Members.emplace_back(F[0] - 'x', *V);
      return DefKind::None;
    }
    if (!isVar(LHS, VD))
      return DefKind::Fail;
    Base = at<Dim3>(S, [&] { return evalDim3(RHS, Depth + 1); });
    return Base ? DefKind::Found : DefKind::Fail;
  }

  /// The value of local dim3 VD just before At: its last whole assignment
  /// or initializer, then the member assignments (grid.x = ...) after it.
  std::optional<Dim3> dim3At(const VarDecl *VD, const Stmt *At, unsigned Depth) {
    std::vector<std::pair<int, int64_t>> Members; // Nearest first.
    std::optional<Dim3> Base;
    DefKind K = scanBefore(VD, At, [&](const Stmt *S) {
      return dim3Def(S, VD, Members, Base, Depth);
    });
    if (K != DefKind::Found) {
      noValue(VD, K);
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
    auto It = Params.find(VD->getName().str());
    if (It != Params.end()) {
      checkFits(VD, It->second);
      return It->second;
    }
    if (isa<ParmVarDecl>(VD)) {
      if (Missing.empty())
        Missing = VD->getName().str();
      return std::nullopt;
    }
    if (PM && Pos && VD->isLocalVarDecl())
      return valueAt(VD, Pos, Depth + 1);
    if (isModifiedAfterInit(VD)) {
      if (Missing.empty()) {
        Missing = VD->getName().str();
        Modified = true;
      }
      return std::nullopt;
    }
    if (const clang::Expr *Init = VD->getInit())
      return evalInt(Init, Depth + 1);
    if (Missing.empty())
      Missing = VD->getName().str();
    return std::nullopt;
  }

  static std::optional<int64_t> binop(BinaryOperatorKind Op, int64_t L,
                                      int64_t R) {
    switch (Op) {
    case BO_Add:
      return L + R;
    case BO_Sub:
      return L - R;
    case BO_Mul:
      return L * R;
    case BO_Div:
      if (R == 0)
        return std::nullopt;
      return L / R;
    case BO_Rem:
      if (R == 0)
        return std::nullopt;
      return L % R;
    case BO_Shl:
      return L << R;
    case BO_Shr:
      return L >> R;
    case BO_And:
      return L & R;
    case BO_Or:
      return L | R;
    case BO_LT:
      return int64_t(L < R);
    case BO_GT:
      return int64_t(L > R);
    case BO_LE:
      return int64_t(L <= R);
    case BO_GE:
      return int64_t(L >= R);
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
};

class Collector : public DynamicRecursiveASTVisitor {
public:
  Collector(ASTContext &Ctx, HostFacts &Facts,
            const std::map<std::string, int64_t> &Params)
      : Ctx(Ctx), Facts(Facts), Params(Params), Names(Ctx) {
    ShouldVisitTemplateInstantiations = true;
  }

  /// Functions clang rejected: their launches are not evaluated.
  llvm::function_ref<bool(const Decl *)> Skip = nullptr;

  // Kernels and launches live in user code; the CUDA and C++ headers are
  // most of the translation unit and need no visit.
  bool TraverseDecl(Decl *D) override {
    if (D && !isa<TranslationUnitDecl>(D) &&
        Ctx.getSourceManager().isInSystemHeader(D->getLocation()))
      return true;
    if (D && Skip && isa<FunctionDecl>(D) && !D->hasAttr<CUDAGlobalAttr>() &&
        Skip(D))
      return true;
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Functions.push_back(FD);
    bool Continue = DynamicRecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Functions.pop_back();
    return Continue;
  }

  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *TD) override {
    FunctionDecl *FD = TD->getTemplatedDecl();
    if (!FD->hasAttr<CUDAGlobalAttr>() || !TD->isThisDeclarationADefinition())
      return true;
    if (TD->specializations().empty())
      Facts.UninstantiatedTemplates.push_back(
          {TD->getNameAsString(), toLoc(Ctx.getSourceManager(), TD->getLocation())});
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
          K.TemplateUses.push_back({L.Line, P->getName().str(),
                                    R.Val.getInt().getExtValue()});
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
    const CallExpr *Config = Call->getConfig();
    if (!Config)
      return true;
    LaunchSite L;
    L.KernelMangledName = Names.getName(FD);
    L.Loc = toLoc(Ctx.getSourceManager(), Call->getBeginLoc());
    ParentMap *PM = parentMapFor(Call);
    L.HostNames = hostNames(Call);
    HostEvaluator Eval(Ctx, Params, Call, PM);
    if (Config->getNumArgs() >= 2) {
      L.Grid = Eval.evalDim3(Config->getArg(0));
      L.Block = Eval.evalDim3(Config->getArg(1));
    }
    if (Config->getNumArgs() >= 3 &&
        !isa<CXXDefaultArgExpr>(Config->getArg(2)))
      L.SharedBytes = Eval.evalInt(Config->getArg(2));
    else
      L.SharedBytes = 0;
    if (!Eval.RangeError.empty())
      Facts.Errors.push_back(Eval.RangeError);
    if ((!L.Grid || !L.Block) && (Eval.LimitReached || FileLimits::expired()))
      L.Unresolved = FileLimits::reason();
    else if (!L.Grid || !L.Block)
      L.Unresolved = Eval.Missing.empty()
                         ? "the launch configuration is not a constant "
                           "expression of known values"
                     : Eval.Modified
                         ? "'" + Eval.Missing +
                               "' is assigned after its declaration, so its "
                               "value at the launch is not evaluated (use "
                               "--param " +
                               Eval.Missing + "=VALUE or --launch)"
                         : "'" + Eval.Missing + "' has no value (use --param " +
                               Eval.Missing + "=VALUE)";
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
      if (auto V = ArgEval.evalInt(Call->getArg(I)))
        L.Args[P->getName().str()] = *V;
    }
    Facts.Launches.push_back(std::move(L));
    return true;
  }

private:
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
  ParentMap *parentMapFor(const Stmt *S) {
    const FunctionDecl *FD = functionOf(S);
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

std::unique_ptr<ASTConsumer>
roofline::createHostLaunchCollector(HostFacts &Facts,
                                    const std::map<std::string, int64_t> &Params) {
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
