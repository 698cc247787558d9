//===- RooflineTidyModule.cpp - The roofline-* checks for clang-tidy ------===//
//
//   clang-tidy --load=build/lib/cuda-roofline-tidy.so --checks='-*,roofline-*'
//       FILE.cu -- --cuda-gpu-arch=sm_90 ...
//
// Every roofline-* check id is a check here. They share one analysis per
// translation unit (the first enabled check to reach the end of the unit
// runs it); each reports the findings with its own id, so clang-tidy's
// check globs, NOLINT comments, --warnings-as-errors and header filters
// apply as they do to any check. For a .cu file clang-tidy parses the first
// device job, which is what the analysis needs.
//
// Options (CheckOptions; one set for all roofline checks):
//   roofline.Gpu, roofline.Params ("M=4096;N=4096"), roofline.Launches
//   ("k=GRID/BLOCK;..."), roofline.MinEfficiencyLoss,
//   roofline.MinConflictWays, roofline.MinReuse, roofline.MinReuseCost,
//   roofline.MemoryBoundFraction, roofline.KernelSummary (default false),
//   roofline.MaxKernelSeconds (default 30), roofline.MaxKernelMemory (MiB,
//   default 4096), roofline.MaxFileSeconds (default 120), roofline.Prelude (default true: pre-include the
//   nvcc-compatibility prelude, analysis/frontend/Prelude.h).
// .cuda-roofline.yaml and in-source annotations apply as in the CLI.
//
//===----------------------------------------------------------------------===//

#include "../LintSupport.h"
#include "Analyzer.h"
#include "CheckGlob.h"
#include "Checks.h"
#include "GpuDatabase.h"
#include "LintOptions.h"
#include "Prelude.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"

#include <optional>

using namespace clang;
using namespace clang::tidy;
using namespace clang::ast_matchers;

namespace roofline {
namespace {

/// The analysis of the translation unit being checked, shared by the
/// roofline checks (clang-tidy runs one unit at a time).
struct UnitAnalysis {
  const TranslationUnitDecl *Unit = nullptr;
  std::string MainFile;
  std::optional<FileReport> Report;
  std::string Error;
  bool BadOption = false; ///< Error is about CheckOptions.
  bool ErrorReported = false;
};

UnitAnalysis &currentUnit() {
  static UnitAnalysis U;
  return U;
}

const GpuDatabase &gpus() {
  static GpuDatabase DB = GpuDatabase::builtin();
  return DB;
}

class RooflineCheck : public ClangTidyCheck {
public:
  RooflineCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context), Context(Context) {}

  bool isLanguageVersionSupported(const LangOptions &LO) const override {
    return LO.CUDA;
  }

  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *) override {
    this->PP = PP;
    // Before parsing: the errors clang will report decide which kernels
    // can still be analyzed.
    Recorder = &ErrorRecorder::install(PP->getDiagnostics());
    // Nor has it read the main file: the last moment to pre-include nvcc's
    // dialect (Prelude.h). In host jobs too, as clang-tidy builds nothing.
    // A bad roofline.Prelude value is reported with the other options'
    // when the unit is analyzed.
    AnalyzerOptions O;
    OptionsView Shared("roofline", Context->getOptions().CheckOptions,
                       Context);
    if (std::optional<StringRef> V = Shared.get("Prelude"))
      if (llvm::Error E = setLintOption(O, "Prelude", *V)) {
        llvm::consumeError(std::move(E));
        O.Prelude = false;
      }
    if (llvm::Error E = injectCcclDir(*PP))
      configurationDiag("cuda-roofline: %0") << llvm::toString(std::move(E));
    if (O.Prelude)
      if (llvm::Error E = injectPrelude(*PP))
        configurationDiag("cuda-roofline: %0") << llvm::toString(std::move(E));
    // The config file's extra-args, which the CLI appends to the compile
    // command, reach this one through the preprocessor.
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
      if (llvm::Error E = injectConfigArgs(*PP, Main->getName()))
        configurationDiag("cuda-roofline: %0") << llvm::toString(std::move(E));
  }

  void registerMatchers(MatchFinder *Finder) override {
    Finder->addMatcher(translationUnitDecl().bind("unit"), this);
  }

  void check(const MatchFinder::MatchResult &Result) override {
    Ctx = Result.Context;
  }

  void onEndOfTranslationUnit() override {
    if (!Ctx || !PP)
      return;
    UnitAnalysis &U = analyze();
    SourceManager &SM = Ctx->getSourceManager();
    if (!U.Report) {
      // Said once per unit, by whichever check gets here first.
      if (!U.ErrorReported && !U.Error.empty()) {
        U.ErrorReported = true;
        if (U.BadOption)
          configurationDiag("cuda-roofline: %0") << U.Error;
        else
          diag(SM.getLocForStartOfFile(SM.getMainFileID()),
               "cuda-roofline: %0")
              << U.Error;
      }
      return;
    }
    // clang-tidy promotes warnings only: a note that --warnings-as-errors
    // names in full (roofline-missing-size) is reported as a warning for
    // clang-tidy to promote, as the other front-ends promote it.
    bool NoteAsWarning = false;
    if (const std::optional<std::string> &WAE =
            Context->getOptions().WarningsAsErrors) {
      if (auto G = CheckGlob::parse(*WAE))
        NoteAsWarning = promotesToError(*G, getID(), "note");
      else
        llvm::consumeError(G.takeError());
    }
    forEachFinding(*U.Report, [&](const Finding &F) {
        if (F.Check != getID())
          return;
        // A summary note has nothing to attach to: a remark stands alone.
        auto Level = F.Level == "note" && !NoteAsWarning
                         ? DiagnosticIDs::Remark
                         : DiagnosticIDs::Warning;
        diag(findingLocation(SM, F.Loc.File, F.Loc.Line, F.Loc.Column), "%0", Level)
            << F.Message;
        if (Level == DiagnosticIDs::Remark)
          return;
        for (const FindingNote &N : F.Notes)
          diag(findingLocation(SM, N.Loc.File, N.Loc.Line, N.Loc.Column), "%0",
               DiagnosticIDs::Note)
              << N.Message;
      });
  }

  void storeOptions(ClangTidyOptions::OptionMap &Opts) override {}

private:
  UnitAnalysis &analyze() {
    UnitAnalysis &U = currentUnit();
    const TranslationUnitDecl *Unit = Ctx->getTranslationUnitDecl();
    SourceManager &SM = Ctx->getSourceManager();
    std::string Main;
    if (auto F = SM.getFileEntryRefForID(SM.getMainFileID()))
      Main = F->getName().str();
    if (U.Unit == Unit && U.MainFile == Main)
      return U;
    U = UnitAnalysis();
    U.Unit = Unit;
    U.MainFile = Main;

    AnalyzerOptions Opts;
    Opts.Findings.KernelSummary = false; // Off in lint front-ends.
    OptionsView Shared("roofline", Context->getOptions().CheckOptions,
                       Context);
    for (StringRef Key :
         {"Gpu", "Params", "Launches", "MinEfficiencyLoss", "MinConflictWays",
          "MinReuse", "MinReuseCost", "MemoryBoundFraction", "KernelSummary",
          "MaxKernelSeconds", "MaxKernelMemory", "MaxFileSeconds",
          "Prelude"}) {
      std::optional<StringRef> V = Shared.get(Key);
      if (!V)
        continue;
      if (llvm::Error E = setLintOption(Opts, Key, *V)) {
        U.Error = "CheckOptions roofline." + Key.str() + ": " +
                  llvm::toString(std::move(E));
        U.BadOption = true;
        return U;
      }
    }
    if (Opts.GpuId && !gpus().find(*Opts.GpuId)) {
      U.Error = "CheckOptions roofline.Gpu: unknown GPU '" + *Opts.GpuId +
                "' (see cuda-roofline --list-gpus)";
      U.BadOption = true;
      return U;
    }
    Analyzer A(gpus(), Opts);
    auto R = A.analyzeAST(*Ctx, *PP,
                          Recorder ? Recorder->errors()
                                   : std::vector<ClangError>());
    if (!R) {
      U.Error = llvm::toString(R.takeError());
      return U;
    }
    U.Report = std::move(*R);
    return U;
  }

  ClangTidyContext *Context;
  ASTContext *Ctx = nullptr;
  Preprocessor *PP = nullptr;
  ErrorRecorder *Recorder = nullptr;
};

class RooflineModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    for (const CheckInfo &C : allChecks())
      Factories.registerCheckFactory(
          C.Id, [](StringRef Name, ClangTidyContext *Context) {
            return std::make_unique<RooflineCheck>(Name, Context);
          });
  }
};

} // namespace
} // namespace roofline

static ClangTidyModuleRegistry::Add<roofline::RooflineModule>
    X("roofline-module", "Roofline analysis of CUDA kernels (cuda-roofline).");

// Referenced by clang-tidy's force-linker pattern when linked statically.
volatile int RooflineModuleAnchorSource = 0;
