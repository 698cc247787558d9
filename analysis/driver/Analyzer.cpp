//===- Analyzer.cpp -------------------------------------------------------===//

#include "Analyzer.h"
#include "ASTCompiler.h"
#include "AccessAnalysis.h"
#include "BuiltMath.h"
#include "Checks.h"
#include "Config.h"
#include "Counters.h"
#include "DeviceCompiler.h"
#include "KernelModel.h"
#include "LibraryInstructions.h"
#include "Limits.h"
#include "LintOptions.h"
#include "MachineInstructions.h"
#include "PtxCodegen.h"
#include "Ptxas.h"
#include "SourceText.h"
#include "TileCost.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace roofline;

Analyzer::Analyzer(const GpuDatabase &Gpus, AnalyzerOptions Opts)
    : Gpus(Gpus), Opts(std::move(Opts)) {}

// dram_bytes.upper: the grid's global bytes (loads, stores, atomics) at the
// granularity of the sectors their warp requests fetch.
static void sectorUpper(const std::vector<AccessInfo> &Accesses,
                        KernelCounts &KC) {
  std::optional<Rational> Requested = Rational(0);
  for (const char *C : {counter::GlobalLoadBytes, counter::GlobalStoreBytes,
                        counter::AtomicBytes}) {
    auto It = KC.Totals.find(C);
    if (It == KC.Totals.end())
      continue;
    if (!It->second || !Requested)
      return;
    Requested = *Requested + *It->second;
  }
  if (!Requested->toInt64() || *Requested->toInt64() < 0)
    return;
  SectorTraffic T =
      requestedSectorBytes(Accesses, uint64_t(*Requested->toInt64()));
  KC.UpperPartial = T.Partial;
  KC.Upper = T.Bytes ? *T.Bytes : uint64_t(*Requested->toInt64());
}

// The cache model's DRAM estimate, when both bounds are exact numbers, or
// the lower one falls short only of accesses too large to walk (the model
// then starts from their intervals).
static void estimateTraffic(const KernelModel &Model, const KernelLaunch &LI,
                            const std::map<std::string, int64_t> &Params,
                            const GpuSpec &Gpu, KernelCounts &KC) {
  const TrafficBound &C = KC.Compulsory;
  if (!LI.known() || !C.Lower || !KC.Upper) {
    KC.Estimate.Why = !LI.known() ? "the launch is not known"
                                  : "the traffic bounds are not numbers";
    return;
  }
  if (!C.Exact && (C.LeftOut || !C.Hull)) {
    KC.Estimate.Why = "an access has no footprint to start from (a "
                      "data-dependent address, or one too large to walk "
                      "without an interval)";
    return;
  }
  uint64_t From = C.Exact ? *C.Lower : std::min(*C.Hull, *KC.Upper);
  KC.Estimate =
      estimateDramTraffic(Model, knownValues(Params, LI), *LI.Grid, *LI.Block,
                          uint64_t(std::max<int64_t>(LI.SharedBytes, 0)), Gpu,
                          std::max(From, *C.Lower), *KC.Upper, C.Sampled);
}

static bool settingMatches(const KernelLaunch &L, const KernelDecl &K) {
  // With template arguments only that instantiation; without, any.
  if (!L.TemplateArgs.empty())
    return K.isNamed(L.Kernel) && !K.TemplateArgs.empty();
  return K.isNamed(L.Kernel);
}

// The launch as messages name it: the flag, or where the setting is.
static std::string launchOrigin(const KernelLaunch &L) {
  std::string Quoted = "'" + L.Text + "'";
  if (L.Source == LaunchSource::Flag)
    return "--launch " + Quoted;
  std::string Where = L.Loc.File;
  if (L.Loc.Line)
    Where += ":" + std::to_string(L.Loc.Line);
  return Where + ": launch " + Quoted;
}

/// The architecture a GPU's kernels are compiled for: from Hopper on, the
/// architecture-specific variant (sm_90a), which the GPU runs and which
/// wgmma, setmaxnreg and tcgen05 need; guarded out of the base
/// architecture, such a kernel would be analyzed with an empty body.
static std::string featureArch(const std::string &Arch) {
  unsigned Major = 0;
  llvm::StringRef Num = llvm::StringRef(Arch).drop_front(3);
  if (!llvm::StringRef(Arch).starts_with("sm_") || Num.empty() ||
      !llvm::all_of(Num, llvm::isDigit) || Num.getAsInteger(10, Major) ||
      Major < 90)
    return Arch;
  return Arch + "a";
}

llvm::Expected<FileSettings>
Analyzer::settingsFor(const std::string &File) const {
  FileSettings S;
  auto Ann = readAnnotations(File, Opts.Contents ? &*Opts.Contents : nullptr);
  if (!Ann)
    return Ann.takeError();
  llvm::Expected<std::optional<SourceSettings>> Cfg =
      std::optional<SourceSettings>();
  if (!Opts.ConfigFile.empty()) {
    auto C = readConfigFile(Opts.ConfigFile);
    if (!C)
      return C.takeError();
    Cfg = std::optional<SourceSettings>(std::move(*C));
  } else {
    Cfg = readConfigFor(File);
  }
  if (!Cfg)
    return Cfg.takeError();
  // The thresholds and limits: the options', then the config file's for
  // those the command line did not give.
  LintSettings FromConfig;
  FromConfig.Analysis = Opts;
  if (*Cfg) {
    S.ConfigOrigin = (*Cfg)->Origin;
    S.Checks = (*Cfg)->Checks;
    S.WarningsAsErrors = (*Cfg)->WarningsAsErrors;
    for (auto &[Key, Value] : (*Cfg)->Options) {
      const OptionSpec *O = findOption(FrontEnd::Config, Key);
      if (!O || Opts.FindingFlags.count(O->Name))
        continue;
      if (llvm::Error E = setOption(FromConfig, *O, Key, Value))
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       (*Cfg)->Origin + ": " +
                                           llvm::toString(std::move(E)));
    }
  }
  S.Findings = FromConfig.Analysis.Findings;
  S.KernelSeconds = FromConfig.Analysis.KernelSeconds;
  S.KernelMemoryMiB = FromConfig.Analysis.KernelMemoryMiB;
  S.FileSeconds = FromConfig.Analysis.FileSeconds;

  // Precedence: flags, then annotations, then the config file.
  std::optional<std::string> GpuId = Opts.GpuId;
  if (*Cfg) {
    S.Params = (*Cfg)->Params;
    if (!GpuId)
      GpuId = Ann->Gpu ? Ann->Gpu : (*Cfg)->Gpu;
  } else if (!GpuId) {
    GpuId = Ann->Gpu;
  }
  for (auto &KV : Ann->Params)
    S.Params[KV.first] = KV.second;
  for (auto &KV : Opts.Params)
    S.Params[KV.first] = KV.second;
  // Launches too, but kernel by kernel (analyzeUnit): a --launch for one
  // kernel leaves the annotation and config launches of the others in force.
  S.Launches.push_back(Opts.Launches);
  S.Launches.push_back(Ann->Launches);
  if (*Cfg)
    S.Launches.push_back((*Cfg)->Launches);

  S.Gpu = Gpus.find(GpuId ? *GpuId : DefaultGpu);
  if (!S.Gpu) {
    // Say where a bad id came from, unless it was the flag.
    std::string From;
    if (!Opts.GpuId && Ann->Gpu)
      From = File + ": ";
    else if (!Opts.GpuId && *Cfg && (*Cfg)->Gpu)
      From = (*Cfg)->Origin + ": ";
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        From + "unknown GPU '" + (GpuId ? *GpuId : std::string(DefaultGpu)) +
            "' (see --list-gpus)");
  }

  CompileOptions &CO = S.Compile;
  CO.Arch = Opts.Arch.empty() ? featureArch(S.Gpu->Arch) : Opts.Arch;
  CO.Params = S.Params;
  CO.ExtraArgs = Opts.ExtraArgs;
  // The config's arguments last: a -D or -U there has the last word over
  // the compile command's.
  if (*Cfg)
    llvm::append_range(CO.ExtraArgs, (*Cfg)->ExtraArgs);
  CO.CudaPath = Opts.CudaPath;
  CO.Prelude = Opts.Prelude;
  CO.DumpIR = Opts.DumpIR;
  CO.Diagnostics = Opts.Diagnostics;
  CO.Contents = Opts.Contents ? &*Opts.Contents : nullptr;
  CO.CommandFromUser = Opts.CommandsFromUser;
  CO.AllowUnsafeFlags = Opts.AllowUnsafeFlags;
  // Every source's template launches are instantiated: which source wins
  // is decided per instantiation, once it exists.
  std::set<std::string> Seen;
  for (const std::vector<KernelLaunch> &Settings : S.Launches)
    for (const KernelLaunch &L : Settings) {
      if (L.TemplateArgs.empty())
        continue;
      Instantiation I{L.PlainName, L.TemplateArgs, launchOrigin(L)};
      if (Seen.insert(I.spelling()).second)
        CO.Instantiations.push_back(std::move(I));
    }
  return S;
}

llvm::Expected<FileReport>
Analyzer::analyzeFile(const clang::tooling::CompilationDatabase &DB,
                      const std::string &File) {
  auto S = settingsFor(File);
  if (!S)
    return S.takeError();
  // The file's clock runs from here: parse, host evaluation and every
  // kernel (analyzeUnit) share it.
  FileLimits FileLimit(S->FileSeconds, S->KernelMemoryMiB);
  auto CU = [&] {
    llvm::TimeTraceScope Scope("compile device side", File);
    return compileDeviceSide(DB, File, S->Compile);
  }();
  if (!CU)
    return CU.takeError();
  return analyzeUnit(File, *S, *CU);
}

llvm::Expected<FileReport>
Analyzer::analyzeAST(clang::ASTContext &Ctx, clang::Preprocessor &PP,
                     const std::vector<ClangError> &Errors) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  auto Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!Main)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the main file has no name");
  std::string File = Main->getName().str();
  auto S = settingsFor(File);
  if (!S)
    return S.takeError();
  // Clang has parsed already: the file's clock covers the rest.
  FileLimits FileLimit(S->FileSeconds, S->KernelMemoryMiB);
  // Template kernels a launch setting names with arguments the file never
  // uses exist only once instantiated, which the parsed unit cannot be any
  // more: the file is compiled again as the command-line tool compiles it,
  // with the user flags of this compilation.
  if (!S->Compile.Instantiations.empty()) {
    llvm::raw_null_ostream Quiet; // Clang has reported this file already.
    S->Compile.Diagnostics = &Quiet;
    // The flags of the compilation the user runs.
    S->Compile.CommandFromUser = true;
    clang::tooling::FixedCompilationDatabase DB(
        ".", userCompileArgs(Ctx.getLangOpts(), PP));
    auto CU = compileDeviceSide(DB, File, S->Compile);
    if (!CU)
      return CU.takeError();
    return analyzeUnit(File, *S, *CU);
  }
  auto CU = compileFromAST(Ctx, PP, S->Compile, Errors);
  if (!CU)
    return CU.takeError();
  return analyzeUnit(File, *S, *CU);
}

namespace {

/// The launches of one kernel with the kernel parameter values each gives.
using LaunchList =
    std::vector<std::pair<KernelLaunch, std::map<std::string, int64_t>>>;

/// One compiled unit's analysis, in phases: the file's report and what clang
/// kept from being analyzed (begin), then per kernel its model, its
/// launches and, per launch, the counts, the accesses and the findings
/// (addKernel), then one finding per place across them all (finish).
class UnitAnalysis {
public:
  UnitAnalysis(const AnalyzerOptions &Opts, const std::string &File,
               const FileSettings &S, CompiledUnit &CU)
      : Opts(Opts), File(File), S(S), CU(CU), Abs(File) {
    // Locations print the way the user named the file.
    llvm::sys::fs::make_absolute(Abs);
    llvm::sys::path::remove_dots(Abs, true);
    if (Opts.Contents) {
      Sources.set(File, *Opts.Contents);
      Sources.set(std::string(Abs), *Opts.Contents);
    }
  }

  void begin();
  llvm::Error addKernel(llvm::Function &F);
  FileReport finish();

private:
  void userName(std::string &Name) const {
    if (Name == Abs.str())
      Name = File;
  }
  void userPath(SourceLoc &L) const { userName(L.File); }
  bool lostKernelNamed(const NotAnalyzed &N) const;
  LaunchList launchesOf(const KernelDecl &Decl) const;
  std::map<std::string, int64_t> siteParams(const KernelLaunch &Site) const;
  std::map<std::string, int64_t> settingParams(const KernelDecl &Decl) const;
  std::string refusal(const KernelLaunch &LI, const KernelDecl &Decl) const;
  llvm::Error takeParams(const KernelDecl &Decl,
                         std::map<std::string, int64_t> &KP,
                         KernelReport &R) const;
  void count(KernelReport &R, const KernelModel &Counted,
             const KernelDecl &Decl,
             const std::map<std::string, int64_t> &CountParams);
  void placeUnknowns(KernelReport &R, const KernelDecl &Decl) const;
  void addFindings(KernelReport &R, const KernelModel &Model,
                   const KernelModel &Counted, const KernelDecl &Decl,
                   const std::map<std::string, int64_t> &CountParams,
                   bool Sweep);

  const AnalyzerOptions &Opts;
  const std::string &File;
  const FileSettings &S;
  CompiledUnit &CU;
  llvm::SmallString<256> Abs;
  SourceFiles Sources;
  FileReport FR;
  /// The unit's machine instructions per block (made with the first kernel
  /// that needs them), or why there are none.
  std::optional<
      std::map<const llvm::BasicBlock *, std::map<std::string, Rational>>>
      Machine;
  std::string MachineWhy;
  /// What ptxas allocates per function of the unit's PTX, or why not known.
  std::map<std::string, PtxasUsage> Usage;
  /// Widths of the shared accesses the machine code merges (MarkedPtx).
  std::map<const llvm::Instruction *, unsigned> MergedWidths;
  std::string UsageWhy;
  /// The kernels (module names) whose PTX ptxas refused for an instruction
  /// the architecture lacks, and ptxas's words.
  std::map<std::string, std::string> TargetRefusals;
  void compileMachine();
  void addInstructions(KernelModel &Model);
  void assemble(const MarkedPtx &P, const std::string &Arch);
};

} // namespace

// Every kernel of the unit is compiled to PTX at once, the first time one
// is modelled, and the PTX assembled for its registers.
void UnitAnalysis::compileMachine() {
  if (!Machine) {
    llvm::TimeTraceScope Scope("machine code (PTX, ptxas)");
    Machine.emplace();
    std::string Arch = S.Compile.Arch.empty() ? S.Gpu->Arch : S.Compile.Arch;
    // The back end's straight-line optimizations take time superlinear in
    // a block's length: past this size the PTX is not made, and said so.
    constexpr size_t MaxInstructions = 12000;
    size_t Size = 0;
    for (const llvm::Function &Fn : *CU.Module)
      Size += Fn.getInstructionCount();
    if (Size > MaxInstructions)
      MachineWhy = "the device code is too large to compile for instruction "
                   "counts (" +
                   std::to_string(Size) + " IR instructions, at most " +
                   std::to_string(MaxInstructions) + ")";
    else if (auto P = [&] {
               llvm::TimeTraceScope Scope("PTX code generation");
               return emitMarkedPtx(*CU.Module, Arch, CU.Built.get(),
                                    divideAsBuilt);
             }()) {
      *Machine = blockInstructions(*P);
      addLibraryInstructions(*Machine, Arch);
      MergedWidths = std::move(P->MergedWidths);
      assemble(*P, Arch);
    } else {
      MachineWhy = llvm::toString(P.takeError());
    }
    if (!MachineWhy.empty())
      UsageWhy = "no PTX to assemble: " + MachineWhy;
  }
}

void UnitAnalysis::addInstructions(KernelModel &Model) {
  for (BlockModel &B : Model.Blocks) {
    if (auto It = Machine->find(B.BB); It != Machine->end())
      B.Instructions = It->second;
    for (AccessModel &A : B.Accesses)
      if (auto It = MergedWidths.find(A.Inst); It != MergedWidths.end())
        A.MachineWidth = It->second;
  }
  // Counts of a kernel the GPU cannot run would time nothing real.
  auto Refused = TargetRefusals.find(Model.MangledName);
  if (!Model.Blocks.empty() && Refused != TargetRefusals.end()) {
    std::string Arch = S.Compile.Arch.empty() ? S.Gpu->Arch : S.Compile.Arch;
    UnknownReason R;
    R.Loc = Model.Blocks.front().Loc;
    R.Reason = "the kernel does not compile for " + Arch + " (" + S.Gpu->Name +
               "): ptxas: " + Refused->second;
    Model.Blocks.front().Affected |= AffectsAll;
    Model.Blocks.front().Unknowns.push_back(R);
    Model.RegistersWhy = R.Reason;
    return;
  }
  auto It = Usage.find(Model.MangledName);
  if (It == Usage.end() || !It->second.Registers) {
    Model.RegistersWhy = !UsageWhy.empty()
                             ? UsageWhy
                             : "ptxas reported no registers for the kernel";
    return;
  }
  Model.Registers = It->second.Registers;
  Model.SpillStoreBytes = It->second.SpillStoreBytes;
  Model.SpillLoadBytes = It->second.SpillLoadBytes;
}

/// The kernel ptxas refused for an instruction the architecture lacks, from
/// its error ("..., line 519; error   : Modifier '.async' requires .target
/// sm_90 or higher", or "... not supported on .target 'sm_90'"): the PTX
/// entry that line is in, and ptxas's words; false for any other error.
static bool targetRefusal(llvm::StringRef Why, llvm::StringRef Ptx,
                          std::string &Entry, std::string &Said) {
  size_t At = Why.find(", line ");
  unsigned Line = 0;
  bool Target = Why.contains("requires .target") ||
                Why.contains("not supported on .target");
  if (At == llvm::StringRef::npos || !Target ||
      Why.substr(At + 7).consumeInteger(10, Line))
    return false;
  Entry = ptxEntryAtLine(Ptx, Line);
  Said = Why.substr(Why.find(": ", At) + 2).split("; registers").first.trim();
  return !Entry.empty();
}

// Registers per thread: what ptxas -v says of the PTX the instructions were
// counted on (PTX names mapped back to the module's). A kernel ptxas
// refuses for the architecture is set aside and the rest assembled again,
// so each refused kernel is named and the others keep their registers.
void UnitAnalysis::assemble(const MarkedPtx &P, const std::string &Arch) {
  // Longer than the back end takes for the largest unit it compiles.
  constexpr double TimeoutSeconds = 30;
  constexpr unsigned MaxRefusals = 8;
  // Without the build's PTX, the counted one: its registers differ a
  // little (docs/prediction.md, "Occupancy and latency").
  bool Built = !P.BuiltPtx.empty();
  std::string Ptx = Built ? P.BuiltPtx : P.Ptx;
  const std::map<std::string, std::string> &Renamed =
      Built ? P.BuiltRenamed : P.Renamed;
  for (unsigned Round = 0; Round <= MaxRefusals; ++Round) {
    llvm::TimeTraceScope Scope("ptxas");
    auto Report = runPtxas(Ptx, Arch, Opts.CudaPath, TimeoutSeconds);
    if (Report) {
      UsageWhy.clear();
      for (auto &[Name, U] : *Report) {
        auto It = Renamed.find(Name);
        Usage[It == Renamed.end() ? Name : It->second] = U;
      }
      return;
    }
    UsageWhy = llvm::toString(Report.takeError());
    std::string Entry, Said;
    if (Round == MaxRefusals || !targetRefusal(UsageWhy, Ptx, Entry, Said))
      return;
    auto It = Renamed.find(Entry);
    TargetRefusals[It == Renamed.end() ? Entry : It->second] = Said;
    Ptx = ptxWithoutEntry(Ptx, Entry);
  }
}

// --kernel: only that kernel's entry, if it is lost.
bool UnitAnalysis::lostKernelNamed(const NotAnalyzed &N) const {
  if (Opts.KernelFilter.empty())
    return true;
  KernelDecl Named;
  Named.Name = N.Name;
  Named.QualifiedPlain = N.Name.substr(0, N.Name.find('<'));
  size_t Scope = Named.QualifiedPlain.rfind("::");
  size_t Start = Scope == std::string::npos ? 0 : Scope + 2;
  Named.PlainName = Named.QualifiedPlain.substr(Start);
  Named.ShortName = N.Name.substr(Start);
  return N.Kind == "kernel" && Named.isNamed(Opts.KernelFilter);
}

void UnitAnalysis::begin() {
  FR.File = File;
  FR.Gpu = S.Gpu;
  FR.ConfigChecks = S.Checks;
  FR.ConfigWarningsAsErrors = S.WarningsAsErrors;
  FR.ConfigOrigin = S.ConfigOrigin;
  for (KernelDecl &K : CU.Facts.Kernels)
    userPath(K.Loc);
  for (auto &T : CU.Facts.UninstantiatedTemplates) {
    userPath(T.second);
    // A template clang rejected is named once, as not analyzed.
    if (llvm::any_of(CU.Lost, [&](const NotAnalyzed &N) {
          return N.Name == T.first && N.Loc.Line == T.second.Line;
        }))
      continue;
    if (Opts.KernelFilter.empty() || Opts.KernelFilter == T.first)
      FR.UninstantiatedTemplates.push_back(T);
  }
  for (KernelLaunch &L : CU.Facts.Launches)
    userPath(L.Loc);
  for (NotAnalyzed &N : CU.Lost) {
    userPath(N.Loc);
    userPath(N.Error.Where);
    if (lostKernelNamed(N))
      FR.Lost.push_back(N);
  }
  FR.Findings = buildNotAnalyzedFindings(FR.Lost);
  for (Finding &F : FR.Findings)
    F.SourceLine = Sources.line(F.Loc);
}

// The call sites' argument values give the kernel parameters' values,
// unless the user named that kernel parameter directly (a --param the
// launching function has no variable for).
std::map<std::string, int64_t>
UnitAnalysis::siteParams(const KernelLaunch &Site) const {
  std::map<std::string, int64_t> Args;
  for (auto &KV : Site.Args)
    if (!S.Params.count(KV.first) || Site.HostNames.count(KV.first))
      Args.insert(KV);
  return Args;
}

// A launch that overrides the call sites replaces their configuration,
// not their arguments: those every call site passes alike (or the only
// call site passes) stay, so that --launch needs no --param repeating
// them.
std::map<std::string, int64_t>
UnitAnalysis::settingParams(const KernelDecl &Decl) const {
  std::optional<std::map<std::string, int64_t>> Agreed;
  for (const KernelLaunch &Site : CU.Facts.Launches) {
    if (Site.KernelMangledName != Decl.MangledName)
      continue;
    std::map<std::string, int64_t> Args = siteParams(Site);
    if (!Agreed) {
      Agreed = std::move(Args);
      continue;
    }
    for (auto It = Agreed->begin(); It != Agreed->end();) {
      auto Other = Args.find(It->first);
      if (Other == Args.end() || Other->second != It->second)
        It = Agreed->erase(It);
      else
        ++It;
    }
  }
  auto KP = S.Params;
  if (Agreed)
    for (auto &KV : *Agreed)
      KP[KV.first] = KV.second;
  return KP;
}

// The settings' launches of the kernel (the first source with any gives
// all of them), else its call sites, else one launch without sizes that
// says why.
LaunchList UnitAnalysis::launchesOf(const KernelDecl &Decl) const {
  LaunchList Launches;
  for (const std::vector<KernelLaunch> &Settings : S.Launches) {
    for (const KernelLaunch &L : Settings) {
      if (!settingMatches(L, Decl))
        continue;
      Launches.push_back({L, settingParams(Decl)});
    }
    if (!Launches.empty())
      return Launches;
  }
  for (const KernelLaunch &Site : CU.Facts.Launches) {
    if (Site.KernelMangledName != Decl.MangledName)
      continue;
    auto KP = S.Params;
    for (auto &KV : siteParams(Site))
      KP[KV.first] = KV.second;
    Launches.push_back({Site, KP});
  }
  if (!Launches.empty())
    return Launches;
  KernelLaunch LI;
  // A host function clang rejected contributes no launch: it may hold
  // this kernel's.
  bool LostHost = llvm::any_of(
      FR.Lost, [](const NotAnalyzed &N) { return N.Kind != "kernel"; });
  LI.Unresolved = std::string("no <<<>>> launch of this kernel in the "
                              "file") +
                  (LostHost ? " outside the functions clang rejected" : "") +
                  "; use --launch, an annotation or a config file";
  Launches.push_back({LI, S.Params});
  return Launches;
}

// Why a launch with sizes fails on the GPU (empty if it runs).
std::string UnitAnalysis::refusal(const KernelLaunch &LI,
                                  const KernelDecl &Decl) const {
  std::string Why = launchLimitError(*LI.Grid, *LI.Block);
  if (Why.empty() && FR.Gpu->SharedPerBlockBytes &&
      uint64_t(LI.SharedBytes) > FR.Gpu->SharedPerBlockBytes)
    Why = "dynamic shared memory of " + std::to_string(LI.SharedBytes) +
          " B exceeds the " + std::to_string(FR.Gpu->SharedPerBlockBytes) +
          " B per block of " + FR.Gpu->Id + ": the launch fails";
  if (Why.empty() && Decl.MaxThreadsPerBlock &&
      LI.Block->count() > *Decl.MaxThreadsPerBlock)
    Why = "block " + LI.Block->str() + " has " +
          std::to_string(LI.Block->count()) +
          " threads, more than the kernel's __launch_bounds__ of " +
          std::to_string(*Decl.MaxThreadsPerBlock) + ": the launch fails";
  return Why;
}

// Report only values that belong to this kernel's parameters, and refuse
// values the parameter's type cannot hold.
llvm::Error UnitAnalysis::takeParams(const KernelDecl &Decl,
                                     std::map<std::string, int64_t> &KP,
                                     KernelReport &R) const {
  for (const std::string &P : Decl.ParamNames) {
    if (!KP.count(P))
      continue;
    int64_t V = KP[P];
    auto T = Decl.IntParamTypes.find(P);
    if (T != Decl.IntParamTypes.end() && T->second.first < 64) {
      unsigned Bits = T->second.first;
      bool Signed = T->second.second;
      int64_t Lo = Signed ? -(int64_t(1) << (Bits - 1)) : 0;
      int64_t Hi = Signed ? (int64_t(1) << (Bits - 1)) - 1
                          : int64_t((uint64_t(1) << Bits) - 1);
      if (V < Lo || V > Hi)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "value " + std::to_string(V) + " of '" + P + "' does not fit the " +
                std::to_string(Bits) + "-bit " +
                (Signed ? "signed" : "unsigned") + " parameter of kernel '" +
                Decl.Name + "'");
    }
    R.Params[P] = V;
  }
  return llvm::Error::success();
}

// The counts, the accesses (with their source text), the sector bound,
// the price of tiles and the cache model's traffic of one launch.
void UnitAnalysis::count(KernelReport &R, const KernelModel &Counted,
                         const KernelDecl &Decl,
                         const std::map<std::string, int64_t> &CountParams) {
  const KernelLaunch &LI = R.Launch;
  {
    llvm::TimeTraceScope Scope("counts", Decl.Name);
    R.Counts = computeCounts(Counted, LI, CountParams);
  }
  {
    llvm::TimeTraceScope Scope("accesses", Decl.Name);
    R.Accesses = analyzeAccesses(
        Counted, accessLaunch(Counted, LI, Decl.MaxThreadsPerBlock),
        CountParams);
  }
  for (AccessInfo &A : R.Accesses) {
    // Without a debug location an access is the kernel's.
    if (A.Loc.File.empty())
      A.Loc.File = Decl.Loc.File;
    userName(A.Loc.File);
    userName(A.LoopLoc.File);
    A.Expr = expressionAt(Sources.text(A.Loc.File), A.Loc.Line, A.Loc.Column,
                          &A.Loc.Column, !A.IsStore, &A.Loc.Line);
  }
  if (LI.known()) {
    llvm::TimeTraceScope Scope("tile pricing", Decl.Name);
    sectorUpper(R.Accesses, R.Counts);
    priceTiles(R.Accesses, *FR.Gpu, *LI.Block,
               Counted.StaticSharedBytes +
                   uint64_t(std::max<int64_t>(LI.SharedBytes, 0)),
               blockLoadFootprint(Counted, LI, CountParams), Counted.Registers);
  }
  {
    llvm::TimeTraceScope Scope("cache model", Decl.Name);
    estimateTraffic(Counted, LI, CountParams, *FR.Gpu, R.Counts);
  }
  if (LI.known()) {
    Occupancy &O = R.Counts.Occ;
    O = occupancy(*FR.Gpu, *LI.Grid, *LI.Block,
                  Counted.StaticSharedBytes +
                      uint64_t(std::max<int64_t>(LI.SharedBytes, 0)),
                  Counted.Registers);
    O.RegistersWhy = Counted.RegistersWhy;
    O.SpillStoreBytes = Counted.SpillStoreBytes;
    O.SpillLoadBytes = Counted.SpillLoadBytes;
  }
  for (const LoopInfoModel &L : Counted.Loops) {
    LoopSummary S{L.Loc, L.TripCount ? L.TripCount->str()
                         : L.Rec     ? std::string("simulated")
                                     : "unknown: " + L.Unknown.Reason};
    if (S.Loc.File.empty())
      S.Loc.File = Decl.Loc.File;
    userPath(S.Loc);
    R.Loops.push_back(std::move(S));
  }
  if (R.Counts.Estimate.Limit)
    R.Counts.Unknowns.push_back(*R.Counts.Estimate.Limit);
  if (R.Counts.Instructions.empty() && R.Counts.InstructionsWhy.empty())
    R.Counts.InstructionsWhy = !MachineWhy.empty() ? MachineWhy
                               : LI.known()
                                   ? "the kernel has no machine code"
                                   : "instruction counts need a launch";
}

void UnitAnalysis::placeUnknowns(KernelReport &R,
                                 const KernelDecl &Decl) const {
  for (PathCount &P : R.Counts.Paths)
    userName(P.Loc.File);
  for (UnknownReason &U : R.Counts.Unknowns) {
    if (U.Loc.File.empty())
      U.Loc.File = Decl.Loc.File;
    userName(U.Loc.File);
    // A limit reached inside a condition or a whole-buffer footprint
    // has no statement of its own: it is the kernel's.
    if (U.Loc.Line == 0 &&
        llvm::StringRef(U.Reason).contains("analysis limit reached")) {
      U.Loc.Line = Decl.Loc.Line;
      U.Loc.Column = Decl.Loc.Column;
    }
  }
}

// The metrics, the sweep without sizes (Sweep: when the launch leaves
// sizes missing) and the findings of one launch, less those an earlier
// launch of the same kernel already said.
void UnitAnalysis::addFindings(
    KernelReport &R, const KernelModel &Model, const KernelModel &Counted,
    const KernelDecl &Decl, const std::map<std::string, int64_t> &CountParams,
    bool Sweep) {
  const KernelLaunch &LI = R.Launch;
  R.Metrics = computeMetrics(R.Counts, *FR.Gpu, LI.known());
  R.Predicted = predictTime(R.Counts, R.Accesses, R.Metrics, *FR.Gpu);
  KernelFacts Facts;
  Facts.Name = Decl.Name;
  Facts.Loc = Decl.Loc;
  Facts.Metrics = &R.Metrics;
  Facts.Predicted = &R.Predicted;
  Facts.Gpu = FR.Gpu;
  Facts.Unresolved = LI.Unresolved;
  // Kernel parameters whose missing value left something unknown (with
  // a launch; without one, the launch's reason says it all).
  if (LI.known()) {
    std::set<std::string> Missing;
    auto isParam = [&](const std::string &N) {
      return llvm::is_contained(Model.ParamNames, N);
    };
    for (const UnknownReason &U : R.Counts.Unknowns)
      for (const std::string &N : U.Missing)
        if (isParam(N))
          Missing.insert(N);
    for (const AccessInfo &A : R.Accesses)
      for (const std::string &N : A.Missing)
        if (isParam(N))
          Missing.insert(N);
    Facts.MissingParams.assign(Missing.begin(), Missing.end());
  }
  // Without sizes, the verdict every size swept agrees on.
  if (Sweep && (!LI.known() || !Facts.MissingParams.empty())) {
    llvm::TimeTraceScope Scope("size sweep", Decl.Name);
    R.Sweep =
        sweepRoofline(Counted, Decl, LI, CountParams, *FR.Gpu, R.SweepWhyNot);
  }
  Facts.Sweep = R.Sweep ? &*R.Sweep : nullptr;
  Facts.SweepWhyNot = R.SweepWhyNot;
  R.MissingSizes = missingSizes(Facts);
  R.MissingParams = Facts.MissingParams;
  if (!LI.UnresolvedParam.empty() &&
      !llvm::is_contained(R.MissingParams, LI.UnresolvedParam))
    R.MissingParams.insert(R.MissingParams.begin(), LI.UnresolvedParam);
  {
    llvm::TimeTraceScope Scope("findings", Decl.Name);
    R.Findings = buildFindings(Facts, R.Accesses, S.Findings);
  }
  // Said once per kernel, however many of its launches find the same
  // (the same missing sizes; an access whose verdict does not depend on
  // what differs between them).
  // The summary heads each launch's report: it stays.
  llvm::erase_if(R.Findings, [&](const Finding &F) {
    return F.Check != checkId(CheckId::KernelSummary) &&
           llvm::any_of(FR.Kernels, [&](const KernelReport &Prev) {
             return Prev.Decl.MangledName == Decl.MangledName &&
                    llvm::any_of(Prev.Findings, [&](const Finding &P) {
                      return P.Check == F.Check && P.Loc.Line == F.Loc.Line &&
                             P.Loc.Column == F.Loc.Column &&
                             P.Loc.File == F.Loc.File && P.Message == F.Message;
                    });
           });
  });
  for (Finding &F : R.Findings)
    F.SourceLine = Sources.line(F.Loc);
}

llvm::Error UnitAnalysis::addKernel(llvm::Function &F) {
  KernelDecl Decl;
  if (const KernelDecl *D = CU.Facts.findKernel(F.getName().str()))
    Decl = *D;
  else {
    Decl.MangledName = Decl.Name = Decl.ShortName = Decl.PlainName =
        Decl.QualifiedPlain = F.getName().str();
    Decl.Loc.File = File;
  }
  if (llvm::StringRef(Decl.MangledName).starts_with("__cuda_roofline"))
    return llvm::Error::success();
  if (!Opts.KernelFilter.empty() && !Decl.isNamed(Opts.KernelFilter))
    return llvm::Error::success();

  // The unit's machine code is the file's work, not this kernel's: it is
  // made before the kernel's time limit starts.
  compileMachine();
  KernelLimits Limit(S.KernelSeconds, S.KernelMemoryMiB);
  // Past the file's limit a kernel is not modelled at all, and a model
  // whose building reached a limit is incomplete: either way each of its
  // launches is reported with the limit's reason instead of counts.
  KernelModel Model;
  if (!KernelLimits::expired()) {
    llvm::TimeTraceScope Scope("kernel model", Decl.Name);
    Model = buildKernelModel(F, &Decl);
    addInstructions(Model);
  }
  std::optional<UnknownReason> Limited;
  if (KernelLimits::expired()) {
    Limited.emplace();
    Limited->Reason = KernelLimits::reason();
    Limited->Loc.File = Decl.Loc.File;
    Limited->Loc.Line = Decl.Loc.Line;
    Limited->Loc.Column = Decl.Loc.Column;
  } else if (Opts.DumpModel) {
    dumpKernelModel(Model, llvm::errs());
  }

  LaunchList Launches = launchesOf(Decl);
  for (const KernelLaunch &L : llvm::make_first_range(Launches))
    if (L.Source != LaunchSource::Call && L.Source != LaunchSource::None)
      FR.MatchedLaunches.insert(L.Kernel);
  // A launch without sizes beside launches with them (a smoke test's
  // size read from the command line) adds no verdict of its own.
  bool AnySized =
      llvm::any_of(Launches, [](const auto &L) { return L.first.known(); });
  for (auto &[LI, KP] : Launches) {
    bool Refused = false; // The launch fails: no sizes would help.
    if (LI.known()) {
      std::string Why = refusal(LI, Decl);
      if (!Why.empty()) {
        if (LI.Source == LaunchSource::Flag)
          return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                         "--launch for '" + Decl.Name +
                                             "': " + Why);
        LI.Unresolved = Why;
        LI.Grid.reset();
        LI.Block.reset();
        Refused = true;
      }
    }
    KernelReport R;
    R.Decl = Decl;
    R.Launch = LI;
    if (llvm::Error E = takeParams(Decl, KP, R))
      return E;
    // Template arguments named in formulas get their values too.
    auto CountParams = R.Params;
    for (const KernelDecl::TemplateUse &U : Decl.TemplateUses)
      CountParams.emplace(U.Name, U.Value);
    // `if (bias)`: a value given for the pointer decides its null tests
    // (null is 0). Without one it is taken to be non-null -- what a
    // caller that passes the argument gets -- and the report says so,
    // so that the counts stay exact and the choice is visible.
    std::set<std::string> Null;
    for (const std::string &P : Model.NullTested) {
      auto It = KP.find(P);
      if (It == KP.end())
        R.AssumedNonNull.push_back(P);
      else if (It->second == 0)
        Null.insert(P);
    }
    KernelModel Resolved;
    if (!Model.NullTested.empty())
      Resolved = resolveNullTests(Model, Null);
    const KernelModel &Counted = Model.NullTested.empty() ? Model : Resolved;
    if (Limited)
      R.Counts = limitedCounts(LI, *Limited);
    else
      count(R, Counted, Decl, CountParams);
    placeUnknowns(R, Decl);
    addFindings(R, Model, Counted, Decl, CountParams,
                !Limited && !Refused && (LI.known() || !AnySized));
    FR.Kernels.push_back(std::move(R));
  }
  return llvm::Error::success();
}

FileReport UnitAnalysis::finish() {
  std::stable_sort(FR.Kernels.begin(), FR.Kernels.end(),
                   [](const KernelReport &A, const KernelReport &B) {
                     return A.Decl.Loc.Line < B.Decl.Loc.Line;
                   });
  // One finding per place across instantiations, launches and kernels
  // that share a device function.
  std::vector<ReportFindings> Reports;
  for (KernelReport &K : FR.Kernels) {
    std::string Label = "'" + K.Decl.Name + "'";
    bool Several = llvm::count_if(FR.Kernels, [&](const KernelReport &O) {
                     return O.Decl.MangledName == K.Decl.MangledName;
                   }) > 1;
    if (Several)
      Label += K.Launch.Iteration.empty()
                   ? " launched at line " + std::to_string(K.Launch.Loc.Line)
                   : " with " + K.Launch.Iteration;
    Reports.push_back({Label, &K.Findings});
  }
  mergeAcrossReports(Reports);
  return std::move(FR);
}

llvm::Expected<FileReport> Analyzer::analyzeUnit(const std::string &File,
                                                 const FileSettings &S,
                                                 CompiledUnit &CU) {
  if (!CU.Facts.Errors.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   CU.Facts.Errors.front());
  UnitAnalysis Unit(Opts, File, S, CU);
  Unit.begin();
  for (llvm::Function &F : *CU.Module) {
    if (F.isDeclaration() ||
        F.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      continue;
    if (llvm::Error E = Unit.addKernel(F))
      return std::move(E);
  }
  return Unit.finish();
}
