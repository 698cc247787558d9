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
// Options (CheckOptions roofline.KEY; one set for all roofline checks): the
// rows of analysis/core/Options.def with a TIDY key -- Gpu, Params, Launches,
// the thresholds, KernelSummary (default false here), the limits and
// Prelude. .cuda-roofline.yaml and in-source annotations apply as in the
// CLI.
//
//===----------------------------------------------------------------------===//

#include "../LintSupport.h"
#include "Analyzer.h"
#include "CheckGlob.h"
#include "Checks.h"
#include "LintOptions.h"
#include "Prelude.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"

#include <functional>
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

/// The value of CheckOptions roofline.KEY, if set.
std::function<std::optional<std::string>(StringRef)>
sharedOptions(ClangTidyContext *Context) {
  return [Context](StringRef Key) -> std::optional<std::string> {
    ClangTidyCheck::OptionsView Shared(
        "roofline", Context->getOptions().CheckOptions, Context);
    if (std::optional<StringRef> V = Shared.get(Key))
      return V->str();
    return std::nullopt;
  };
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
    LintSettings O = defaultSettings(FrontEnd::Tidy);
    const OptionSpec &Prelude = option(OptionId::Prelude);
    if (std::optional<std::string> V =
            sharedOptions(Context)(Prelude.key(FrontEnd::Tidy)))
      if (llvm::Error E =
              setOption(O, Prelude, Prelude.key(FrontEnd::Tidy), *V)) {
        llvm::consumeError(std::move(E));
        O.Analysis.Prelude = false;
      }
    if (llvm::Error E = injectCcclDir(*PP))
      configurationDiag("cuda-roofline: %0") << llvm::toString(std::move(E));
    if (O.Analysis.Prelude)
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
          diag(SM.getLocForStartOfFile(SM.getMainFileID()), "cuda-roofline: %0")
              << U.Error;
      }
      return;
    }
    // clang-tidy promotes warnings only: a note that --warnings-as-errors
    // names in full (roofline-missing-size) is reported as a warning for
    // clang-tidy to promote, as the other front-ends promote it.
    LintStyle Style;
    if (const std::optional<std::string> &WAE =
            Context->getOptions().WarningsAsErrors) {
      if (auto G = CheckGlob::parse(*WAE))
        Style.NoteAsWarning = promotesToError(*G, getID(), "note");
      else
        llvm::consumeError(G.takeError());
    }
    forEachFinding(*U.Report, [&](const Finding &F) {
      if (F.Check != getID())
        return;
      for (const LintDiagnostic &D : findingDiagnostics(SM, F, Style))
        diag(D.Loc, "%0",
             D.Level == LintLevel::Remark ? DiagnosticIDs::Remark
             : D.Level == LintLevel::Note ? DiagnosticIDs::Note
                                          : DiagnosticIDs::Warning)
            << D.Message;
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

    LintSettings S = defaultSettings(FrontEnd::Tidy);
    std::string Bad; // "KEY: MESSAGE"
    if (llvm::Error E = readOptions(S, FrontEnd::Tidy, sharedOptions(Context)))
      Bad = llvm::toString(std::move(E));
    else if (llvm::Error E = checkGpu(S.Analysis, lintGpus()))
      Bad = option(OptionId::Gpu).key(FrontEnd::Tidy).str() + ": " +
            llvm::toString(std::move(E));
    if (!Bad.empty()) {
      U.Error = "CheckOptions roofline." + Bad;
      U.BadOption = true;
      return U;
    }
    Analyzer A(lintGpus(), S.Analysis);
    auto R = A.analyzeAST(
        *Ctx, *PP, Recorder ? Recorder->errors() : std::vector<ClangError>());
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
