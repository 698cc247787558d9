//===- cuda-roofline.cpp - The command-line front-end ---------------------===//
//
// cuda-roofline [options] FILE... [-- CLANG-ARGS]
//
// A thin driver over the analysis library: parse options, pick the
// compilation database, run the Analyzer on each file, and write the report
// in each format asked for (--format on stdout, --output to files). Exit
// status, as clang-tidy's: 0 when every file was analyzed (with
// or without warnings), 1 when a warning was promoted to an error
// (--warnings-as-errors), 2 on usage, input or compile errors.
//
// The options every front-end shares (--gpu, --param, --launch, --checks,
// the thresholds, the limits, ...) are the rows of analysis/core/Options.def
// (TableFlags.h); the ones below are the command line's own.
//
//===----------------------------------------------------------------------===//

#include "Analyzer.h"
#include "CheckGlob.h"
#include "Checks.h"
#include "Emitters.h"
#include "GpuDatabase.h"
#include "LintOptions.h"
#include "LintPolicy.h"
#include "NvccFlags.h"
#include "TableFlags.h"
#include "Version.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <set>

using namespace llvm;
using namespace roofline;

static cl::OptionCategory Cat("cuda-roofline options");

static cl::list<std::string> Files(cl::Positional, cl::desc("FILE..."),
                                   cl::cat(Cat));
static cl::opt<std::string>
    BuildDir("p", cl::desc("Build directory with compile_commands.json"),
             cl::value_desc("BUILD_DIR"), cl::cat(Cat));
static cl::opt<bool> ListGpus("list-gpus",
                              cl::desc("List the GPU database and exit"),
                              cl::cat(Cat));
static cl::list<std::string> GpuFiles(
    "gpu-file",
    cl::desc(
        "Add GPUs from a JSON file (same schema as the built-in database)"),
    cl::value_desc("FILE"), cl::cat(Cat));
static cl::opt<std::string> CudaPath(
    "cuda-path",
    cl::desc("CUDA toolkit whose headers parse the input (default: the one "
             "cuda-roofline was built with)"),
    cl::value_desc("DIR"), cl::cat(Cat));
static cl::opt<std::string> Kernel("kernel",
                                   cl::desc("Only report this kernel"),
                                   cl::value_desc("NAME"), cl::cat(Cat));
static cl::opt<std::string> Format(
    "format",
    cl::desc("Output format: text, json, sarif, github, rdjsonl or markdown"),
    cl::init("text"), cl::cat(Cat));
static cl::list<std::string> Outputs(
    "output",
    cl::desc("Write the report in FORMAT to FILE ('-': stdout) too, from "
             "the same analysis (repeatable). With --output, stdout carries "
             "a report only when --format is given or FILE is '-'"),
    cl::value_desc("FORMAT=FILE"), cl::cat(Cat));
static cl::opt<std::string> Plot(
    "plot",
    cl::desc("Draw the hierarchical roofline of the analyzed kernels (DRAM, "
             "L2 and L1 roofs, the compute roofs of their precisions, a "
             "point per kernel and level) to FILE as SVG: --output "
             "svg=FILE"),
    cl::value_desc("FILE.svg"), cl::cat(Cat));
static cl::opt<std::string> SourceRoot(
    "source-root",
    cl::desc("Directory that sarif, github, rdjsonl and markdown paths are "
             "relative to (default: the current directory)"),
    cl::value_desc("DIR"), cl::cat(Cat));

// --gpu, --arch, --param, --launch, --checks, --warnings-as-errors, the
// thresholds, --kernel-summary, the limits and --no-prelude.
static TableFlags Shared(Cat);

static cl::opt<std::string> ConfigFile(
    "config-file",
    cl::desc("Use this config file instead of the .cuda-roofline.yaml found "
             "above each input"),
    cl::value_desc("FILE"), cl::cat(Cat));
static cl::opt<std::string> ExportCommands(
    "export-compile-commands",
    cl::desc("Write DIR/compile_commands.json: the -p database translated "
             "for clang (nvcc flags, response files), for clang-tidy, clangd "
             "and the clang plugin; analyzes nothing"),
    cl::value_desc("DIR"), cl::cat(Cat));
static cl::opt<unsigned>
    Jobs("j", cl::desc("Analyze N files in parallel (default 1)"),
         cl::value_desc("N"), cl::init(1), cl::cat(Cat));
static cl::opt<bool> FindingsOnly(
    "findings-only",
    cl::desc("Text format: print the warnings and errors only, as clang-tidy "
             "does (for pre-commit hooks and editors), and the "
             "roofline-missing-size note of a kernel without sizes"),
    cl::cat(Cat));

static cl::opt<bool> StrictParse(
    "strict-parse",
    cl::desc("Fail a file (exit 2) when clang rejects any of its code, "
             "instead of analyzing the kernels that do not depend on it"),
    cl::cat(Cat));

static cl::opt<bool> AllowUnsafeFlags(
    "allow-unsafe-flags",
    cl::desc("Let compile flags from the repository (compile_commands.json, "
             "the config file's extra-args) load or run code: -fplugin, "
             "-fpass-plugin, -Xclang -load, -B, --config, ... (refused by "
             "default)"),
    cl::cat(Cat));

static cl::opt<bool> DumpModel("dump-model",
                               cl::desc("Print the kernel model (debugging)"),
                               cl::Hidden, cl::cat(Cat));

static cl::opt<bool>
    DumpIR("dump-ir", cl::desc("Print the optimized device IR (debugging)"),
           cl::Hidden, cl::cat(Cat));

static cl::opt<std::string> TimeTrace(
    "time-trace",
    cl::desc("Write where the analysis spends its time (clang's phases and "
             "the analysis's) to FILE, in Chrome's trace format (developers; "
             "with -j 1)"),
    cl::value_desc("FILE"), cl::Hidden, cl::cat(Cat));

static int usageError(const Twine &Msg) {
  errs() << "cuda-roofline: error: " << Msg << "\n";
  return 2;
}

static constexpr const char *FormatNames[] = {
    "text", "json", "sarif", "github", "rdjsonl", "markdown", "svg"};
static constexpr const char *FormatList =
    "text, json, sarif, github, rdjsonl, markdown or svg";

static bool knownFormat(StringRef F) {
  return llvm::is_contained(FormatNames, F);
}

/// JSON, rdjsonl, GitHub and Markdown are UTF-8 text; text and SARIF
/// (percent-encoded URIs) keep a name's bytes.
static bool utf8Format(StringRef F) {
  return F == "json" || F == "rdjsonl" || F == "github" || F == "markdown" ||
         F == "svg";
}

/// A report to write: --format's on stdout, or an --output's.
struct Output {
  std::string Format;
  /// "-": stdout.
  std::string File;
  /// How errors name it: "--format=json", "--output 'json=r.json'".
  std::string Origin;
  std::unique_ptr<raw_fd_ostream> Stream;

  bool toStdout() const { return File == "-"; }
};

static Expected<Output> parseOutput(StringRef Spec) {
  std::string Origin = "--output '" + Spec.str() + "'";
  // At the first '=': a file name may hold one, a format name never does.
  auto [Fmt, File] = Spec.split('=');
  if (Fmt.size() == Spec.size())
    return createStringError("malformed " + Origin +
                             ": expected FORMAT=FILE ('-' as FILE for "
                             "stdout)");
  if (!knownFormat(Fmt))
    return createStringError(Origin + ": unknown format '" + Fmt +
                             "' (expected " + FormatList + ")");
  if (File.empty())
    return createStringError(Origin + ": no file after '=' (FILE, or '-' "
                                      "for stdout)");
  return Output{Fmt.str(), File.str(), Origin, nullptr};
}

/// Opens each output's file before the analysis, as a shell redirection
/// would: a file that cannot be written is known before the run is spent.
/// Two outputs in one regular file would overwrite each other, and an
/// input must not be truncated.
static Error openOutputs(std::vector<Output> &Outs,
                         ArrayRef<std::string> Inputs) {
  // Only regular files: a terminal, a pipe or /dev/null takes one report
  // after the other.
  auto regularFileId = [](int FD) -> std::optional<sys::fs::UniqueID> {
    sys::fs::file_status St;
    if (sys::fs::status(FD, St) ||
        St.type() != sys::fs::file_type::regular_file)
      return std::nullopt;
    return St.getUniqueID();
  };
  std::vector<std::pair<sys::fs::UniqueID, const Output *>> Taken;
  for (const Output &O : Outs)
    if (O.toStdout())
      if (auto Id = regularFileId(fileno(stdout)))
        Taken.push_back({*Id, &O});
  for (Output &O : Outs) {
    if (O.toStdout())
      continue;
    sys::fs::UniqueID Existing;
    if (!sys::fs::getUniqueID(O.File, Existing))
      for (const std::string &In : Inputs) {
        sys::fs::UniqueID InId;
        if (!sys::fs::getUniqueID(In, InId) && InId == Existing)
          return createStringError(O.Origin + ": '" + O.File +
                                   "' is an input file");
      }
    int FD;
    if (std::error_code EC = sys::fs::openFileForWrite(O.File, FD))
      return createStringError(O.Origin + ": cannot open '" + O.File +
                               "' for writing: " + EC.message());
    O.Stream = std::make_unique<raw_fd_ostream>(FD, /*shouldClose=*/true);
    auto Id = regularFileId(FD);
    if (!Id)
      continue;
    for (const auto &[Other, By] : Taken)
      if (Other == *Id)
        return createStringError(
            O.Origin + ": '" + O.File + "' is also the file of " +
            (By->toStdout()
                 ? "stdout, which carries the " + By->Origin + " output"
                 : By->Origin));
    Taken.push_back({*Id, &O});
  }
  return Error::success();
}

static void emitReport(raw_ostream &OS, StringRef Format,
                       const std::vector<FileReport> &Reports,
                       const ReviewOptions &RO) {
  if (Format == "json")
    emitJson(OS, Reports);
  else if (Format == "sarif")
    emitSarif(OS, Reports, RO);
  else if (Format == "github")
    emitGithub(OS, Reports, RO);
  else if (Format == "rdjsonl")
    emitRdjsonl(OS, Reports, RO);
  else if (Format == "markdown")
    emitMarkdown(OS, Reports, RO);
  else if (Format == "svg")
    emitRooflineSvg(OS, Reports);
  else
    emitText(OS, Reports, FindingsOnly);
}

static void listGpus(const GpuDatabase &DB) {
  outs() << format("%-16s %-34s %-7s %9s %10s %12s\n", "id", "name", "arch",
                   "DRAM GB/s", "fp32 TF/s", "bf16 TC TF/s");
  for (const GpuSpec &G : DB.all()) {
    auto F32 = G.peak(ComputeUnit::CudaCore, "fp32");
    auto BF = G.peak(ComputeUnit::TensorCore, "bf16");
    outs() << format("%-16s %-34s %-7s %9.0f %10s %12s\n", G.Id.c_str(),
                     G.Name.c_str(), G.Arch.c_str(), G.DramBandwidth / 1e9,
                     F32 ? std::to_string(int(*F32 / 1e12 + 0.5)).c_str() : "-",
                     BF ? std::to_string(int(*BF / 1e12 + 0.5)).c_str() : "-");
  }
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

namespace {
/// The command line: ours before "--", clang's after it.
struct CommandLine {
  std::vector<const char *> Ours;
  std::vector<std::string> ClangArgs;
  bool HaveDashDash = false;
};
} // namespace

static CommandLine splitAtDashDash(int Argc, const char **Argv) {
  CommandLine CL;
  for (int I = 0; I < Argc; ++I) {
    if (!CL.HaveDashDash && std::string(Argv[I]) == "--") {
      CL.HaveDashDash = true;
      continue;
    }
    if (CL.HaveDashDash)
      CL.ClangArgs.push_back(Argv[I]);
    else
      CL.Ours.push_back(Argv[I]);
  }
  return CL;
}

/// --version: the tool's (project() in CMakeLists.txt) and the LLVM it was
/// built with.
static void printVersion(raw_ostream &OS) {
  OS << "cuda-roofline version " << ToolVersion << "\n  built with LLVM "
     << LLVM_VERSION_STRING << "\n";
}

/// Parses our options; false, llvm::cl's messages printed, if they are
/// wrong.
static bool parseOptions(const CommandLine &CL) {
  cl::HideUnrelatedOptions(Cat);
  cl::SetVersionPrinter(printVersion);
  std::string ParseErrors;
  raw_string_ostream ErrOS(ParseErrors);
  if (cl::ParseCommandLineOptions(
          int(CL.Ours.size()), CL.Ours.data(),
          "Static roofline analysis of CUDA kernels: FLOPs, bytes, arithmetic "
          "intensity and speed of light, from source.\n\n"
          "  cuda-roofline [options] FILE... [-- CLANG-ARGS]\n",
          &ErrOS))
    return true;
  errs() << ErrOS.str();
  return false;
}

/// The built-in GPUs and those of --gpu-file.
static Expected<GpuDatabase> loadGpus() {
  return GpuDatabase::withFiles(GpuFiles);
}

/// The reports to write: --format's on stdout unless --output alone was
/// given, and each --output's.
static Expected<std::vector<Output>> planOutputs() {
  if (!knownFormat(Format))
    return createStringError("unknown --format '" + Format + "' (expected " +
                             FormatList + ")");
  // Without --output, --format (text by default) goes to stdout, as it
  // always has; with it, stdout is quiet unless --format or an output to
  // '-' asks for it, so that a run writing only files prints no report.
  std::vector<Output> Outs;
  if (Outputs.empty() || Format.getNumOccurrences())
    Outs.push_back({Format, "-", "--format=" + Format, nullptr});
  std::vector<std::string> Specs(Outputs.begin(), Outputs.end());
  if (!Plot.empty())
    Specs.push_back("svg=" + Plot);
  for (size_t I = 0; I < Specs.size(); ++I) {
    auto O = parseOutput(Specs[I]);
    if (!O)
      return O.takeError();
    if (I >= Outputs.size())
      O->Origin = "--plot '" + Plot + "'";
    auto OnStdout =
        llvm::find_if(Outs, [](const Output &P) { return P.toStdout(); });
    if (O->toStdout() && OnStdout != Outs.end())
      return createStringError(O->Origin + ": stdout already carries the " +
                               OnStdout->Origin +
                               " output; at most one output may go to stdout");
    Outs.push_back(std::move(*O));
  }
  return std::move(Outs);
}

/// What the command line asks for, before any option value is parsed.
static Error checkUsage(const GpuDatabase &Gpus) {
  if (Shared.given(OptionId::Gpu) && !Gpus.find(Shared.text(OptionId::Gpu)))
    return createStringError("unknown GPU '" + Shared.text(OptionId::Gpu) +
                             "' (see --list-gpus)");
  StringRef Arch = Shared.text(OptionId::Arch);
  if (!Arch.empty() && !Arch.starts_with("sm_"))
    return createStringError("malformed --arch '" + Arch + "': expected sm_XX");
  if (!ExportCommands.empty() && BuildDir.empty())
    return createStringError("--export-compile-commands needs -p BUILD_DIR, "
                             "the build whose compile_commands.json to "
                             "translate");
  // The export must not replace the database it translates.
  if (!ExportCommands.empty() && sys::fs::equivalent(ExportCommands, BuildDir))
    return createStringError("--export-compile-commands: '" + ExportCommands +
                             "' is the -p directory; its "
                             "compile_commands.json is the input, write the "
                             "export elsewhere");
  if (!ExportCommands.empty() && !Files.empty())
    return createStringError("--export-compile-commands exports every "
                             "command of -p BUILD_DIR; it takes no FILEs");
  if (Files.empty() && BuildDir.empty())
    return createStringError("no input files (usage: cuda-roofline [options] "
                             "FILE... [-- CLANG-ARGS], or -p BUILD_DIR for "
                             "every CUDA file of its compile_commands.json)");
  if (Jobs == 0)
    return createStringError("-j must be at least 1");
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Settings
//===----------------------------------------------------------------------===//

/// Sets option O from its flag, as the command line words its errors.
/// Options the flags set are not overridden by a config file.
static Error applyFlag(LintSettings &S, const OptionSpec &O) {
  OptionField Field = optionField(S, O.Id);
  std::string Flag = "--" + std::string(O.CliFlag);
  switch (O.Kind) {
  case OptionKind::GpuId:
    *std::get<std::optional<std::string> *>(Field) = Shared.text(O.Id);
    return Error::success();
  case OptionKind::Arch:
    *std::get<std::string *>(Field) = Shared.text(O.Id);
    return Error::success();
  case OptionKind::Param:
  case OptionKind::Params:
    for (const std::string &P : Shared.items(O.Id)) {
      auto KV = parseParam(P);
      if (!KV)
        return KV.takeError();
      (*std::get<std::map<std::string, int64_t> *>(Field))[KV->first] =
          KV->second;
    }
    return Error::success();
  case OptionKind::Launch:
  case OptionKind::Launches:
    for (const std::string &L : Shared.items(O.Id)) {
      auto LO = parseLaunchOverride(L);
      if (!LO)
        return LO.takeError();
      std::get<std::vector<KernelLaunch> *>(Field)->push_back(*LO);
    }
    return Error::success();
  case OptionKind::Globs: {
    auto G = CheckGlob::parse(Shared.text(O.Id));
    if (!G)
      return createStringError(Flag + ": " + toString(G.takeError()));
    // As clang-tidy: checks that select nothing are a mistake, not a
    // request for silence.
    if (O.Id == OptionId::Checks)
      if (Error E = checkGlobEnablesSome(*G, Shared.text(O.Id)))
        return createStringError(Flag + ": " + toString(std::move(E)));
    *std::get<std::optional<CheckGlob> *>(Field) = std::move(*G);
    return Error::success();
  }
  case OptionKind::Number:
    *std::get<double *>(Field) = Shared.number(O.Id);
    break;
  case OptionKind::Count:
    *std::get<unsigned *>(Field) = Shared.count(O.Id);
    break;
  case OptionKind::Bool:
    *std::get<bool *>(Field) = Shared.flag(O.Id) != O.cliNegates();
    if (O.cliNegates())
      return Error::success();
    break;
  case OptionKind::Limit:
    if (Shared.number(O.Id) < O.Range.Min)
      return createStringError(formatv("{0} must be {1}: got {2:G}", Flag,
                                       O.Range.Text, Shared.number(O.Id))
                                   .str());
    *std::get<double *>(Field) = Shared.number(O.Id);
    break;
  }
  S.Analysis.FindingFlags.insert(O.Name);
  return Error::success();
}

/// Sets the options of the given kinds whose flags were given, in the
/// table's order.
static Error applyFlags(LintSettings &S,
                        std::initializer_list<OptionKind> Kinds) {
  for (const OptionSpec &O : optionTable())
    if (O.acceptedBy(FrontEnd::Cli) && llvm::is_contained(Kinds, O.Kind) &&
        Shared.given(O.Id))
      if (Error E = applyFlag(S, O))
        return E;
  return Error::success();
}

/// The analysis options and the lint policy of the command line, checked in
/// the order their errors have always been reported.
static Expected<LintSettings> buildSettings() {
  LintSettings S = defaultSettings(FrontEnd::Cli);
  if (Error E = applyFlags(S, {OptionKind::Globs}))
    return std::move(E);
  if (!ConfigFile.empty() && !sys::fs::exists(ConfigFile))
    return createStringError("no such --config-file: '" + ConfigFile + "'");
  if (Error E = applyFlags(
          S, {OptionKind::Number, OptionKind::Count, OptionKind::Bool}))
    return std::move(E);
  if (Error E = checkRanges(S))
    return std::move(E);
  if (Error E = applyFlags(
          S, {OptionKind::GpuId, OptionKind::Arch, OptionKind::Limit}))
    return std::move(E);
  AnalyzerOptions &Opts = S.Analysis;
  Opts.ConfigFile = ConfigFile;
  Opts.CudaPath = CudaPath;
  Opts.KernelFilter = Kernel;
  Opts.DumpModel = DumpModel;
  Opts.DumpIR = DumpIR;
  // Without -p the commands are the flags after "--": the user's.
  Opts.CommandsFromUser = BuildDir.empty();
  Opts.AllowUnsafeFlags = AllowUnsafeFlags;
  if (Error E = applyFlags(S, {OptionKind::Param, OptionKind::Launch}))
    return std::move(E);
  return std::move(S);
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

/// Compile commands: -p, else flags after "--", else none.
static Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
loadCompileCommands(const CommandLine &CL) {
  if (BuildDir.empty())
    return std::make_unique<clang::tooling::FixedCompilationDatabase>(
        ".", CL.ClangArgs);
  std::string Err;
  auto DB =
      clang::tooling::CompilationDatabase::loadFromDirectory(BuildDir, Err);
  if (!DB)
    return createStringError("cannot load compile_commands.json from '" +
                             BuildDir + "': " + Err);
  return std::move(DB);
}

/// --export-compile-commands: DB translated for clang; the exit status.
static int exportCommands(const clang::tooling::CompilationDatabase &DB,
                          const AnalyzerOptions &Opts) {
  Error E = exportCompileCommands(DB, ExportCommands, CudaPath, Opts.Prelude);
  for (const std::string &Note : takeTranslationNotes())
    errs() << Note << "\n";
  if (E)
    return usageError(toString(std::move(E)));
  return 0;
}

/// The FILEs, or in batch mode every CUDA source of the database, in a
/// stable order.
static Expected<std::vector<std::string>>
collectInputs(const clang::tooling::CompilationDatabase &DB) {
  std::vector<std::string> Inputs(Files.begin(), Files.end());
  if (!Inputs.empty())
    return std::move(Inputs);
  // Not getAllFiles(): a JSON database names its files through
  // path::native(), which on POSIX also turns a '\' of a file name into
  // '/'. The commands keep the names as written.
  std::set<std::string> Seen;
  for (const clang::tooling::CompileCommand &C : DB.getAllCompileCommands()) {
    SmallString<256> F(C.Filename);
    if (sys::path::is_relative(F)) {
      F = C.Directory;
      sys::path::append(F, C.Filename);
    }
    sys::path::remove_dots(F, /*remove_dot_dot=*/true);
    if (sys::path::is_style_windows(sys::path::Style::native))
      sys::path::native(F);
    StringRef Ext = sys::path::extension(F);
    if ((Ext == ".cu" || Ext == ".cuh") && Seen.insert(std::string(F)).second)
      Inputs.push_back(std::string(F));
  }
  llvm::sort(Inputs);
  if (Inputs.empty())
    return createStringError("compile_commands.json in '" + BuildDir +
                             "' has no .cu or .cuh file");
  return std::move(Inputs);
}

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

namespace {
/// One file's analysis: its report or why there is none, and clang's
/// diagnostics, buffered so that a parallel run prints them in input order.
struct Outcome {
  std::optional<FileReport> Report;
  std::string Error, Diagnostics;
};

/// What the run found, over every file.
struct RunResult {
  std::vector<FileReport> Reports;
  int Failures = 0;
  unsigned Errors = 0, NolintErrors = 0;
  std::vector<std::string> FailureMessages;

  void fail(const std::string &Why) {
    errs() << "cuda-roofline: error: " << Why << "\n";
    FailureMessages.push_back(Why);
    ++Failures;
  }
};
} // namespace

namespace {
/// A progress line on stderr while a batch runs (files done of all, the
/// file last started, the time so far), redrawn in place; only when stderr
/// is a terminal, so that logs and pipes get nothing extra.
class Progress {
public:
  explicit Progress(size_t Total)
      : Total(Total), On(Total > 1 && sys::Process::StandardErrIsDisplayed()) {}
  ~Progress() {
    if (On && Drawn)
      errs() << "\r\x1b[K"; // Erase the line: the report follows.
  }
  void started(const std::string &File) { update(0, File); }
  void finished() { update(1, ""); }

private:
  void update(size_t Done, const std::string &File) {
    if (!On)
      return;
    std::lock_guard<std::mutex> Lock(M);
    this->Done += Done;
    if (!File.empty())
      Current = File;
    double Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    errs() << "\r\x1b[K"
           << formatv("[{0}/{1}] {2:f1} s  {3}", this->Done, Total, Seconds,
                      Current);
    errs().flush();
    Drawn = true;
  }

  size_t Total, Done = 0;
  bool On, Drawn = false;
  std::string Current;
  std::mutex M;
  std::chrono::steady_clock::time_point Start =
      std::chrono::steady_clock::now();
};
} // namespace

/// Each file analyzed on its own, -j at a time.
static std::vector<Outcome>
analyzeFiles(const GpuDatabase &Gpus, const AnalyzerOptions &Opts,
             const clang::tooling::CompilationDatabase &DB,
             const std::vector<std::string> &Inputs) {
  std::vector<Outcome> Outcomes(Inputs.size());
  Progress Bar(Inputs.size());
  auto analyzeOne = [&](size_t I) {
    Outcome &O = Outcomes[I];
    const std::string &F = Inputs[I];
    Bar.started(F);
    auto Done = llvm::make_scope_exit([&] { Bar.finished(); });
    sys::fs::file_status St;
    if (std::error_code EC = sys::fs::status(F, St)) {
      O.Error = EC == std::errc::no_such_file_or_directory
                    ? "no such file: '" + F + "'"
                    : "cannot read '" + F + "': " + EC.message();
      return;
    }
    raw_string_ostream Diags(O.Diagnostics);
    AnalyzerOptions FileOpts = Opts;
    FileOpts.Diagnostics = &Diags;
    Analyzer A(Gpus, FileOpts);
    auto R = A.analyzeFile(DB, F);
    if (!R)
      O.Error = toString(R.takeError());
    else
      O.Report = std::move(*R);
  };
  if (Jobs == 1 || Inputs.size() == 1) {
    for (size_t I = 0; I < Inputs.size(); ++I)
      analyzeOne(I);
  } else {
    DefaultThreadPool Pool(hardware_concurrency(Jobs));
    for (size_t I = 0; I < Inputs.size(); ++I)
      Pool.async([&analyzeOne, I] { analyzeOne(I); });
    Pool.wait();
  }
  return Outcomes;
}

/// The lint policy of R: the flags', and the config file's check globs
/// where the flags gave none; none (the failure reported) if the config's
/// are wrong.
static std::optional<LintPolicy>
policyFor(const FileReport &R, const LintPolicy &FlagPolicy, RunResult &Run) {
  auto Policy = withConfigGlobs(R, FlagPolicy);
  if (Policy)
    return std::move(*Policy);
  std::string Why = toString(Policy.takeError());
  for (StringRef Line : split(Why, '\n')) {
    errs() << "cuda-roofline: error: " << Line << "\n";
    Run.FailureMessages.push_back(Line.str());
  }
  ++Run.Failures;
  return std::nullopt;
}

/// Code clang rejected: the kernels that depend on it are named in the
/// output; the file fails only when nothing could be analyzed (or
/// --strict-parse).
static void reportLost(FileReport &R, RunResult &Run) {
  if (R.Lost.empty())
    return;
  std::string Lost = std::to_string(R.Lost.size()) +
                     " kernel(s), function(s) or declaration(s) not "
                     "analyzed; first: " +
                     R.Lost.front().message();
  if (StrictParse || R.Kernels.empty()) {
    Run.fail("compilation of '" + R.File + "' failed; " +
             (StrictParse ? "--strict-parse refuses partial results ("
                          : "nothing analyzed (") +
             Lost + ")");
    // Refused: the report keeps what was lost, not the rest.
    if (StrictParse)
      R.Kernels.clear();
    return;
  }
  errs() << "cuda-roofline: warning: '" << R.File
         << "': clang rejected part of the file: " << Lost << "; the "
         << R.Kernels.size()
         << " kernel report(s) come from the rest of the file "
            "(--strict-parse makes this an error)\n";
}

/// The outcomes in input order: clang's diagnostics, the failures, and each
/// report with its lint policy applied.
static RunResult collectReports(std::vector<Outcome> &Outcomes,
                                const LintPolicy &FlagPolicy) {
  RunResult Run;
  for (Outcome &O : Outcomes) {
    errs() << O.Diagnostics;
    if (!O.Report) {
      Run.fail(O.Error);
      continue;
    }
    // Flags win over the file's config for the check globs.
    std::optional<LintPolicy> Policy = policyFor(*O.Report, FlagPolicy, Run);
    if (!Policy)
      continue;
    reportLost(*O.Report, Run);
    LintOutcome L = applyLintPolicy(*O.Report, *Policy);
    Run.Errors += L.Errors;
    for (const std::string &P : L.Problems)
      errs() << P << "\n";
    Run.NolintErrors += L.Problems.size();
    Run.Reports.push_back(std::move(*O.Report));
  }
  // Once per run, not per file: a project's every command has the flag.
  for (const std::string &Note : takeTranslationNotes())
    errs() << Note << "\n";
  return Run;
}

/// The kernels --launch and --kernel name must be in the input.
static Error checkNamedKernels(const AnalyzerOptions &Opts,
                               const RunResult &Run) {
  for (const KernelLaunch &L : Opts.Launches) {
    bool Matched = false;
    // A kernel clang's errors cost may be the one named: it is reported.
    bool LostKernels = false;
    for (const FileReport &R : Run.Reports) {
      Matched |= R.MatchedLaunches.count(L.Kernel) != 0;
      LostKernels |= llvm::any_of(
          R.Lost, [](const NotAnalyzed &N) { return N.Kind == "kernel"; });
    }
    if (!Matched && !Run.Failures && !LostKernels)
      return createStringError("--launch names '" + L.Kernel +
                               "', which is not a kernel of the input");
  }
  if (Kernel.empty())
    return Error::success();
  bool Any = false, Template = false;
  for (const FileReport &R : Run.Reports) {
    Any |= !R.Kernels.empty() || !R.Lost.empty();
    Template |= !R.UninstantiatedTemplates.empty();
  }
  if (!Any && !Run.Failures && Template)
    return createStringError("kernel '" + Kernel +
                             "' is a template with no instantiation in the "
                             "input; name one with --launch '" +
                             Kernel + "<ARGS>=GRID/BLOCK'");
  if (!Any && !Run.Failures)
    return createStringError("no kernel named '" + Kernel + "' in the input");
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

/// The UTF-8 formats cannot keep a name's bytes, and must not change it
/// silently: one warning per name, naming every such output.
static void warnNotUtf8(const std::vector<Output> &Outs,
                        const std::vector<FileReport> &Reports) {
  std::vector<StringRef> Utf8Formats;
  for (const Output &O : Outs)
    if (utf8Format(O.Format) && !llvm::is_contained(Utf8Formats, O.Format))
      Utf8Formats.push_back(O.Format);
  if (Utf8Formats.empty())
    return;
  for (const std::string &Name : namesNotUtf8(Reports)) {
    errs() << "cuda-roofline: warning: the file name '" << Name
           << "' is not valid UTF-8: the ";
    for (size_t I = 0; I < Utf8Formats.size(); ++I)
      errs() << (I == 0                        ? ""
                 : I + 1 == Utf8Formats.size() ? " and "
                                               : ", ")
             << Utf8Formats[I];
    errs() << (Utf8Formats.size() == 1 ? " output shows" : " outputs show")
           << " its invalid bytes as U+FFFD (the text and sarif formats "
              "keep them)\n";
  }
}

/// Writes every output; false if a file could not be written.
static bool emitOutputs(std::vector<Output> &Outs, const RunResult &Run) {
  ReviewOptions RO;
  RO.SourceRoot = SourceRoot;
  RO.Failures = Run.FailureMessages;
  warnNotUtf8(Outs, Run.Reports);
  bool Written = true;
  for (Output &O : Outs) {
    if (O.toStdout()) {
      emitReport(outs(), O.Format, Run.Reports, RO);
      outs().flush();
      continue;
    }
    emitReport(*O.Stream, O.Format, Run.Reports, RO);
    O.Stream->close();
    // Cleared once reported: an error left set aborts the process when the
    // stream is destroyed.
    if (std::error_code EC = O.Stream->error()) {
      errs() << "cuda-roofline: error: " << O.Origin << ": cannot write '"
             << O.File << "': " << EC.message() << "\n";
      O.Stream->clear_error();
      Written = false;
    }
  }
  return Written;
}

/// As clang-tidy's: 2 when a file failed or an output could not be
/// written, 1 when a warning was an error or a NOLINT comment unpaired,
/// else 0.
static int exitStatus(const RunResult &Run, size_t Inputs, bool Written) {
  if (Run.Failures) {
    errs() << "cuda-roofline: " << Run.Failures << " of " << Inputs
           << " file(s) could not be analyzed\n";
    return 2;
  }
  if (!Written)
    return 2;
  if (Run.Errors)
    errs() << "cuda-roofline: " << Run.Errors
           << " warning(s) treated as errors\n";
  if (Run.NolintErrors)
    errs() << "cuda-roofline: " << Run.NolintErrors
           << " unpaired NOLINTBEGIN/NOLINTEND comment(s)\n";
  if (Run.Errors || Run.NolintErrors)
    return 1;
  return 0;
}

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  CommandLine CL = splitAtDashDash(Argc, Argv);
  if (!parseOptions(CL))
    return usageError("invalid command line (see --help)");
  Expected<GpuDatabase> Gpus = loadGpus();
  if (!Gpus)
    return usageError(toString(Gpus.takeError()));
  if (ListGpus) {
    listGpus(*Gpus);
    return 0;
  }
  Expected<std::vector<Output>> Outs = planOutputs();
  if (!Outs)
    return usageError(toString(Outs.takeError()));
  if (Error E = checkUsage(*Gpus))
    return usageError(toString(std::move(E)));
  Expected<LintSettings> Settings = buildSettings();
  if (!Settings)
    return usageError(toString(Settings.takeError()));
  const AnalyzerOptions &Opts = Settings->Analysis;

  auto DB = loadCompileCommands(CL);
  if (!DB)
    return usageError(toString(DB.takeError()));
  if (!ExportCommands.empty())
    return exportCommands(**DB, Opts);
  // A header (.cuh) has no entry of its own: borrow the nearest file's.
  if (!BuildDir.empty())
    *DB = clang::tooling::inferMissingCompileCommands(std::move(*DB));
  Expected<std::vector<std::string>> Inputs = collectInputs(**DB);
  if (!Inputs)
    return usageError(toString(Inputs.takeError()));
  if (Error E = openOutputs(*Outs, *Inputs))
    return usageError(toString(std::move(E)));

  if (!TimeTrace.empty()) {
    if (Jobs != 1)
      return usageError("--time-trace records one thread: use it with -j 1");
    timeTraceProfilerInitialize(/*TimeTraceGranularity=*/100, Argv[0]);
  }
  std::vector<Outcome> Outcomes = analyzeFiles(*Gpus, Opts, **DB, *Inputs);
  if (timeTraceProfilerEnabled()) {
    Error E = timeTraceProfilerWrite(TimeTrace, TimeTrace);
    timeTraceProfilerCleanup();
    if (E)
      return usageError("--time-trace: " + toString(std::move(E)));
  }
  RunResult Run = collectReports(Outcomes, Settings->Policy);
  if (Error E = checkNamedKernels(Opts, Run))
    return usageError(toString(std::move(E)));
  bool Written = emitOutputs(*Outs, Run);
  return exitStatus(Run, Inputs->size(), Written);
}
