//===- HostLaunches.cpp ---------------------------------------------------===//

#include "HostLaunches.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace roofline;

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
  R.File = P.getFilename();
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
  HostEvaluator(ASTContext &Ctx, const std::map<std::string, int64_t> &Params)
      : Ctx(Ctx), Params(Params) {}

  std::string Missing; // First variable that had no value.
  bool Modified = false; // ... because it is assigned after its declaration.

  std::optional<int64_t> evalInt(const clang::Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 32)
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
      auto D3 = evalDim3(M->getBase(), Depth + 1);
      StringRef F = M->getMemberDecl()->getName();
      if (D3 && F.size() == 1 && F[0] >= 'x' && F[0] <= 'z')
        return D3->V[F[0] - 'x'];
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
    if (!E || Depth > 32)
      return std::nullopt;
    E = E->IgnoreParenImpCasts();
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
        if (VD->getType()->isIntegerType()) {
          auto V = evalDecl(VD, Depth);
          if (!V)
            return std::nullopt;
          Dim3 D;
          D.V[0] = *V;
          return D;
        }
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

  std::optional<int64_t> evalDecl(const ValueDecl *D, unsigned Depth) {
    if (auto *EC = dyn_cast<EnumConstantDecl>(D))
      return EC->getInitVal().getExtValue();
    auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      return std::nullopt;
    auto It = Params.find(VD->getName().str());
    if (It != Params.end())
      return It->second;
    if (isa<ParmVarDecl>(VD)) {
      if (Missing.empty())
        Missing = VD->getName().str();
      return std::nullopt;
    }
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
    std::string S;
    llvm::raw_string_ostream OS(S);
    FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/false);
    K.Name = OS.str();
    K.Loc = toLoc(Ctx.getSourceManager(), FD->getLocation());
    for (const ParmVarDecl *P : FD->parameters())
      K.ParamNames.push_back(P->getName().str());
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
    Facts.Kernels.push_back(std::move(K));
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Call) override {
    auto *FD = Call->getDirectCallee();
    if (!FD || FD->isDependentContext())
      return true;
    const CallExpr *Config = Call->getConfig();
    if (!Config)
      return true;
    LaunchSite L;
    L.KernelMangledName = Names.getName(FD);
    L.Loc = toLoc(Ctx.getSourceManager(), Call->getBeginLoc());
    HostEvaluator Eval(Ctx, Params);
    if (Config->getNumArgs() >= 2) {
      L.Grid = Eval.evalDim3(Config->getArg(0));
      L.Block = Eval.evalDim3(Config->getArg(1));
    }
    if (Config->getNumArgs() >= 3 &&
        !isa<CXXDefaultArgExpr>(Config->getArg(2)))
      L.SharedBytes = Eval.evalInt(Config->getArg(2));
    else
      L.SharedBytes = 0;
    if (!L.Grid || !L.Block)
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
      if (!P->getType()->isIntegerType())
        continue;
      HostEvaluator ArgEval(Ctx, Params);
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
