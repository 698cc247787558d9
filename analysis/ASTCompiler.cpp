//===- ASTCompiler.cpp ----------------------------------------------------===//

#include "ASTCompiler.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/CodeGen/ModuleBuilder.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"

using namespace roofline;
using namespace clang;

namespace {

// Template instantiations are not among the translation unit's decls; the
// parser hands them to the consumer as it instantiates them, so a second
// codegen must be given them explicitly.
class InstantiationFinder : public RecursiveASTVisitor<InstantiationFinder> {
public:
  std::vector<FunctionDecl *> Found;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->isTemplateInstantiation() && FD->doesThisDeclarationHaveABody() &&
        !FD->isDependentContext())
      Found.push_back(FD);
    return true;
  }
};

} // namespace

llvm::Expected<CompiledUnit>
roofline::compileFromAST(ASTContext &Ctx, Preprocessor &PP,
                         const CompileOptions &Opts) {
  const LangOptions &LO = Ctx.getLangOpts();
  if (!LO.CUDA)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "not a CUDA translation unit");
  if (!LO.CUDAIsDevice)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the roofline analysis needs the device side of the CUDA "
        "compilation, and this is the host side (drop --cuda-host-only)");
  if (Ctx.getDiagnostics().hasErrorOccurred())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the file has compile errors; nothing "
                                   "analyzed");

  CompiledUnit Out;
  SourceManager &SM = Ctx.getSourceManager();
  if (auto Main = SM.getFileEntryRefForID(SM.getMainFileID()))
    Out.File = Main->getName().str();
  Out.Context = std::make_unique<llvm::LLVMContext>();

  // The same facts and the same codegen options as compileDeviceSide.
  createHostLaunchCollector(Out.Facts, Opts.Params)->HandleTranslationUnit(Ctx);
  CodeGenOptions CGO;
  CGO.OptimizationLevel = 3;
  CGO.DisableLLVMPasses = true;
  CGO.setDebugInfo(llvm::codegenoptions::DebugLineTablesOnly);
  CGO.DebugColumnInfo = true;
  CGO.DiscardValueNames = false;
  if (auto Cwd = SM.getFileManager()
                     .getVirtualFileSystem()
                     .getCurrentWorkingDirectory())
    CGO.DebugCompilationDir = *Cwd;

  // Codegen's own complaints stay out of the user's diagnostics: an error
  // there means no analysis, reported once by the caller.
  DiagnosticOptions DiagOpts;
  IgnoringDiagConsumer Ignore;
  DiagnosticsEngine Diags(new DiagnosticIDs(), DiagOpts, &Ignore,
                          /*ShouldOwnClient=*/false);
  Diags.setSourceManager(&SM);
  std::unique_ptr<CodeGenerator> Gen = CreateLLVMCodeGen(
      Diags, Out.File.empty() ? "device" : Out.File,
      SM.getFileManager().getVirtualFileSystemPtr(),
      PP.getHeaderSearchInfo().getHeaderSearchOpts(),
      PP.getPreprocessorOpts(), CGO, *Out.Context);
  Gen->Initialize(Ctx);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    Gen->HandleTopLevelDecl(DeclGroupRef(D));
  InstantiationFinder Finder;
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (FunctionDecl *FD : Finder.Found)
    Gen->HandleTopLevelDecl(DeclGroupRef(FD));
  Gen->HandleTranslationUnit(Ctx);
  Out.Module = Gen->ReleaseModule();
  if (!Out.Module || Diags.hasErrorOccurred())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "device code generation failed; nothing "
                                   "analyzed");

  std::string Arch = Ctx.getTargetInfo().getTargetOpts().CPU;
  optimizeForAnalysis(*Out.Module, Arch.empty() ? Opts.Arch : Arch);
  if (Opts.DumpIR)
    Out.Module->print(llvm::errs(), nullptr);
  return std::move(Out);
}
