//===- RooflinePlugin.cpp - Roofline findings during a normal clang build
//---===//
//
//   clang++ -x cuda --cuda-gpu-arch=sm_90
//   -fplugin=build/lib/cuda-roofline-plugin.so
//       [-fplugin-arg-roofline-KEY=VALUE ...] -c FILE.cu
//
// The plugin runs in every cc1 job of the compilation. Only a device job
// can be analyzed, and the driver runs one per GPU architecture, in its own
// process or in separate ones (Debian's clang spawns each cc1): the job of
// the lowest architecture on the driver's command line reports and the
// others stay quiet, so each finding prints once.
// Findings are warnings in clang's backend-plugin group: -Wno-backend-plugin
// silences them, -Werror=backend-plugin (or -Werror) fails the build on
// them. The analysis codegens the AST again with its own options, so lines,
// columns and numbers do not depend on -g or -O.
//
// Arguments (-fplugin-arg-roofline-KEY=VALUE; the plugin's name has no dash
// because clang splits the flag at the first one): the rows of
// analysis/core/Options.def with a PLUGIN key -- checks=GLOB (clang-tidy
// syntax, default every check), warnings-as-errors=GLOB (findings of these
// checks are errors; a note only when named in full), gpu, param, params,
// launch, launches, the thresholds, kernel-summary (default false here), the
// limits and prelude (default true: pre-include the nvcc-compatibility
// prelude into the device jobs, analysis/frontend/Prelude.h). NOLINT
// comments in the source apply, as in clang-tidy.
//
//===----------------------------------------------------------------------===//

#include "../LintSupport.h"
#include "Analyzer.h"
#include "LintOptions.h"
#include "LintPolicy.h"
#include "Prelude.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <unistd.h>

#include <mutex>
#include <set>

using namespace clang;

namespace roofline {
namespace {

std::vector<std::string> readCommandLine(const std::string &Path) {
  std::vector<std::string> Args;
  auto Buf = llvm::MemoryBuffer::getFileAsStream(Path);
  if (!Buf)
    return Args;
  llvm::SmallVector<StringRef, 32> Parts;
  (*Buf)->getBuffer().split(Parts, '\0', -1, /*KeepEmpty=*/false);
  for (StringRef P : Parts)
    Args.push_back(P.str());
  return Args;
}

/// The GPU architectures of the compilation, from the driver's command line:
/// this process's when cc1 runs inside the driver, else the parent's (the
/// driver that spawned this cc1). Linux's /proc only; empty if unknown.
std::vector<std::string> driverArchitectures() {
  std::vector<std::string> Args = readCommandLine("/proc/self/cmdline");
  if (Args.size() > 1 && Args[1] == "-cc1")
    Args = readCommandLine("/proc/" + std::to_string(::getppid()) + "/cmdline");
  std::vector<std::string> Archs;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I], Value;
    for (StringRef Flag : {"--cuda-gpu-arch", "--offload-arch"}) {
      if (A == Flag && I + 1 < Args.size())
        Value = Args[I + 1];
      else if (A.consume_front(Flag) && A.consume_front("="))
        Value = A;
    }
    llvm::SmallVector<StringRef, 4> List;
    Value.split(List, ',', -1, /*KeepEmpty=*/false);
    for (StringRef V : List)
      Archs.push_back(V.str());
  }
  return Archs;
}

unsigned archNumber(StringRef Arch) {
  unsigned N = 0;
  Arch.consume_front("sm_");
  Arch.consumeInteger(10, N);
  return N;
}

/// Whether the device job compiling for Arch is the one that reports: the
/// driver runs one device job per architecture, in separate processes or
/// not, and the lowest architecture's speaks for all (whatever the order of
/// the flags). When the driver's flags cannot be read, every job reports.
bool reportingArchitecture(StringRef Arch) {
  std::vector<std::string> Archs = driverArchitectures();
  if (Archs.empty() || llvm::find(Archs, Arch) == Archs.end())
    return true;
  for (const std::string &A : Archs)
    if (std::make_pair(archNumber(A), StringRef(A)) <
        std::make_pair(archNumber(Arch), Arch))
      return false;
  return true;
}

/// Main files already reported by a device job of this process.
bool firstReport(const std::string &MainFile) {
  static std::mutex M;
  static std::set<std::string> Seen;
  std::lock_guard<std::mutex> Lock(M);
  return Seen.insert(MainFile).second;
}

unsigned warningID(DiagnosticsEngine &D, DiagnosticIDs::Level Level) {
  // A finding warnings-as-errors promoted: an error, which no -W flag
  // turns back into a warning.
  if (Level == DiagnosticIDs::Error)
    return D.getDiagnosticIDs()->getCustomDiagID(DiagnosticIDs::CustomDiagDesc(
        diag::Severity::Error, "%0", DiagnosticIDs::CLASS_ERROR));
  std::optional<diag::Group> Group =
      DiagnosticIDs::getGroupForWarningOption("backend-plugin");
  diag::Severity Sev = Level == DiagnosticIDs::Note ? diag::Severity::Ignored
                                                    : diag::Severity::Warning;
  unsigned Class = Level == DiagnosticIDs::Note ? DiagnosticIDs::CLASS_NOTE
                   : Level == DiagnosticIDs::Remark
                       ? DiagnosticIDs::CLASS_REMARK
                       : DiagnosticIDs::CLASS_WARNING;
  if (Level == DiagnosticIDs::Remark)
    Sev = diag::Severity::Remark;
  return D.getDiagnosticIDs()->getCustomDiagID(DiagnosticIDs::CustomDiagDesc(
      Sev, "%0", Class, /*ShowInSystemHeader=*/false,
      /*ShowInSystemMacro=*/false,
      Level == DiagnosticIDs::Note ? std::nullopt : Group));
}

class RooflineConsumer : public ASTConsumer {
public:
  RooflineConsumer(CompilerInstance &CI, LintSettings Config)
      : CI(CI), Config(std::move(Config)),
        // Before parsing: clang's errors decide which kernels can still be
        // analyzed (the build fails on them, but the rest is reported).
        Recorder(ErrorRecorder::install(CI.getDiagnostics())) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!Ctx.getLangOpts().CUDA || !Ctx.getLangOpts().CUDAIsDevice)
      return; // Host job: a device job reports.
    DiagnosticsEngine &D = CI.getDiagnostics();
    SourceManager &SM = Ctx.getSourceManager();
    auto Main = SM.getFileEntryRefForID(SM.getMainFileID());
    if (!Main)
      return;
    llvm::SmallString<256> Abs(Main->getName());
    llvm::sys::fs::make_absolute(Abs);
    if (!reportingArchitecture(Ctx.getTargetInfo().getTargetOpts().CPU) ||
        !firstReport(Abs.str().str()))
      return;

    Analyzer A(lintGpus(), Config.Analysis);
    auto R = A.analyzeAST(Ctx, CI.getPreprocessor(), Recorder.errors());
    unsigned Warn = warningID(D, DiagnosticIDs::Warning);
    if (!R) {
      D.Report(SM.getLocForStartOfFile(SM.getMainFileID()), Warn)
          << "cuda-roofline: " + llvm::toString(R.takeError());
      return;
    }
    LintOutcome L = applyLintPolicy(*R, Config.Policy);
    for (const std::string &P : L.Problems)
      D.Report(SM.getLocForStartOfFile(SM.getMainFileID()), Warn)
          << "cuda-roofline: NOLINT comments: " + P;
    LintStyle Style;
    Style.TagCheck = true;
    forEachFinding(*R, [&](const Finding &F) {
      for (const LintDiagnostic &Diag : findingDiagnostics(SM, F, Style))
        D.Report(Diag.Loc, warningID(D, Diag.Level == LintLevel::Error
                                            ? DiagnosticIDs::Error
                                        : Diag.Level == LintLevel::Remark
                                            ? DiagnosticIDs::Remark
                                        : Diag.Level == LintLevel::Note
                                            ? DiagnosticIDs::Note
                                            : DiagnosticIDs::Warning))
            << Diag.Message;
    });
  }

private:
  CompilerInstance &CI;
  LintSettings Config;
  ErrorRecorder &Recorder;
};

class RooflineAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef InFile) override {
    // The preprocessor exists and has not read the main file yet: nvcc's
    // dialect (Prelude.h) can still be pre-included. In device jobs only,
    // which the analysis reads: the host job's object is the user's build,
    // and a file that needs the prelude's host shims fails there without
    // the plugin too. Where the device code compiles without the prelude,
    // the prelude (declarations only, never preferred over the real ones)
    // changes nothing in it.
    if (Config.Analysis.Prelude && CI.getLangOpts().CUDA &&
        CI.getLangOpts().CUDAIsDevice && CI.hasPreprocessor())
      if (llvm::Error E = injectPrelude(CI.getPreprocessor())) {
        DiagnosticsEngine &D = CI.getDiagnostics();
        D.Report(warningID(D, DiagnosticIDs::Warning))
            << "cuda-roofline: " + llvm::toString(std::move(E));
      }
    // The toolkit's CCCL directory (as the CLI always adds it) and the
    // config file's extra-args, as the CLI appends them (device jobs only,
    // for the reason above).
    if (CI.getLangOpts().CUDA && CI.getLangOpts().CUDAIsDevice &&
        CI.hasPreprocessor())
      for (int Step = 0; Step < 2; ++Step)
        if (llvm::Error E =
                Step == 0 ? injectCcclDir(CI.getPreprocessor())
                          : injectConfigArgs(CI.getPreprocessor(), InFile)) {
          DiagnosticsEngine &D = CI.getDiagnostics();
          D.Report(warningID(D, DiagnosticIDs::Warning))
              << "cuda-roofline: " + llvm::toString(std::move(E));
        }
    return std::make_unique<RooflineConsumer>(CI, Config);
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    Config = defaultSettings(FrontEnd::Plugin);
    DiagnosticsEngine &D = CI.getDiagnostics();
    for (const std::string &Arg : Args) {
      auto [Key, Value] = StringRef(Arg).split('=');
      if (llvm::Error E = setOption(Config, FrontEnd::Plugin, Key, Value)) {
        unsigned ID = D.getCustomDiagID(
            DiagnosticsEngine::Error, "cuda-roofline plugin argument '%0': %1");
        D.Report(ID) << Arg << llvm::toString(std::move(E));
        return false;
      }
    }
    if (llvm::Error E = checkGpu(Config.Analysis, lintGpus())) {
      unsigned ID = D.getCustomDiagID(DiagnosticsEngine::Error,
                                      "cuda-roofline plugin: %0");
      D.Report(ID) << llvm::toString(std::move(E));
      return false;
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  LintSettings Config;
};

} // namespace
} // namespace roofline

static FrontendPluginRegistry::Add<roofline::RooflineAction>
    X("roofline", "Roofline findings for CUDA kernels (cuda-roofline)");
