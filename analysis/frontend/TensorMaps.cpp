//===- TensorMaps.cpp - The box of a TMA tensor map, from host code -------===//

#include "TensorMaps.h"
#include "HostLaunches.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>
#include <vector>

using namespace clang;
using namespace roofline;

namespace {

/// The element sizes of CUtensorMapDataType, in its order (cuda.h): UINT8,
/// UINT16, UINT32, INT32, UINT64, INT64, FLOAT16, FLOAT32, FLOAT64,
/// BFLOAT16, FLOAT32_FTZ, TFLOAT32, TFLOAT32_FTZ. The packed 4- and 6-bit
/// types after them are not read.
constexpr unsigned ElementBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};

/// How deep helpers returning a map are followed.
constexpr unsigned MaxDepth = 4;

/// Values of a helper's parameters at the call being followed (of the
/// launching function's, from a caller, at the launch), and where the
/// parameters without one go when a value needs them.
struct Bindings {
  ParamValues Values;
  std::vector<const ParmVarDecl *> *Unvalued = nullptr;
};

const Expr *strip(const Expr *E) {
  while (true) {
    const Expr *Before = E;
    E = E->IgnoreImplicit()->IgnoreParens();
    if (auto *C = dyn_cast<CXXConstructExpr>(E);
        C && C->getNumArgs() == 1 &&
        C->getConstructor()->isCopyOrMoveConstructor())
      E = C->getArg(0);
    if (E == Before)
      return E;
  }
}

std::string textOf(ASTContext &Ctx, const Expr *E) {
  return Lexer::getSourceText(
             CharSourceRange::getTokenRange(E->getSourceRange()),
             Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

std::optional<int64_t> evalInt(ASTContext &Ctx, const Expr *E,
                               const Bindings &B) {
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  if (auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (auto *P = dyn_cast<ParmVarDecl>(D->getDecl())) {
      if (auto It = B.Values.find(P); It != B.Values.end())
        return It->second;
      if (B.Unvalued && !llvm::is_contained(*B.Unvalued, P))
        B.Unvalued->push_back(P);
      return std::nullopt;
    }
    // A local that is never written again: `const uint32_t rows = BM;`.
    auto *V = dyn_cast<VarDecl>(D->getDecl());
    if (V && V->getType().isConstQualified() && V->getInit())
      return evalInt(Ctx, V->getInit(), B);
    return std::nullopt;
  }
  if (auto *Op = dyn_cast<BinaryOperator>(E)) {
    auto L = evalInt(Ctx, Op->getLHS(), B), R2 = evalInt(Ctx, Op->getRHS(), B);
    if (!L || !R2)
      return std::nullopt;
    switch (Op->getOpcode()) {
    case BO_Add:
      return *L + *R2;
    case BO_Sub:
      return *L - *R2;
    case BO_Mul:
      return *L * *R2;
    case BO_Div:
      return *R2 ? std::optional<int64_t>(*L / *R2) : std::nullopt;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

/// The first Rank elements of the array E names (`cuuint32_t box[2] =
/// {BK, BM};`), each evaluated; Why names the first that is not known.
std::optional<std::vector<int64_t>> arrayElements(ASTContext &Ctx,
                                                  const Expr *E, unsigned Rank,
                                                  const Bindings &B,
                                                  std::string &Why) {
  auto *D = dyn_cast<DeclRefExpr>(strip(E));
  auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  auto *Init = V && V->getInit()
                   ? dyn_cast<InitListExpr>(V->getInit()->IgnoreImplicit())
                   : nullptr;
  if (!Init) {
    Why = "'" + textOf(Ctx, E) +
          "' is not an array initialized where it is declared";
    return std::nullopt;
  }
  std::vector<int64_t> Values;
  for (unsigned I = 0; I < Rank; ++I) {
    if (I >= Init->getNumInits()) {
      Why = "'" + textOf(Ctx, E) + "' has fewer than " + std::to_string(Rank) +
            " elements";
      return std::nullopt;
    }
    auto Value = evalInt(Ctx, Init->getInit(I), B);
    if (!Value) {
      Why = "'" + textOf(Ctx, Init->getInit(I)) + "' (" + V->getName().str() +
            "[" + std::to_string(I) + "]) is not a constant";
      return std::nullopt;
    }
    Values.push_back(*Value);
  }
  return Values;
}

bool pointsToTensorMap(QualType T) {
  return T->isPointerType() && isTensorMapType(T->getPointeeType());
}

/// cuTensorMapEncodeTiled, called directly or through the pointer the
/// driver entry point gives: recognized by its signature (12 arguments,
/// the map first and the box, a cuuint32_t array, seventh).
bool isEncodeTiled(const CallExpr *C) {
  if (C->getNumArgs() != 12 || !pointsToTensorMap(C->getArg(0)->getType()))
    return false;
  QualType Box = C->getArg(6)->IgnoreParenImpCasts()->getType();
  if (Box->isArrayType())
    return true;
  return Box->isPointerType() && Box->getPointeeType()->isIntegerType();
}

/// Any other call that takes a map's address first: cuTensorMapEncodeIm2col
/// and its kin, or a user's wrapper.
bool buildsMap(const CallExpr *C) {
  return C->getNumArgs() >= 1 && pointsToTensorMap(C->getArg(0)->getType());
}

/// The calls in Body that take V's address as their first argument and
/// write a map there.
std::vector<const CallExpr *> buildersOf(const VarDecl *V, Stmt *Body) {
  struct Finder : DynamicRecursiveASTVisitor {
    const VarDecl *V;
    std::vector<const CallExpr *> Found;
    bool VisitCallExpr(CallExpr *C) override {
      if (!buildsMap(C))
        return true;
      auto *U = dyn_cast<UnaryOperator>(strip(C->getArg(0)));
      if (!U || U->getOpcode() != UO_AddrOf)
        return true;
      auto *D = dyn_cast<DeclRefExpr>(strip(U->getSubExpr()));
      if (D && D->getDecl() == V)
        Found.push_back(C);
      return true;
    }
  } F;
  F.V = V;
  if (Body)
    F.TraverseStmt(Body);
  return F.Found;
}

TensorMapBox unknown(std::string Why, SourceLoc Loc = {}) {
  TensorMapBox B;
  B.Why = std::move(Why);
  B.Loc = Loc;
  return B;
}

TensorMapBox encodedBox(ASTContext &Ctx, const CallExpr *C, const Bindings &B) {
  SourceLoc Loc = toSourceLoc(Ctx.getSourceManager(), C->getBeginLoc());
  if (!isEncodeTiled(C))
    return unknown("the map is built by a call that is not "
                   "cuTensorMapEncodeTiled (an im2col map, or a wrapper)",
                   Loc);
  auto Type = evalInt(Ctx, C->getArg(1), B);
  if (!Type || *Type < 0 || *Type >= int64_t(std::size(ElementBytes)))
    return unknown("its element type '" + textOf(Ctx, C->getArg(1)) +
                       "' is not a constant of a byte-sized type",
                   Loc);
  auto Rank = evalInt(Ctx, C->getArg(2), B);
  if (!Rank || *Rank < 1 || *Rank > 5)
    return unknown("its rank '" + textOf(Ctx, C->getArg(2)) +
                       "' is not a constant from 1 to 5",
                   Loc);
  std::string Why;
  auto Box = arrayElements(Ctx, C->getArg(6), *Rank, B, Why);
  auto Steps =
      Box ? arrayElements(Ctx, C->getArg(7), *Rank, B, Why) : std::nullopt;
  if (!Box || !Steps)
    return unknown(Why, Loc);
  auto Interleave = evalInt(Ctx, C->getArg(8), B);
  if (!Interleave || *Interleave != 0)
    return unknown("an interleaved layout ('" + textOf(Ctx, C->getArg(8)) +
                       "') is not modelled",
                   Loc);
  TensorMapBox Result;
  Result.ElementBytes = ElementBytes[*Type];
  Result.Bytes = Result.ElementBytes;
  for (int64_t I = 0; I < *Rank; ++I) {
    int64_t Dim = (*Box)[I], Step = (*Steps)[I];
    // CUDA driver API, cuTensorMapEncodeTiled: 1 to 256 elements per
    // dimension.
    if (Dim < 1 || Dim > 256)
      return unknown("its box dimension " + std::to_string(I) + " (" +
                         std::to_string(Dim) +
                         " elements) is outside what the driver accepts",
                     Loc);
    // A strided box reads every Step-th element: its rows are not
    // contiguous, which the copy's lowering would need.
    if (Step != 1)
      return unknown("its element stride " + std::to_string(Step) +
                         " in dimension " + std::to_string(I) +
                         " is not modelled",
                     Loc);
    Result.Bytes *= Dim;
  }
  Result.Box = *Box;
  std::string Ignored;
  if (*Rank > 1)
    if (auto Strides = arrayElements(Ctx, C->getArg(5), *Rank - 1, B, Ignored))
      Result.Strides = *Strides;
  Result.Loc = Loc;
  return Result;
}

TensorMapBox boxOf(ASTContext &Ctx, const Expr *Arg, const Bindings &B,
                   unsigned Depth);

/// The map a helper returns: each return's, with the helper's parameters
/// bound to the call's arguments.
TensorMapBox returnedBox(ASTContext &Ctx, const CallExpr *Call,
                         const Bindings &B, unsigned Depth) {
  const FunctionDecl *F = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!F || !F->hasBody(Def) || Depth >= MaxDepth)
    return unknown("the map comes from a call whose body is not in this "
                   "file ('" +
                   textOf(Ctx, Call) + "')");
  Bindings Inner;
  Inner.Unvalued = B.Unvalued;
  for (unsigned I = 0; I < Call->getNumArgs() && I < Def->getNumParams(); ++I)
    if (auto V = evalInt(Ctx, Call->getArg(I), B))
      Inner.Values[Def->getParamDecl(I)] = *V;
  struct Returns : DynamicRecursiveASTVisitor {
    std::vector<const Expr *> Values;
    bool VisitReturnStmt(ReturnStmt *R) override {
      if (R->getRetValue())
        Values.push_back(R->getRetValue());
      return true;
    }
    // A lambda's returns are its own.
    bool TraverseLambdaExpr(LambdaExpr *) override { return true; }
  } R;
  R.TraverseStmt(Def->getBody());
  if (R.Values.empty())
    return unknown("'" + Def->getNameAsString() + "' returns no map");
  TensorMapBox Result;
  for (const Expr *E : R.Values)
    mergeTensorMapBox(Result, boxOf(Ctx, E, Inner, Depth + 1));
  return Result;
}

TensorMapBox boxOf(ASTContext &Ctx, const Expr *Arg, const Bindings &B,
                   unsigned Depth) {
  const Expr *E = strip(Arg);
  if (auto *Call = dyn_cast<CallExpr>(E))
    return returnedBox(Ctx, Call, B, Depth);
  auto *D = dyn_cast<DeclRefExpr>(E);
  auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (!V)
    return unknown("the map passed ('" + textOf(Ctx, Arg) +
                   "') is not a variable or a call of this file");
  if (isa<ParmVarDecl>(V))
    return unknown("the map passed is '" + V->getNameAsString() +
                   "', a parameter of the launching function");
  Stmt *Scope = nullptr;
  if (auto *F = dyn_cast<FunctionDecl>(V->getDeclContext()))
    Scope = F->getBody();
  else
    Scope = nullptr;
  std::vector<const CallExpr *> Builders;
  if (Scope)
    Builders = buildersOf(V, Scope);
  if (Builders.empty()) {
    if (V->getInit() && !isa<CXXConstructExpr>(strip(V->getInit())))
      return boxOf(Ctx, V->getInit(), B, Depth);
    return unknown("no cuTensorMapEncodeTiled call in the function that "
                   "declares '" +
                   V->getNameAsString() + "' builds it");
  }
  TensorMapBox Result;
  for (const CallExpr *C : Builders)
    mergeTensorMapBox(Result, encodedBox(Ctx, C, B));
  return Result;
}

} // namespace

bool roofline::isTensorMapType(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *R = T->getAsRecordDecl();
  return R && R->getName() == "CUtensorMap_st";
}

TensorMapBox
roofline::tensorMapBox(ASTContext &Ctx, const Expr *Arg,
                       const ParamValues &Values,
                       std::vector<const ParmVarDecl *> *Unvalued) {
  TensorMapBox B = boxOf(Ctx, Arg, Bindings{Values, Unvalued}, 0);
  if (!B.Loc.Line)
    B.Loc = toSourceLoc(Ctx.getSourceManager(), Arg->getBeginLoc());
  return B;
}

void roofline::mergeTensorMapBox(TensorMapBox &Into,
                                 const TensorMapBox &Other) {
  if (Into.Why.empty() && !Into.Bytes) {
    Into = Other;
    return;
  }
  if (!Into.Why.empty())
    return;
  if (!Other.Why.empty()) {
    Into = Other;
    return;
  }
  if (Into.Box == Other.Box && Into.ElementBytes == Other.ElementBytes) {
    if (Into.Strides != Other.Strides)
      Into.Strides.clear();
    return;
  }
  Into.Why = "the maps passed have different boxes (" +
             std::to_string(Into.Bytes) + " B, line " +
             std::to_string(Into.Loc.Line) + "; " +
             std::to_string(Other.Bytes) + " B, line " +
             std::to_string(Other.Loc.Line) + ")";
}
