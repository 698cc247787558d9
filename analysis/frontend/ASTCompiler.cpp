//===- ASTCompiler.cpp ----------------------------------------------------===//

#include "ASTCompiler.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/LangStandard.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/CodeGen/ModuleBuilder.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

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

/// Hands CodeGen the declarations of DC that do not depend on rejected code,
/// one by one: a namespace given whole would be generated whole.
static void emitUsable(CodeGenerator &Gen, DeclContext *DC,
                       ErrorIsolation &Iso) {
  for (Decl *D : DC->decls()) {
    if (isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D) ||
        isa<ExportDecl>(D)) {
      emitUsable(Gen, cast<DeclContext>(D), Iso);
      continue;
    }
    if (D->isInvalidDecl())
      continue;
    if ((isa<FunctionDecl>(D) || isa<VarDecl>(D)) && Iso.isBroken(D))
      continue;
    Gen.HandleTopLevelDecl(DeclGroupRef(D));
  }
}

llvm::Expected<CompiledUnit>
roofline::compileFromAST(ASTContext &Ctx, Preprocessor &PP,
                         const CompileOptions &Opts,
                         const std::vector<ClangError> &Errors) {
  const LangOptions &LO = Ctx.getLangOpts();
  if (!LO.CUDA)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "not a CUDA translation unit");
  if (!LO.CUDAIsDevice)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the roofline analysis needs the device side of the CUDA "
        "compilation, and this is the host side (drop --cuda-host-only)");
  std::unique_ptr<ErrorIsolation> Iso;
  if (Ctx.getDiagnostics().hasErrorOccurred()) {
    if (Errors.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "the file has compile errors; nothing "
                                     "analyzed");
    Iso = std::make_unique<ErrorIsolation>(Ctx, Errors);
    if (!Iso->wholeFileError().empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "nothing analyzed: " +
                                         Iso->wholeFileError());
  }

  CompiledUnit Out;
  SourceManager &SM = Ctx.getSourceManager();
  if (auto Main = SM.getFileEntryRefForID(SM.getMainFileID()))
    Out.File = Main->getName().str();
  Out.Context = std::make_unique<llvm::LLVMContext>();

  // The same facts and the same codegen options as compileDeviceSide.
  if (Iso) {
    // A host function clang rejected says nothing reliable about launches.
    collectHostFacts(Ctx, Out.Facts, Opts.Params,
                     [&](const Decl *D) { return Iso->hasOwnError(D); });
    Out.Lost = Iso->lost();
  } else {
    createHostLaunchCollector(Out.Facts, Opts.Params)
        ->HandleTranslationUnit(Ctx);
  }
  CodeGenOptions CGO;
  CGO.OptimizationLevel = 3;
  // As in a release build: without it clang marks every loop that has no
  // pragma "do not unroll", and the machine code the instruction counts
  // come from (PtxCodegen.h) would keep loops a build unrolls.
  CGO.UnrollLoops = true;
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
  std::unique_ptr<CodeGenerator> Gen =
      CreateLLVMCodeGen(Diags, Out.File.empty() ? "device" : Out.File,
                        SM.getFileManager().getVirtualFileSystemPtr(),
                        PP.getHeaderSearchInfo().getHeaderSearchOpts(),
                        PP.getPreprocessorOpts(), CGO, *Out.Context);
  Gen->Initialize(Ctx);
  if (Iso)
    emitUsable(*Gen, Ctx.getTranslationUnitDecl(), *Iso);
  else
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      Gen->HandleTopLevelDecl(DeclGroupRef(D));
  InstantiationFinder Finder;
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (FunctionDecl *FD : Finder.Found)
    if (!Iso || !Iso->isBroken(FD))
      Gen->HandleTopLevelDecl(DeclGroupRef(FD));
  Gen->HandleTranslationUnit(Ctx);
  Out.Module = Gen->ReleaseModule();
  if (!Out.Module || Diags.hasErrorOccurred())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "device code generation failed; nothing "
                                   "analyzed");

  std::string Arch = Ctx.getTargetInfo().getTargetOpts().CPU;
  Out.Built = llvm::CloneModule(*Out.Module);
  optimizeForAnalysis(*Out.Module, Arch.empty() ? Opts.Arch : Arch,
                      Out.Facts.TensorMaps);
  if (Opts.DumpIR)
    Out.Module->print(llvm::errs(), nullptr);
  return std::move(Out);
}

std::vector<std::string> roofline::userCompileArgs(const LangOptions &LO,
                                                   Preprocessor &PP) {
  std::vector<std::string> Args = {"-xcuda"};
  const LangStandard &Std = LangStandard::getLangStandardForKind(LO.LangStd);
  Args.push_back(std::string("-std=") + Std.getName());
  for (const HeaderSearchOptions::Entry &E :
       PP.getHeaderSearchInfo().getHeaderSearchOpts().UserEntries) {
    if (E.Group == frontend::Angled)
      Args.push_back("-I" + E.Path);
    else if (E.Group == frontend::Quoted)
      Args.push_back("-iquote" + E.Path);
  }
  const PreprocessorOptions &PPO = PP.getPreprocessorOpts();
  for (const auto &[Macro, IsUndef] : PPO.Macros)
    Args.push_back((IsUndef ? "-U" : "-D") + Macro);
  for (const std::string &Inc : PPO.Includes) {
    // The driver's own (clang's CUDA runtime wrapper) and the prelude come
    // back with compileDeviceSide.
    if (llvm::StringRef(Inc).starts_with(ROOFLINE_CLANG_RESOURCE_DIR) ||
        llvm::StringRef(Inc).contains("__clang_cuda_runtime_wrapper.h") ||
        llvm::StringRef(Inc).starts_with(ROOFLINE_PRELUDE_DIR))
      continue;
    Args.push_back("-include");
    Args.push_back(Inc);
  }
  return Args;
}
