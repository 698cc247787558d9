//===- fuzz_analyzer.cpp - libFuzzer target over the whole analysis -------===//
//
// Each input is a CUDA source. It is written to a .cu file in a private
// temporary directory and goes through everything the command-line tool
// does with it: roofline::Analyzer::analyzeFile (clang's device compile,
// kernel model, launches from call sites and annotations, counting,
// metrics, findings), the lint policy (NOLINT comments), and every emitter,
// into a null stream. Sizes come from Opts.Params, so the counting paths
// that need them run.
//
// An input may carry a config file too: the text after a line
// "//--- .cuda-roofline.yaml" is written next to the source as its
// .cuda-roofline.yaml (the dictionary has the marker).
//
// Build: -DROOFLINE_FUZZ=ON with clang (docs/robustness.md); run:
// tools/fuzz/run-fuzz.sh [SECONDS].
//
//===----------------------------------------------------------------------===//

#include "Analyzer.h"
#include "Emitters.h"
#include "GpuDatabase.h"
#include "LintPolicy.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace roofline;

namespace {

struct FuzzState {
  GpuDatabase Gpus = GpuDatabase::builtin();
  std::string Dir, Source, Config;
  std::unique_ptr<clang::tooling::FixedCompilationDatabase> DB;
};

FuzzState *State = nullptr;

bool writeFile(const std::string &Path, llvm::StringRef Data) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_None);
  if (EC)
    return false;
  OS << Data;
  OS.close();
  return !OS.has_error();
}

constexpr llvm::StringLiteral ConfigMarker = "//--- .cuda-roofline.yaml\n";

} // namespace

extern "C" int LLVMFuzzerInitialize(int *Argc, char ***Argv) {
  State = new FuzzState;
  llvm::SmallString<128> Dir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("cuda-roofline-fuzz", Dir)) {
    std::fprintf(stderr,
                 "fuzz_analyzer: cannot create a temporary directory: %s\n",
                 EC.message().c_str());
    std::abort();
  }
  State->Dir = Dir.str().str();
  State->Source = State->Dir + "/input.cu";
  State->Config = State->Dir + "/.cuda-roofline.yaml";
  // The flags the CLI passes when none are given.
  State->DB = std::make_unique<clang::tooling::FixedCompilationDatabase>(
      State->Dir, std::vector<std::string>());
  // The directory goes with the process.
  std::atexit([] {
    llvm::sys::fs::remove(State->Source);
    llvm::sys::fs::remove(State->Config);
    llvm::sys::fs::remove(State->Dir);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef In(reinterpret_cast<const char *>(Data), Size);
  llvm::StringRef Source = In, Config;
  size_t Marker = In.find(ConfigMarker);
  if (Marker != llvm::StringRef::npos) {
    Source = In.take_front(Marker);
    Config = In.drop_front(Marker + ConfigMarker.size());
  }
  if (!writeFile(State->Source, Source))
    std::abort();
  llvm::sys::fs::remove(State->Config);
  if (Marker != llvm::StringRef::npos && !writeFile(State->Config, Config))
    std::abort();

  AnalyzerOptions Opts;
  // The names the bundled kernels and most CUDA code use for sizes. Sizes
  // that are no multiple of the tiles (1000) make the counting walks of the
  // bundled kernels 5-10x slower, which under the sanitizers means 10-20 s
  // an input: 256 keeps an input at about a second. Annotations in the
  // input give the other names sizes.
  Opts.Params = {{"n", 4096}, {"N", 256}, {"M", 256}, {"K", 256}};
  // Give up counting a kernel well before libFuzzer's -timeout (30 s in
  // run-fuzz.sh): a timeout then means a hang outside the counting walks.
  Opts.KernelSeconds = 10;
  // Likewise under libFuzzer's -rss_limit_mb (4096 in run-fuzz.sh; ASan
  // alone keeps about 1 GiB resident): an out-of-memory report then means
  // memory spent outside the counting walks.
  Opts.KernelMemoryMiB = 3072;
  llvm::raw_null_ostream Diags;
  Opts.Diagnostics = &Diags;
  Analyzer A(State->Gpus, Opts);

  std::vector<FileReport> Reports;
  ReviewOptions RO;
  RO.SourceRoot = State->Dir;
  auto R = A.analyzeFile(*State->DB, State->Source);
  if (R) {
    // The CLI's lint policy: every check, the config's globs if valid.
    LintPolicy Policy;
    for (auto [Text, Slot] :
         {std::pair(&R->ConfigChecks, &Policy.Checks),
          std::pair(&R->ConfigWarningsAsErrors, &Policy.WarningsAsErrors)}) {
      if (!*Text)
        continue;
      auto G = CheckGlob::parse(**Text);
      if (G)
        *Slot = std::move(*G);
      else
        llvm::consumeError(G.takeError());
    }
    applyLintPolicy(*R, Policy);
    Reports.push_back(std::move(*R));
  } else {
    RO.Failures.push_back(llvm::toString(R.takeError()));
  }

  llvm::raw_null_ostream Null;
  emitText(Null, Reports);
  emitText(Null, Reports, /*FindingsOnly=*/true);
  emitJson(Null, Reports);
  emitSarif(Null, Reports, RO);
  emitGithub(Null, Reports, RO);
  emitRdjsonl(Null, Reports, RO);
  emitMarkdown(Null, Reports, RO);
  return 0;
}
