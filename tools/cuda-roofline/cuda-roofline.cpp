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
//===----------------------------------------------------------------------===//

#include "Analyzer.h"
#include "Emitters.h"
#include "GpuDatabase.h"
#include "CheckGlob.h"
#include "Checks.h"
#include "LintOptions.h"
#include "LintPolicy.h"
#include "NvccFlags.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <set>

using namespace llvm;
using namespace roofline;

static cl::OptionCategory Cat("cuda-roofline options");

static cl::list<std::string> Files(cl::Positional, cl::desc("FILE..."),
                                   cl::cat(Cat));
static cl::opt<std::string> BuildDir("p", cl::desc("Build directory with compile_commands.json"),
                                     cl::value_desc("BUILD_DIR"), cl::cat(Cat));
static cl::opt<std::string> Gpu("gpu", cl::desc("Target GPU id (default h100-sxm; see --list-gpus)"),
                                cl::value_desc("ID"), cl::cat(Cat));
static cl::opt<bool> ListGpus("list-gpus", cl::desc("List the GPU database and exit"),
                              cl::cat(Cat));
static cl::list<std::string> GpuFiles("gpu-file", cl::desc("Add GPUs from a JSON file (same schema as the built-in database)"),
                                      cl::value_desc("FILE"), cl::cat(Cat));
static cl::opt<std::string> CudaPath(
    "cuda-path",
    cl::desc("CUDA toolkit whose headers parse the input (default: the one "
             "cuda-roofline was built with)"),
    cl::value_desc("DIR"), cl::cat(Cat));
static cl::opt<double> MaxKernelSeconds(
    "max-kernel-seconds",
    cl::desc("Give up counting a kernel after this many seconds, reporting "
             "'analysis limit reached' unknowns (default 30; 0: no limit)"),
    cl::init(30), cl::cat(Cat));
static cl::opt<double> MaxKernelMemory(
    "max-kernel-memory",
    cl::desc("Give up counting a kernel, or evaluating a file's launches, "
             "once the process's resident memory exceeds this many MiB, "
             "reporting 'analysis limit reached' unknowns (default 4096; 0: "
             "no limit)"),
    cl::value_desc("MIB"), cl::init(4096), cl::cat(Cat));
static cl::opt<double> MaxFileSeconds(
    "max-file-seconds",
    cl::desc("Give up on a file after this many seconds of analysis (parse, "
             "host evaluation, every kernel), reporting what was not done "
             "as 'analysis limit reached' unknowns (default 120; 0: no "
             "limit)"),
    cl::init(120), cl::cat(Cat));
static cl::opt<std::string> Arch("arch", cl::desc("Device architecture, e.g. sm_90 (default: the GPU's)"),
                                 cl::value_desc("sm_XX"), cl::cat(Cat));
static cl::list<std::string> Params("param", cl::desc("Value of a kernel or launcher parameter (repeatable); NAME=null for a pointer parameter"),
                                    cl::value_desc("NAME=VALUE"), cl::cat(Cat));
static cl::list<std::string> Launches("launch",
                                      cl::desc("Launch configuration, overriding call sites: KERNEL[<ARGS>]=GX[,GY[,GZ]]/BX[,BY[,BZ]][/SMEM]"),
                                      cl::value_desc("SPEC"), cl::cat(Cat));
static cl::opt<std::string> Kernel("kernel", cl::desc("Only report this kernel"),
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
static cl::opt<std::string> SourceRoot(
    "source-root",
    cl::desc("Directory that sarif, github, rdjsonl and markdown paths are "
             "relative to (default: the current directory)"),
    cl::value_desc("DIR"), cl::cat(Cat));

static cl::opt<double> MinEfficiencyLoss(
    "min-efficiency-loss",
    cl::desc("roofline-uncoalesced-access: report a global access when more than "
             "this fraction of the sectors it fetches is beyond what its bytes "
             "need (0..1, default 0.5)"),
    cl::init(0.5), cl::cat(Cat));
static cl::opt<unsigned> MinConflictWays(
    "min-conflict-ways",
    cl::desc("roofline-bank-conflict: report shared accesses with at least this "
             "many ways (default 2)"),
    cl::init(2), cl::cat(Cat));

static cl::opt<double> MinReuse(
    "min-reuse",
    cl::desc("roofline-global-reuse: report loads whose elements the threads "
             "of a block read at least this many times each (default 4)"),
    cl::init(4.0), cl::cat(Cat));
static cl::opt<double> MinReuseCost(
    "min-reuse-cost",
    cl::desc("roofline-global-reuse: and whose L2 re-reads a tile would save "
             "take at least this fraction of the speed of light (default "
             "0.05)"),
    cl::init(0.05), cl::cat(Cat));
static cl::opt<double> MemoryBoundFraction(
    "memory-bound-fraction",
    cl::desc("roofline-memory-bound: report memory-bound kernels whose "
             "compulsory-traffic intensity is below this fraction of the "
             "ridge (default 0.25)"),
    cl::init(0.25), cl::cat(Cat));
static cl::opt<bool> KernelSummary(
    "kernel-summary",
    cl::desc("Print each kernel's figures as a roofline-kernel-summary note "
             "(default on; --kernel-summary=false keeps only the table)"),
    cl::init(true), cl::cat(Cat));

static cl::opt<std::string> Checks(
    "checks",
    cl::desc("Checks to report, as a clang-tidy glob list, e.g. "
             "'-*,roofline-uncoalesced-access' (default: the config file's "
             "`checks`, else all); globs that enable no check are an error"),
    cl::value_desc("GLOBS"), cl::cat(Cat));
static cl::opt<std::string> WarningsAsErrors(
    "warnings-as-errors",
    cl::desc("Report the warnings of these checks as errors and exit 1 "
             "(clang-tidy glob list; default: the config file's "
             "`warnings-as-errors`, else none); a note only when named in "
             "full (roofline-missing-size)"),
    cl::value_desc("GLOBS"), cl::cat(Cat));
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
static cl::opt<unsigned> Jobs("j", cl::desc("Analyze N files in parallel (default 1)"),
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

static cl::opt<bool> NoPrelude(
    "no-prelude",
    cl::desc("Do not pre-include the nvcc-compatibility prelude (the "
             "declarations nvcc makes and clang does not: host isfinite and "
             "mixed-type min/max, cache-hint intrinsics of every type, removed "
             "runtime functions, a fallback <omp.h>)"),
    cl::cat(Cat));

static cl::opt<bool> DumpModel("dump-model", cl::desc("Print the kernel model (debugging)"),
                               cl::Hidden, cl::cat(Cat));

static cl::opt<bool> DumpIR("dump-ir", cl::desc("Print the optimized device IR (debugging)"),
                            cl::Hidden, cl::cat(Cat));

static int usageError(const Twine &Msg) {
  errs() << "cuda-roofline: error: " << Msg << "\n";
  return 2;
}

static constexpr const char *FormatNames[] = {"text",   "json",    "sarif",
                                              "github", "rdjsonl", "markdown"};
static constexpr const char *FormatList =
    "text, json, sarif, github, rdjsonl or markdown";

static bool knownFormat(StringRef F) {
  return llvm::is_contained(FormatNames, F);
}

/// JSON, rdjsonl, GitHub and Markdown are UTF-8 text; text and SARIF
/// (percent-encoded URIs) keep a name's bytes.
static bool utf8Format(StringRef F) {
  return F == "json" || F == "rdjsonl" || F == "github" || F == "markdown";
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
            (By->toStdout() ? "stdout, which carries the " + By->Origin +
                                  " output"
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

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  // Everything after "--" goes to clang.
  std::vector<const char *> Ours;
  std::vector<std::string> ClangArgs;
  bool HaveDashDash = false;
  for (int I = 0; I < Argc; ++I) {
    if (!HaveDashDash && std::string(Argv[I]) == "--") {
      HaveDashDash = true;
      continue;
    }
    if (HaveDashDash)
      ClangArgs.push_back(Argv[I]);
    else
      Ours.push_back(Argv[I]);
  }
  cl::HideUnrelatedOptions(Cat);
  std::string ParseErrors;
  raw_string_ostream ErrOS(ParseErrors);
  if (!cl::ParseCommandLineOptions(
          int(Ours.size()), Ours.data(),
          "Static roofline analysis of CUDA kernels: FLOPs, bytes, arithmetic "
          "intensity and speed of light, from source.\n\n"
          "  cuda-roofline [options] FILE... [-- CLANG-ARGS]\n",
          &ErrOS)) {
    errs() << ErrOS.str();
    return usageError("invalid command line (see --help)");
  }

  GpuDatabase Gpus = GpuDatabase::builtin();
  for (const std::string &F : GpuFiles) {
    auto Buf = MemoryBuffer::getFile(F);
    if (!Buf)
      return usageError("cannot read --gpu-file '" + F + "': " +
                        Buf.getError().message());
    auto Extra = GpuDatabase::parse((*Buf)->getBuffer(), F);
    if (!Extra)
      return usageError(toString(Extra.takeError()));
    Gpus.merge(*Extra);
  }
  if (ListGpus) {
    listGpus(Gpus);
    return 0;
  }
  if (!knownFormat(Format))
    return usageError("unknown --format '" + Format + "' (expected " +
                      FormatList + ")");
  // Without --output, --format (text by default) goes to stdout, as it
  // always has; with it, stdout is quiet unless --format or an output to
  // '-' asks for it, so that a run writing only files prints no report.
  std::vector<Output> Outs;
  if (Outputs.empty() || Format.getNumOccurrences())
    Outs.push_back({Format, "-", "--format=" + Format, nullptr});
  for (const std::string &Spec : Outputs) {
    auto O = parseOutput(Spec);
    if (!O)
      return usageError(toString(O.takeError()));
    auto OnStdout =
        llvm::find_if(Outs, [](const Output &P) { return P.toStdout(); });
    if (O->toStdout() && OnStdout != Outs.end())
      return usageError(O->Origin + ": stdout already carries the " +
                        OnStdout->Origin +
                        " output; at most one output may go to stdout");
    Outs.push_back(std::move(*O));
  }
  if ((Gpu.getNumOccurrences() || !Gpu.empty()) && !Gpus.find(Gpu))
    return usageError("unknown GPU '" + Gpu + "' (see --list-gpus)");
  if (!Arch.empty() && !StringRef(Arch).starts_with("sm_"))
    return usageError("malformed --arch '" + Arch + "': expected sm_XX");
  if (!ExportCommands.empty() && BuildDir.empty())
    return usageError("--export-compile-commands needs -p BUILD_DIR, the "
                      "build whose compile_commands.json to translate");
  // The export must not replace the database it translates.
  if (!ExportCommands.empty() && sys::fs::equivalent(ExportCommands, BuildDir))
    return usageError("--export-compile-commands: '" + ExportCommands +
                      "' is the -p directory; its compile_commands.json is "
                      "the input, write the export elsewhere");
  if (!ExportCommands.empty() && !Files.empty())
    return usageError("--export-compile-commands exports every command of "
                      "-p BUILD_DIR; it takes no FILEs");
  if (Files.empty() && BuildDir.empty())
    return usageError("no input files (usage: cuda-roofline [options] FILE... "
                      "[-- CLANG-ARGS], or -p BUILD_DIR for every CUDA file "
                      "of its compile_commands.json)");
  if (Jobs == 0)
    return usageError("-j must be at least 1");
  LintPolicy FlagPolicy;
  for (auto [Opt, Slot] : {std::pair(&Checks, &FlagPolicy.Checks),
                           std::pair(&WarningsAsErrors,
                                     &FlagPolicy.WarningsAsErrors)}) {
    if (!Opt->getNumOccurrences())
      continue;
    auto G = CheckGlob::parse(*Opt);
    if (!G)
      return usageError("--" + Opt->ArgStr + ": " + toString(G.takeError()));
    // As clang-tidy: checks that select nothing are a mistake, not a
    // request for silence.
    if (Opt == &Checks)
      if (Error E = checkGlobEnablesSome(*G, *Opt))
        return usageError("--checks: " + toString(std::move(E)));
    *Slot = std::move(*G);
  }
  if (!ConfigFile.empty() && !sys::fs::exists(ConfigFile))
    return usageError("no such --config-file: '" + ConfigFile + "'");

  AnalyzerOptions Opts;
  Opts.Findings.MinReuse = MinReuse;
  Opts.Findings.MinReuseCost = MinReuseCost;
  Opts.Findings.MemoryBoundRidgeFraction = MemoryBoundFraction;
  Opts.Findings.KernelSummary = KernelSummary;
  Opts.Findings.MinEfficiencyLoss = MinEfficiencyLoss;
  Opts.Findings.MinConflictWays = MinConflictWays;
  for (const cl::Option *O :
       std::initializer_list<const cl::Option *>{&MinEfficiencyLoss, &MinConflictWays, &MinReuse, &MinReuseCost,
                                                 &MemoryBoundFraction, &KernelSummary})
    if (O->getNumOccurrences())
      Opts.FindingFlags.insert(O->ArgStr.str());
  Opts.ConfigFile = ConfigFile;
  if (Error E = checkFindingOptions(Opts.Findings))
    return usageError(toString(std::move(E)));
  if (Gpu.getNumOccurrences())
    Opts.GpuId = Gpu;
  Opts.Arch = Arch;
  Opts.CudaPath = CudaPath;
  Opts.Prelude = !NoPrelude;
  for (auto [Flag, Field] :
       {std::pair(&MaxKernelSeconds, &AnalyzerOptions::KernelSeconds),
        std::pair(&MaxKernelMemory, &AnalyzerOptions::KernelMemoryMiB),
        std::pair(&MaxFileSeconds, &AnalyzerOptions::FileSeconds)}) {
    if (*Flag < 0)
      return usageError(formatv("--{0} must be >= 0: got {1:G}",
                                Flag->ArgStr, Flag->getValue())
                            .str());
    Opts.*Field = *Flag;
  }
  Opts.KernelFilter = Kernel;
  Opts.DumpModel = DumpModel;
  Opts.DumpIR = DumpIR;
  for (const std::string &P : Params) {
    auto KV = parseParam(P);
    if (!KV)
      return usageError(toString(KV.takeError()));
    Opts.Params[KV->first] = KV->second;
  }
  for (const std::string &L : Launches) {
    auto LO = parseLaunchOverride(L);
    if (!LO)
      return usageError(toString(LO.takeError()));
    Opts.Launches.push_back(*LO);
  }

  // Compile commands: -p, else flags after "--", else a database found
  // above the first file, else no extra flags.
  std::unique_ptr<clang::tooling::CompilationDatabase> DB;
  std::string Err;
  if (!BuildDir.empty()) {
    DB = clang::tooling::CompilationDatabase::loadFromDirectory(BuildDir, Err);
    if (!DB)
      return usageError("cannot load compile_commands.json from '" + BuildDir +
                        "': " + Err);
    if (!ExportCommands.empty()) {
      Error E = exportCompileCommands(*DB, ExportCommands, CudaPath, !NoPrelude);
      for (const std::string &Note : takeTranslationNotes())
        errs() << Note << "\n";
      if (E)
        return usageError(toString(std::move(E)));
      return 0;
    }
    // A header (.cuh) has no entry of its own: borrow the nearest file's.
    DB = clang::tooling::inferMissingCompileCommands(std::move(DB));
  } else if (HaveDashDash) {
    DB = std::make_unique<clang::tooling::FixedCompilationDatabase>(".", ClangArgs);
  } else {
    DB = std::make_unique<clang::tooling::FixedCompilationDatabase>(
        ".", std::vector<std::string>());
  }

  // Batch mode: every CUDA source of the database, in a stable order.
  std::vector<std::string> Inputs(Files.begin(), Files.end());
  if (Inputs.empty()) {
    // Not getAllFiles(): a JSON database names its files through
    // path::native(), which on POSIX also turns a '\' of a file name into
    // '/'. The commands keep the names as written.
    std::set<std::string> Seen;
    for (const clang::tooling::CompileCommand &C :
         DB->getAllCompileCommands()) {
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
      return usageError("compile_commands.json in '" + BuildDir +
                        "' has no .cu or .cuh file");
  }

  if (Error E = openOutputs(Outs, Inputs))
    return usageError(toString(std::move(E)));

  // Each file is analyzed on its own; its clang diagnostics are buffered so
  // that a parallel run prints them in input order.
  struct Outcome {
    std::optional<FileReport> Report;
    std::string Error, Diagnostics;
  };
  std::vector<Outcome> Outcomes(Inputs.size());
  auto analyzeOne = [&](size_t I) {
    Outcome &O = Outcomes[I];
    const std::string &F = Inputs[I];
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
    auto R = A.analyzeFile(*DB, F);
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

  std::vector<FileReport> Reports;
  int Failures = 0;
  unsigned Errors = 0, NolintErrors = 0;
  std::vector<std::string> FailureMessages;
  for (Outcome &O : Outcomes) {
    errs() << O.Diagnostics;
    if (!O.Report) {
      errs() << "cuda-roofline: error: " << O.Error << "\n";
      FailureMessages.push_back(O.Error);
      ++Failures;
      continue;
    }
    // Flags win over the file's config for the check globs.
    LintPolicy Policy = FlagPolicy;
    bool BadConfig = false;
    for (auto [Text, Slot] :
         {std::pair(&O.Report->ConfigChecks, &Policy.Checks),
          std::pair(&O.Report->ConfigWarningsAsErrors,
                    &Policy.WarningsAsErrors)}) {
      if (*Slot || !*Text)
        continue;
      auto G = CheckGlob::parse(**Text);
      Error E = G ? Error::success() : G.takeError();
      if (!E && Slot == &Policy.Checks)
        if (Error None = checkGlobEnablesSome(*G, **Text))
          E = createStringError("checks: " + toString(std::move(None)));
      if (E) {
        std::string Why = O.Report->ConfigOrigin + ": " + toString(std::move(E));
        errs() << "cuda-roofline: error: " << Why << "\n";
        FailureMessages.push_back(Why);
        BadConfig = true;
        continue;
      }
      *Slot = std::move(*G);
    }
    if (BadConfig) {
      ++Failures;
      continue;
    }
    // Code clang rejected: the kernels that depend on it are named in the
    // output; the run fails only when nothing could be analyzed.
    if (!O.Report->Lost.empty()) {
      const FileReport &R = *O.Report;
      std::string Lost = std::to_string(R.Lost.size()) +
                         " kernel(s), function(s) or declaration(s) not "
                         "analyzed; first: " +
                         R.Lost.front().message();
      if (StrictParse || R.Kernels.empty()) {
        std::string Why =
            "compilation of '" + R.File + "' failed; " +
            (StrictParse ? "--strict-parse refuses partial results ("
                         : "nothing analyzed (") +
            Lost + ")";
        errs() << "cuda-roofline: error: " << Why << "\n";
        FailureMessages.push_back(Why);
        ++Failures;
        // Refused: the report keeps what was lost, not the rest.
        if (StrictParse)
          O.Report->Kernels.clear();
      } else {
        errs() << "cuda-roofline: warning: '" << R.File
               << "': clang rejected part of the file: " << Lost << "; the "
               << R.Kernels.size()
               << " kernel report(s) come from the rest of the file "
                  "(--strict-parse makes this an error)\n";
      }
    }
    LintOutcome L = applyLintPolicy(*O.Report, Policy);
    Errors += L.Errors;
    for (const std::string &P : L.Problems)
      errs() << P << "\n";
    NolintErrors += L.Problems.size();
    Reports.push_back(std::move(*O.Report));
  }
  // Once per run, not per file: a project's every command has the flag.
  for (const std::string &Note : takeTranslationNotes())
    errs() << Note << "\n";
  for (const KernelLaunch &L : Opts.Launches) {
    bool Matched = false;
    // A kernel clang's errors cost may be the one named: it is reported.
    bool LostKernels = false;
    for (const FileReport &R : Reports) {
      Matched |= R.MatchedLaunches.count(L.Kernel) != 0;
      LostKernels |= llvm::any_of(
          R.Lost, [](const NotAnalyzed &N) { return N.Kind == "kernel"; });
    }
    if (!Matched && !Failures && !LostKernels)
      return usageError("--launch names '" + L.Kernel +
                        "', which is not a kernel of the input");
  }
  if (!Kernel.empty()) {
    bool Any = false, Template = false;
    for (const FileReport &R : Reports) {
      Any |= !R.Kernels.empty() || !R.Lost.empty();
      Template |= !R.UninstantiatedTemplates.empty();
    }
    if (!Any && !Failures && Template)
      return usageError("kernel '" + Kernel +
                        "' is a template with no instantiation in the input; "
                        "name one with --launch '" + Kernel +
                        "<ARGS>=GRID/BLOCK'");
    if (!Any && !Failures)
      return usageError("no kernel named '" + Kernel + "' in the input");
  }
  ReviewOptions RO;
  RO.SourceRoot = SourceRoot;
  RO.Failures = FailureMessages;
  // The UTF-8 formats cannot keep a name's bytes, and must not change it
  // silently: one warning per name, naming every such output.
  std::vector<StringRef> Utf8Formats;
  for (const Output &O : Outs)
    if (utf8Format(O.Format) && !llvm::is_contained(Utf8Formats, O.Format))
      Utf8Formats.push_back(O.Format);
  if (!Utf8Formats.empty())
    for (const std::string &Name : namesNotUtf8(Reports)) {
      errs() << "cuda-roofline: warning: the file name '" << Name
             << "' is not valid UTF-8: the ";
      for (size_t I = 0; I < Utf8Formats.size(); ++I)
        errs() << (I == 0                          ? ""
                   : I + 1 == Utf8Formats.size() ? " and "
                                                 : ", ")
               << Utf8Formats[I];
      errs() << (Utf8Formats.size() == 1 ? " output shows" : " outputs show")
             << " its invalid bytes as U+FFFD (the text and sarif formats "
                "keep them)\n";
    }
  bool WriteFailed = false;
  for (Output &O : Outs) {
    if (O.toStdout()) {
      emitReport(outs(), O.Format, Reports, RO);
      outs().flush();
      continue;
    }
    emitReport(*O.Stream, O.Format, Reports, RO);
    O.Stream->close();
    // Cleared once reported: an error left set aborts the process when the
    // stream is destroyed.
    if (std::error_code EC = O.Stream->error()) {
      errs() << "cuda-roofline: error: " << O.Origin << ": cannot write '"
             << O.File << "': " << EC.message() << "\n";
      O.Stream->clear_error();
      WriteFailed = true;
    }
  }
  if (Failures) {
    errs() << "cuda-roofline: " << Failures << " of " << Inputs.size()
           << " file(s) could not be analyzed\n";
    return 2;
  }
  if (WriteFailed)
    return 2;
  if (Errors)
    errs() << "cuda-roofline: " << Errors
           << " warning(s) treated as errors\n";
  if (NolintErrors)
    errs() << "cuda-roofline: " << NolintErrors
           << " unpaired NOLINTBEGIN/NOLINTEND comment(s)\n";
  if (Errors || NolintErrors)
    return 1;
  return 0;
}
