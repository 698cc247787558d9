//===- cuda-roofline-lsp.cpp - The language server -----------------------===//
//
// cuda-roofline-lsp [options]
//
// A language server over stdin/stdout (LSP, JSON-RPC) that analyzes the CUDA
// files an editor opens, from the editor's buffer, and reports the findings
// as diagnostics, the counts on hover and the kernels as document symbols
// (docs/editors.md). The protocol is llvm/Support/LSP's; the analysis is the
// library's, as in the command-line tool.
//
//===----------------------------------------------------------------------===//

#include "CheckedInput.h"
#include "GpuDatabase.h"
#include "LintOptions.h"
#include "Server.h"
#include "Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace roofline;

static cl::OptionCategory Cat("cuda-roofline-lsp options");
static cl::opt<std::string>
    CompileCommandsDir("compile-commands-dir",
                       cl::desc("Directory of the compile_commands.json to "
                                "use (default: searched upward from each "
                                "file)"),
                       cl::value_desc("DIR"), cl::cat(Cat));
static cl::list<std::string> Settings(
    "setting",
    cl::desc("An option as the clang-tidy module names it (Gpu=h200, "
             "Params='n=1024', MinReuse=4, CudaPath=DIR, ...), before the "
             "client's settings (repeatable)"),
    cl::value_desc("KEY=VALUE"), cl::cat(Cat));
static cl::list<std::string> GpuFiles("gpu-file",
                                      cl::desc("Add GPUs from a JSON file"),
                                      cl::value_desc("FILE"), cl::cat(Cat));
static cl::opt<lsp::JSONStreamStyle> InputStyle(
    "input-style", cl::desc("Input JSON stream encoding"),
    cl::values(clEnumValN(lsp::JSONStreamStyle::Standard, "standard",
                          "usual LSP protocol (Content-Length headers)"),
               clEnumValN(lsp::JSONStreamStyle::Delimited, "delimited",
                          "messages delimited by '// -----' lines, with "
                          "comment support (tests)")),
    cl::init(lsp::JSONStreamStyle::Standard), cl::cat(Cat));
static cl::opt<bool> AllowUnsafeFlags(
    "allow-unsafe-flags",
    cl::desc("Let compile flags from the repository (compile_commands.json, "
             ".cuda-roofline.yaml) load or run code (refused by default; "
             "deliberately not a client setting: editors read workspace "
             "settings from the repository too)"),
    cl::cat(Cat));
static cl::opt<unsigned> DebounceMs(
    "debounce-ms",
    cl::desc("Milliseconds after an edit before the file is analyzed "
             "(default 300); a newer edit starts the wait again and "
             "cancels the analysis in progress"),
    cl::init(300), cl::cat(Cat));
static cl::opt<bool>
    Sync("sync",
         cl::desc("Analyze on the thread that reads the messages, in their "
                  "order, with no delay (for transcript tests)"),
         cl::cat(Cat));
static cl::opt<bool> PrettyPrint("pretty", cl::desc("Pretty-print JSON output"),
                                 cl::cat(Cat));
static cl::opt<lsp::Logger::Level> LogLevel(
    "log", cl::desc("Verbosity of the log on stderr"),
    cl::values(clEnumValN(lsp::Logger::Level::Error, "error", "errors only"),
               clEnumValN(lsp::Logger::Level::Info, "info",
                          "high-level execution tracing"),
               clEnumValN(lsp::Logger::Level::Debug, "verbose",
                          "every message")),
    cl::init(lsp::Logger::Level::Error), cl::cat(Cat));

static Expected<GpuDatabase> loadGpus() {
  return GpuDatabase::withFiles(GpuFiles);
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::HideUnrelatedOptions(Cat);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "cuda-roofline-lsp " << ToolVersion << "\n";
  });
  cl::ParseCommandLineOptions(Argc, Argv,
                              "cuda-roofline language server (stdio)\n");
  lsp::Logger::setLogLevel(LogLevel);
  auto Gpus = loadGpus();
  if (!Gpus) {
    errs() << "cuda-roofline-lsp: error: " << toString(Gpus.takeError())
           << "\n";
    return 2;
  }
  ServerOptions Opts;
  Opts.Settings = defaultSettings(FrontEnd::Tidy);
  Opts.CompileCommandsDir = CompileCommandsDir;
  Opts.Debounce = std::chrono::milliseconds(DebounceMs);
  Opts.Sync = Sync;
  Opts.Settings.Analysis.AllowUnsafeFlags = AllowUnsafeFlags;
  for (StringRef S : Settings) {
    auto [Key, Value] = S.split('=');
    if (Error E = setOption(Opts.Settings, FrontEnd::Tidy, Key, Value)) {
      errs() << "cuda-roofline-lsp: error: --setting " << S << ": "
             << toString(std::move(E)) << "\n";
      return 2;
    }
  }
  // A crash in one analysis is caught there (Server::analyze).
  CrashRecoveryContext::Enable();
  sys::ChangeStdinToBinary();
  auto Input = std::make_unique<CheckedInput>(stdin, InputStyle);
  CheckedInput &In = *Input;
  lsp::JSONTransport Transport(std::move(Input), outs(), PrettyPrint);
  In.replyThrough(Transport);
  Server S(*Gpus, std::move(Opts), Transport);
  int Code = 0;
  if (Error E = S.run()) {
    errs() << "cuda-roofline-lsp: " << toString(std::move(E)) << "\n";
    Code = 1;
  }
  // Without static destructors: an analysis whose crash was recovered can
  // leave LLVM's global state (timer groups) half-updated, and tearing it
  // down then crashes after the session has ended cleanly.
  outs().flush();
  errs().flush();
  sys::Process::Exit(Code, /*NoCleanup=*/true);
}
