//===- cuda-roofline.cpp - The command-line front-end ---------------------===//
//
// cuda-roofline [options] FILE... [-- CLANG-ARGS]
//
// A thin driver over the analysis library: parse options, pick the
// compilation database, run the Analyzer on each file, and print text or
// JSON. Exit status: 0 on success, 2 on usage, input or compile errors.
//
//===----------------------------------------------------------------------===//

#include "Analyzer.h"
#include "Emitters.h"
#include "GpuDatabase.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

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
static cl::opt<std::string> Arch("arch", cl::desc("Device architecture, e.g. sm_90 (default: the GPU's)"),
                                 cl::value_desc("sm_XX"), cl::cat(Cat));
static cl::list<std::string> Params("param", cl::desc("Value of a kernel or launcher parameter (repeatable)"),
                                    cl::value_desc("NAME=VALUE"), cl::cat(Cat));
static cl::list<std::string> Launches("launch",
                                      cl::desc("Launch configuration, overriding call sites: KERNEL[<ARGS>]=GX[,GY[,GZ]]/BX[,BY[,BZ]][/SMEM]"),
                                      cl::value_desc("SPEC"), cl::cat(Cat));
static cl::opt<std::string> Kernel("kernel", cl::desc("Only report this kernel"),
                                   cl::value_desc("NAME"), cl::cat(Cat));
static cl::opt<std::string> Format("format", cl::desc("Output format: text or json"),
                                   cl::init("text"), cl::cat(Cat));

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

static cl::opt<bool> DumpModel("dump-model", cl::desc("Print the kernel model (debugging)"),
                               cl::Hidden, cl::cat(Cat));

static cl::opt<bool> DumpIR("dump-ir", cl::desc("Print the optimized device IR (debugging)"),
                            cl::Hidden, cl::cat(Cat));

static int usageError(const Twine &Msg) {
  errs() << "cuda-roofline: error: " << Msg << "\n";
  return 2;
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
  if (Format != "text" && Format != "json")
    return usageError("unknown --format '" + Format + "' (expected text or json)");
  if (!Gpu.empty() && !Gpus.find(Gpu))
    return usageError("unknown GPU '" + Gpu + "' (see --list-gpus)");
  if (!Arch.empty() && !StringRef(Arch).starts_with("sm_"))
    return usageError("malformed --arch '" + Arch + "': expected sm_XX");
  if (Files.empty())
    return usageError("no input files (usage: cuda-roofline [options] FILE... "
                      "[-- CLANG-ARGS])");

  if (!(MinEfficiencyLoss >= 0.0 && MinEfficiencyLoss < 1.0))
    return usageError("--min-efficiency-loss must be in [0, 1): got " +
                      std::to_string(MinEfficiencyLoss.getValue()));
  if (MinConflictWays < 2 || MinConflictWays > 32)
    return usageError("--min-conflict-ways must be between 2 and 32: got " +
                      Twine(MinConflictWays.getValue()));

  if (!(MemoryBoundFraction > 0.0 && MemoryBoundFraction <= 1.0))
    return usageError("--memory-bound-fraction must be in (0, 1]: got " +
                      std::to_string(MemoryBoundFraction.getValue()));

  if (!(MinReuse >= 2.0))
    return usageError("--min-reuse must be at least 2: got " +
                      std::to_string(MinReuse.getValue()));

  AnalyzerOptions Opts;
  Opts.Findings.MinReuse = MinReuse;
  Opts.Findings.MemoryBoundRidgeFraction = MemoryBoundFraction;
  Opts.Findings.KernelSummary = KernelSummary;
  Opts.Findings.MinEfficiencyLoss = MinEfficiencyLoss;
  Opts.Findings.MinConflictWays = MinConflictWays;
  if (!Gpu.empty())
    Opts.GpuId = Gpu;
  Opts.Arch = Arch;
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
  } else if (HaveDashDash) {
    DB = std::make_unique<clang::tooling::FixedCompilationDatabase>(".", ClangArgs);
  } else {
    DB = std::make_unique<clang::tooling::FixedCompilationDatabase>(
        ".", std::vector<std::string>());
  }

  std::vector<FileReport> Reports;
  int Failures = 0;
  for (const std::string &F : Files) {
    if (!sys::fs::exists(F)) {
      errs() << "cuda-roofline: error: no such file: '" << F << "'\n";
      ++Failures;
      continue;
    }
    Analyzer A(*DB, Gpus, Opts);
    auto R = A.analyzeFile(F);
    if (!R) {
      errs() << "cuda-roofline: error: " << toString(R.takeError()) << "\n";
      ++Failures;
      continue;
    }
    Reports.push_back(std::move(*R));
  }
  for (const LaunchOverride &L : Opts.Launches) {
    bool Matched = false;
    for (const FileReport &R : Reports)
      Matched |= R.MatchedLaunches.count(L.Kernel) != 0;
    if (!Matched && !Failures)
      return usageError("--launch names '" + L.Kernel +
                        "', which is not a kernel of the input");
  }
  if (!Kernel.empty()) {
    bool Any = false, Template = false;
    for (const FileReport &R : Reports) {
      Any |= !R.Kernels.empty();
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
  if (Format == "json")
    emitJson(outs(), Reports);
  else
    emitText(outs(), Reports);
  outs().flush();
  if (Failures) {
    errs() << "cuda-roofline: " << Failures << " of " << Files.size()
           << " file(s) could not be analyzed\n";
    return 2;
  }
  return 0;
}
