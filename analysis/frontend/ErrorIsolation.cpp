//===- ErrorIsolation.cpp -------------------------------------------------===//

#include "ErrorIsolation.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace roofline;
using namespace clang;

std::string ClangError::describe() const {
  if (Where.File.empty())
    return Message;
  return Where.File + ":" + std::to_string(Where.Line) + ":" +
         std::to_string(Where.Column) + ": " + Message;
}

std::string NotAnalyzed::message() const {
  std::string What = Kind;
  if (!Name.empty())
    What += " '" + Name + "'";
  std::string Msg = What + " not analyzed: ";
  if (!Via.empty())
    Msg += "it uses '" + Via + "', which clang rejected: ";
  else if (Kind == "declaration")
    Msg += "clang rejected it: ";
  Msg += Error.Message;
  if (!Error.Where.File.empty())
    Msg += " (" + Error.Where.File + ":" + std::to_string(Error.Where.Line) +
           ":" + std::to_string(Error.Where.Column) + ")";
  return Msg;
}

//===----------------------------------------------------------------------===//
// ErrorRecorder
//===----------------------------------------------------------------------===//

ErrorRecorder::ErrorRecorder(DiagnosticConsumer *Next,
                             std::unique_ptr<DiagnosticConsumer> Owned)
    : Next(Next), Owned(std::move(Owned)) {}

ErrorRecorder::~ErrorRecorder() = default;

void ErrorRecorder::BeginSourceFile(const LangOptions &LO,
                                    const Preprocessor *PP) {
  if (Next)
    Next->BeginSourceFile(LO, PP);
}
// "N warnings generated" reads the engine's client's counts, and a front-end
// may report to the wrapped consumer directly (clang-tidy's checks do): the
// counts are the wrapped consumer's.
void ErrorRecorder::EndSourceFile() {
  if (!Next)
    return;
  Next->EndSourceFile();
  NumWarnings = Next->getNumWarnings();
  NumErrors = Next->getNumErrors();
}
void ErrorRecorder::finish() {
  if (!Next)
    return;
  Next->finish();
  NumWarnings = Next->getNumWarnings();
  NumErrors = Next->getNumErrors();
}
void ErrorRecorder::clear() {
  DiagnosticConsumer::clear();
  if (Next)
    Next->clear();
}
bool ErrorRecorder::IncludeInDiagnosticCounts() const {
  return Next ? Next->IncludeInDiagnosticCounts() : true;
}

void ErrorRecorder::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                     const Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  if (Level == DiagnosticsEngine::Note && InError) {
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    llvm::StringRef M = Msg;
    for (llvm::StringRef Prefix :
         {"in instantiation of function template specialization '",
          "in instantiation of member function '"})
      if (M.consume_front(Prefix) && M.consume_back("' requested here"))
        Errors.back().InstantiatedIn.push_back(M.str());
  } else if (Level != DiagnosticsEngine::Note) {
    InError = Level >= DiagnosticsEngine::Error;
  }
  if (Level >= DiagnosticsEngine::Error) {
    ClangError E;
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    E.Message = std::string(Msg);
    E.Fatal = Level == DiagnosticsEngine::Fatal;
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      E.Loc = Info.getLocation();
      E.Where = toSourceLoc(Info.getSourceManager(), E.Loc);
    }
    Errors.push_back(std::move(E));
  }
  if (Next)
    Next->HandleDiagnostic(Level, Info);
}

ErrorRecorder &ErrorRecorder::install(DiagnosticsEngine &Diags) {
  if (auto *R = dynamic_cast<ErrorRecorder *>(Diags.getClient()))
    return *R;
  std::unique_ptr<DiagnosticConsumer> Owned = Diags.takeClient();
  auto *R = new ErrorRecorder(Diags.getClient(), std::move(Owned));
  Diags.setClient(R, /*ShouldOwnClient=*/true);
  return *R;
}

//===----------------------------------------------------------------------===//
// ErrorIsolation
//===----------------------------------------------------------------------===//

struct ErrorIsolation::Verdict {
  bool Visiting = true;
  bool Broken = false;
  const ClangError *Error = nullptr;
  /// The declaration whose own source has the error.
  const Decl *Culprit = nullptr;
};

namespace {

/// What a function body, a variable's initializer or a declaration's
/// signature uses: callees, global variables and the types of its values.
class UseFinder : public DynamicRecursiveASTVisitor {
public:
  std::vector<const Decl *> Uses;
  /// A subexpression clang could only recover from (RecoveryExpr & co).
  const Expr *Recovered = nullptr;

  UseFinder() { ShouldVisitImplicitCode = true; }

  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    use(E->getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) override {
    use(E->getMemberDecl());
    return true;
  }
  bool VisitCallExpr(CallExpr *E) override {
    use(E->getCalleeDecl());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) override {
    use(E->getConstructor());
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr *E) override {
    use(E->getOperatorNew());
    use(E->getOperatorDelete());
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) override {
    use(E->getOperatorDelete());
    return true;
  }
  bool VisitExpr(Expr *E) override {
    if (E->containsErrors() && !Recovered)
      Recovered = E;
    useType(E->getType());
    return true;
  }
  bool VisitValueDecl(ValueDecl *D) override {
    useType(D->getType());
    return true;
  }

private:
  void use(const Decl *D) {
    if (!D)
      return;
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (FD->getBuiltinID())
        return;
    } else if (const auto *VD = dyn_cast<VarDecl>(D)) {
      // Locals and parameters are part of the code being looked at.
      if (!VD->hasGlobalStorage() || VD->isStaticLocal())
        return;
    } else if (!isa<TagDecl>(D)) {
      return;
    }
    Uses.push_back(D);
  }
  void useType(QualType T) {
    const Type *Ty = T.getTypePtrOrNull();
    // A pointer to a rejected class is as unusable as the class.
    for (int Depth = 0; Ty && Depth < 8; ++Depth) {
      const Type *Inner = Ty->getPointeeOrArrayElementType();
      if (Inner == Ty)
        break;
      Ty = Inner;
    }
    if (Ty)
      if (const TagDecl *TD = Ty->getAsTagDecl())
        use(TD);
  }
};

/// The declaration that holds D's code: a function's definition, a
/// variable's definition.
const Decl *definitionOf(const Decl *D) {
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    if (const FunctionDecl *Def = FD->getDefinition())
      return Def;
  if (const auto *VD = dyn_cast<VarDecl>(D))
    if (const VarDecl *Def = VD->getDefinition())
      return Def;
  if (const auto *TD = dyn_cast<TagDecl>(D))
    if (const TagDecl *Def = TD->getDefinition())
      return Def;
  return D;
}

std::string nameOf(const ASTContext &Ctx, const Decl *D) {
  const auto *ND = dyn_cast<NamedDecl>(D);
  if (!ND || !ND->getDeclName())
    return "";
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.SuppressUnwrittenScope = true;
  std::string S;
  llvm::raw_string_ostream OS(S);
  ND->getNameForDiagnostic(OS, Policy, /*Qualified=*/true);
  return S;
}

/// Every function with a body, template instantiations included.
class FunctionLister : public DynamicRecursiveASTVisitor {
public:
  std::vector<const FunctionDecl *> Found;
  FunctionLister() { ShouldVisitTemplateInstantiations = true; }
  bool VisitFunctionDecl(FunctionDecl *FD) override {
    if (FD->doesThisDeclarationHaveABody())
      Found.push_back(FD);
    return true;
  }
};

/// The innermost named declaration whose source holds an error, among
/// the declarations of namespaces and classes.
class EnclosingDecl : public DynamicRecursiveASTVisitor {
public:
  EnclosingDecl(const SourceManager &SM, SourceLocation At) : SM(SM), At(At) {}
  const NamedDecl *Found = nullptr;
  bool TraverseDecl(Decl *D) override {
    if (!D || isa<TranslationUnitDecl>(D))
      return DynamicRecursiveASTVisitor::TraverseDecl(D);
    SourceRange R = D->getSourceRange();
    if (R.isInvalid() || D->isImplicit())
      return true;
    SourceLocation B = SM.getExpansionLoc(R.getBegin());
    SourceLocation E = SM.getExpansionRange(R.getEnd()).getEnd();
    if (SM.isBeforeInTranslationUnit(At, B) ||
        SM.isBeforeInTranslationUnit(E, At))
      return true;
    if (auto *ND = dyn_cast<NamedDecl>(D); ND && ND->getDeclName())
      Found = ND;
    // Function bodies are not declarations anyone else uses.
    if (isa<FunctionDecl>(D) || isa<VarDecl>(D))
      return true;
    return DynamicRecursiveASTVisitor::TraverseDecl(D);
  }

private:
  const SourceManager &SM;
  SourceLocation At;
};

} // namespace

ErrorIsolation::ErrorIsolation(ASTContext &Ctx, std::vector<ClangError> Errs)
    : Ctx(Ctx), Errors(std::move(Errs)) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (size_t I = 0; I < Errors.size(); ++I) {
    const ClangError &E = Errors[I];
    if (E.Fatal) {
      // Nothing after this point was parsed.
      WholeFile = "parsing stopped at " + E.describe();
      return;
    }
    if (E.Loc.isInvalid()) {
      WholeFile = E.describe();
      return;
    }
    auto [FID, Offset] = SM.getDecomposedExpansionLoc(E.Loc);
    ByFile[FID].push_back({Offset, I});
  }
  for (auto &[FID, V] : ByFile)
    llvm::sort(V);
}

ErrorIsolation::~ErrorIsolation() = default;

const ClangError *ErrorIsolation::firstErrorIn(const Decl *D) const {
  // An instantiation shares its template's source: of the errors there, it
  // has those raised while instantiating it and those of the template itself.
  std::string Specialization;
  if (const auto *FD = dyn_cast<FunctionDecl>(D);
      FD && FD->isTemplateInstantiation()) {
    llvm::raw_string_ostream OS(Specialization);
    FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  }
  SourceRange R = D->getSourceRange();
  if (R.isInvalid())
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  auto [BFile, B] = SM.getDecomposedExpansionLoc(R.getBegin());
  auto [EFile, E] =
      SM.getDecomposedLoc(SM.getExpansionRange(R.getEnd()).getEnd());
  if (BFile != EFile)
    return nullptr;
  auto It = ByFile.find(BFile);
  if (It == ByFile.end())
    return nullptr;
  const auto &V = It->second;
  auto Lo = llvm::lower_bound(V, std::pair<unsigned, size_t>(B, 0));
  const ClangError *First = nullptr;
  size_t FirstIndex = Errors.size();
  for (auto I = Lo; I != V.end() && I->first <= E; ++I) {
    const std::vector<std::string> &In = Errors[I->second].InstantiatedIn;
    if (!Specialization.empty() && !In.empty() &&
        llvm::find(In, Specialization) == In.end())
      continue;
    if (I->second < FirstIndex) {
      FirstIndex = I->second;
      First = &Errors[I->second];
    }
  }
  return First;
}

bool ErrorIsolation::hasOwnError(const Decl *D) {
  D = definitionOf(D);
  return D->isInvalidDecl() || firstErrorIn(D);
}

bool ErrorIsolation::isBroken(const Decl *D) { return verdict(D).Broken; }

const ErrorIsolation::Verdict &ErrorIsolation::verdict(const Decl *D) {
  D = definitionOf(D);
  if (auto It = Verdicts.find(D); It != Verdicts.end())
    return *It->second; // A cycle in progress counts as clean.
  // The map may grow during the walk below; the verdict itself stays put.
  Verdict *V = (Verdicts[D] = std::make_unique<Verdict>()).get();
  auto Break = [&](const ClangError *E,
                   const Decl *Culprit) -> const Verdict & {
    V->Broken = true;
    V->Error = E;
    V->Culprit = Culprit;
    V->Visiting = false;
    return *V;
  };
  if (const ClangError *E = firstErrorIn(D))
    return Break(E, D);
  if (D->isInvalidDecl())
    // Invalid without an error inside: the error is elsewhere (an invalid
    // type it names); the first error of the file is the best we can say.
    return Break(Errors.empty() ? nullptr : &Errors.front(), D);

  UseFinder Finder;
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    Finder.TraverseDecl(const_cast<FunctionDecl *>(FD));
  else if (const auto *VD = dyn_cast<VarDecl>(D))
    Finder.TraverseDecl(const_cast<VarDecl *>(VD));
  // A class is judged by its validity alone: its methods are judged when
  // they are called.
  if (Finder.Recovered && !Errors.empty()) {
    // An expression clang rebuilt after an error reported elsewhere (in a
    // macro's definition, say).
    return Break(&Errors.front(), D);
  }
  for (const Decl *U : Finder.Uses) {
    if (definitionOf(U) == D)
      continue;
    const Verdict &UV = verdict(U);
    if (UV.Broken)
      return Break(UV.Error, UV.Culprit);
  }
  V->Visiting = false;
  return *V;
}

std::vector<NotAnalyzed> ErrorIsolation::lost() {
  std::vector<NotAnalyzed> Out;
  if (!WholeFile.empty())
    return Out;
  const SourceManager &SM = Ctx.getSourceManager();
  std::set<const ClangError *> Attributed;
  FunctionLister Lister;
  Lister.TraverseDecl(Ctx.getTranslationUnitDecl());
  std::set<const Decl *> Seen;
  for (const FunctionDecl *FD : Lister.Found) {
    if (!Seen.insert(FD).second)
      continue;
    // Lambdas and local classes belong to the function around them.
    if (FD->getParentFunctionOrMethod())
      continue;
    NotAnalyzed N;
    if (FD->hasAttr<CUDAGlobalAttr>()) {
      // A kernel template counts by its instantiations, which are what
      // would be analyzed; one that has none, by its own source.
      if (FD->isDependentContext()) {
        const FunctionTemplateDecl *TD = FD->getDescribedFunctionTemplate();
        if (!TD || !TD->specializations().empty() || !hasOwnError(FD))
          continue;
      }
      const Verdict &V = verdict(FD);
      if (!V.Broken)
        continue;
      N.Kind = "kernel";
      if (V.Error)
        N.Error = *V.Error;
      if (V.Culprit && definitionOf(V.Culprit) != definitionOf(FD))
        N.Via = nameOf(Ctx, V.Culprit);
    } else {
      // Other functions count once, by the source they were written in.
      if (FD->isTemplateInstantiation() ||
          SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
        continue;
      const ClangError *E = firstErrorIn(FD);
      if (!E)
        continue;
      bool Device =
          FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>();
      N.Kind = Device ? "device function" : "host function";
      N.Error = *E;
    }
    N.Name = nameOf(Ctx, FD);
    N.Loc = toSourceLoc(SM, FD->getLocation());
    for (const ClangError &E : Errors)
      if (N.Error.Loc == E.Loc && N.Error.Message == E.Message)
        Attributed.insert(&E);
    Out.push_back(std::move(N));
  }
  // Errors outside every function: name the declaration that holds them.
  for (const ClangError &E : Errors) {
    if (Attributed.count(&E))
      continue;
    bool InFunction = false;
    for (const NotAnalyzed &N : Out)
      InFunction |= N.Via.empty() && N.Error.Loc == E.Loc;
    if (InFunction)
      continue;
    EnclosingDecl Enclosing(SM, SM.getExpansionLoc(E.Loc));
    Enclosing.TraverseDecl(Ctx.getTranslationUnitDecl());
    // An error inside a function already named (its second error, say)
    // needs no entry of its own.
    if (Enclosing.Found && isa<FunctionDecl>(Enclosing.Found) &&
        llvm::any_of(Out, [&](const NotAnalyzed &N) {
          return N.Via.empty() &&
                 N.Loc.Line ==
                     toSourceLoc(SM, Enclosing.Found->getLocation()).Line &&
                 N.Name == nameOf(Ctx, Enclosing.Found);
        }))
      continue;
    NotAnalyzed N;
    N.Kind = "declaration";
    N.Error = E;
    if (Enclosing.Found) {
      N.Name = nameOf(Ctx, Enclosing.Found);
      N.Loc = toSourceLoc(SM, Enclosing.Found->getLocation());
    } else {
      N.Loc = E.Where;
    }
    Out.push_back(std::move(N));
  }
  llvm::stable_sort(Out, [](const NotAnalyzed &A, const NotAnalyzed &B) {
    return std::tie(A.Loc.File, A.Loc.Line, A.Loc.Column) <
           std::tie(B.Loc.File, B.Loc.Line, B.Loc.Column);
  });
  return Out;
}
