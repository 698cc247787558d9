//===- Analyzer.cpp -------------------------------------------------------===//

#include "Analyzer.h"
#include "ASTCompiler.h"
#include "AccessAnalysis.h"
#include "Checks.h"
#include "Config.h"
#include "DeviceCompiler.h"
#include "KernelModel.h"
#include "Limits.h"
#include "LintOptions.h"
#include "TileCost.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace roofline;

Analyzer::Analyzer(const GpuDatabase &Gpus, AnalyzerOptions Opts)
    : Gpus(Gpus), Opts(std::move(Opts)) {}

// Source files by path, read once per file analyzed, for the text of
// accessed expressions.
using SourceCache = std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>>;
static llvm::StringRef sourceText(SourceCache &Cache, const std::string &Path) {
  auto It = Cache.find(Path);
  if (It == Cache.end()) {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    It = Cache.emplace(Path, Buf ? std::move(*Buf) : nullptr).first;
  }
  return It->second ? It->second->getBuffer() : llvm::StringRef();
}

static std::string lineOf(llvm::StringRef Text, unsigned Line) {
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  return Line >= 1 && Line <= Lines.size() ? Lines[Line - 1].rtrim("\r").str()
                                           : std::string();
}

// dram_bytes.upper: the grid's global bytes (loads, stores, atomics) at the
// granularity of the sectors their warp requests fetch.
static void sectorUpper(const std::vector<AccessInfo> &Accesses,
                        KernelCounts &KC) {
  std::optional<Rational> Requested = Rational(0);
  for (const char *C :
       {"global.load_bytes", "global.store_bytes", "atomic_bytes"}) {
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

// The cache model's DRAM estimate, when both bounds are exact numbers.
static void estimateTraffic(const KernelModel &Model, const LaunchInfo &LI,
                            const std::map<std::string, int64_t> &Params,
                            const GpuSpec &Gpu, KernelCounts &KC) {
  if (!LI.known() || !KC.Compulsory.Lower || !KC.Compulsory.Exact ||
      !KC.Upper)
    return;
  KC.Estimate = estimateDramTraffic(
      Model, knownValues(Params, LI), *LI.Grid, *LI.Block,
      uint64_t(std::max<int64_t>(LI.SharedBytes, 0)), Gpu, *KC.Compulsory.Lower,
      *KC.Upper);
}

static bool overrideMatches(const LaunchOverride &L, const KernelDecl &K) {
  // With template arguments only that instantiation; without, any.
  if (!L.TemplateArgs.empty())
    return K.isNamed(L.Kernel) && !K.TemplateArgs.empty();
  return K.isNamed(L.Kernel);
}

// The launch as messages name it: the flag, or where the setting is.
static std::string launchOrigin(LaunchSource Source, const LaunchSetting &L) {
  std::string Quoted = "'" + L.Launch.Text + "'";
  if (Source == LaunchSource::Flag)
    return "--launch " + Quoted;
  std::string Where = L.Loc.File;
  if (L.Loc.Line)
    Where += ":" + std::to_string(L.Loc.Line);
  return Where + ": launch " + Quoted;
}

llvm::Expected<FileSettings>
Analyzer::settingsFor(const std::string &File) const {
  FileSettings S;
  auto Ann = readAnnotations(File);
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
  std::vector<LaunchSetting> Flags;
  for (const LaunchOverride &L : Opts.Launches)
    Flags.push_back({L, SourceLoc{"--launch", 0, 0}});
  S.Launches.push_back({LaunchSource::Flag, std::move(Flags)});
  S.Launches.push_back({LaunchSource::Annotation, Ann->Launches});
  if (*Cfg)
    S.Launches.push_back({LaunchSource::Config, (*Cfg)->Launches});

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
  CO.Arch = Opts.Arch.empty() ? S.Gpu->Arch : Opts.Arch;
  // sm_90a-style variants compile as the base architecture.
  if (!CO.Arch.empty() && CO.Arch.back() == 'a')
    CO.Arch.pop_back();
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
  // Every source's template launches are instantiated: which source wins
  // is decided per instantiation, once it exists.
  std::set<std::string> Seen;
  for (const auto &[Source, Settings] : S.Launches)
    for (const LaunchSetting &L : Settings) {
      if (L.Launch.TemplateArgs.empty())
        continue;
      Instantiation I{L.Launch.PlainName, L.Launch.TemplateArgs,
                      launchOrigin(Source, L)};
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
  auto CU = compileDeviceSide(DB, File, S->Compile);
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
/// Names as the user gave them: the compile makes the main file's path
/// absolute; locations print it the way the user named the file.
struct UserNames {
  std::string File;
  llvm::SmallString<256> Abs;

  explicit UserNames(const std::string &File) : File(File), Abs(File) {
    llvm::sys::fs::make_absolute(Abs);
    llvm::sys::path::remove_dots(Abs, true);
  }
  void operator()(std::string &Name) const {
    if (Name == Abs.str())
      Name = File;
  }
  void operator()(SourceLoc &L) const { (*this)(L.File); }
};

/// A launch to report, with the parameter values it counts with.
using KernelLaunch = std::pair<LaunchInfo, std::map<std::string, int64_t>>;

/// What every launch of one kernel shares.
struct KernelContext {
  const KernelDecl &Decl;
  const KernelModel &Model;
  /// The limit the kernel's model reached, if any: its launches report it
  /// instead of counts.
  const std::optional<UnknownReason> &Limited;
  const GpuSpec &Gpu;
  const UserNames &User;
  SourceCache &Sources;
  /// Whether a launch of the kernel has sizes: a launch without beside it
  /// adds no verdict of its own.
  bool AnySized = false;
};
} // namespace

/// The file's own facts: its names as the user gave them, the kernel
/// templates it never instantiates, and what clang's errors cost (with
/// --kernel, that kernel's entry only).
static void fileFacts(FileReport &FR, CompiledUnit &CU, const UserNames &User,
                      const std::string &KernelFilter) {
  for (KernelDecl &K : CU.Facts.Kernels)
    User(K.Loc);
  for (auto &T : CU.Facts.UninstantiatedTemplates) {
    User(T.second);
    // A template clang rejected is named once, as not analyzed.
    if (llvm::any_of(CU.Lost, [&](const NotAnalyzed &N) {
          return N.Name == T.first && N.Loc.Line == T.second.Line;
        }))
      continue;
    if (KernelFilter.empty() || KernelFilter == T.first)
      FR.UninstantiatedTemplates.push_back(T);
  }
  for (LaunchSite &L : CU.Facts.Launches)
    User(L.Loc);
  for (NotAnalyzed &N : CU.Lost) {
    User(N.Loc);
    User(N.Error.Where);
    // --kernel: only that kernel's entry, if it is lost.
    if (!KernelFilter.empty()) {
      KernelDecl Named;
      Named.Name = N.Name;
      Named.QualifiedPlain = N.Name.substr(0, N.Name.find('<'));
      size_t Scope = Named.QualifiedPlain.rfind("::");
      size_t Start = Scope == std::string::npos ? 0 : Scope + 2;
      Named.PlainName = Named.QualifiedPlain.substr(Start);
      Named.ShortName = N.Name.substr(Start);
      if (N.Kind != "kernel" || !Named.isNamed(KernelFilter))
        continue;
    }
    FR.Lost.push_back(N);
  }
}

// The call sites' argument values give the kernel parameters' values,
// unless the user named that kernel parameter directly (a --param the
// launching function has no variable for).
static std::map<std::string, int64_t>
siteParams(const LaunchSite &Site,
           const std::map<std::string, int64_t> &Params) {
  std::map<std::string, int64_t> Args;
  for (auto &KV : Site.Args)
    if (!Params.count(KV.first) || Site.HostNames.count(KV.first))
      Args.insert(KV);
  return Args;
}

// A launch that overrides the call sites replaces their configuration,
// not their arguments: those every call site passes alike (or the only
// call site passes) stay, so that --launch needs no --param repeating
// them.
static std::map<std::string, int64_t>
overrideParams(const KernelDecl &Decl, const CompiledUnit &CU,
               const std::map<std::string, int64_t> &Params) {
  std::optional<std::map<std::string, int64_t>> Agreed;
  for (const LaunchSite &Site : CU.Facts.Launches) {
    if (Site.KernelMangledName != Decl.MangledName)
      continue;
    std::map<std::string, int64_t> Args = siteParams(Site, Params);
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
  auto KP = Params;
  if (Agreed)
    for (auto &KV : *Agreed)
      KP[KV.first] = KV.second;
  return KP;
}

/// The launches of Decl: the first source of settings with launches of it
/// gives all of them; else its call sites; else one without sizes that
/// says why.
static std::vector<KernelLaunch> kernelLaunches(const KernelDecl &Decl,
                                                const FileSettings &S,
                                                const CompiledUnit &CU,
                                                FileReport &FR) {
  const std::map<std::string, int64_t> &Params = S.Params;
  std::vector<KernelLaunch> Launches;
  for (const auto &[Source, Settings] : S.Launches) {
    for (const LaunchSetting &L : Settings) {
      if (!overrideMatches(L.Launch, Decl))
        continue;
      FR.MatchedLaunches.insert(L.Launch.Kernel);
      LaunchInfo LI;
      LI.Source = Source;
      LI.Grid = L.Launch.Grid;
      LI.Block = L.Launch.Block;
      LI.SharedBytes = L.Launch.SharedBytes;
      LI.Loc = L.Loc;
      Launches.push_back({LI, overrideParams(Decl, CU, Params)});
    }
    if (!Launches.empty())
      return Launches;
  }
  for (const LaunchSite &Site : CU.Facts.Launches) {
    if (Site.KernelMangledName != Decl.MangledName)
      continue;
    LaunchInfo LI;
    LI.Source = LaunchSource::Call;
    LI.Grid = Site.Grid;
    LI.Block = Site.Block;
    LI.SharedBytes = Site.SharedBytes.value_or(0);
    LI.Loc = Site.Loc;
    LI.Unresolved = Site.Unresolved;
    LI.Iteration = Site.Iteration;
    LI.SampledNames = Site.SampledNames;
    LI.Samples = Site.Samples;
    auto KP = Params;
    for (auto &KV : siteParams(Site, Params))
      KP[KV.first] = KV.second;
    Launches.push_back({LI, KP});
  }
  if (!Launches.empty())
    return Launches;
  LaunchInfo LI;
  // A host function clang rejected contributes no launch: it may hold
  // this kernel's.
  bool LostHost = llvm::any_of(
      FR.Lost, [](const NotAnalyzed &N) { return N.Kind != "kernel"; });
  LI.Unresolved = std::string("no <<<>>> launch of this kernel in the "
                              "file") +
                  (LostHost ? " outside the functions clang rejected" : "") +
                  "; use --launch, an annotation or a config file";
  Launches.push_back({LI, Params});
  return Launches;
}

/// A launch CUDA would refuse (grid limits, the GPU's shared memory per
/// block, __launch_bounds__) has no sizes: whether LI is one (made
/// unresolved, with the reason); an error for a --launch.
static llvm::Expected<bool> refuseFailingLaunch(LaunchInfo &LI,
                                                const KernelDecl &Decl,
                                                const GpuSpec &Gpu) {
  if (!LI.known())
    return false;
  std::string Why = launchLimitError(*LI.Grid, *LI.Block);
  if (Why.empty() && Gpu.SharedPerBlockBytes &&
      uint64_t(LI.SharedBytes) > Gpu.SharedPerBlockBytes)
    Why = "dynamic shared memory of " + std::to_string(LI.SharedBytes) +
          " B exceeds the " + std::to_string(Gpu.SharedPerBlockBytes) +
          " B per block of " + Gpu.Id + ": the launch fails";
  if (Why.empty() && Decl.MaxThreadsPerBlock &&
      LI.Block->count() > *Decl.MaxThreadsPerBlock)
    Why = "block (" + std::to_string(LI.Block->V[0]) + "," +
          std::to_string(LI.Block->V[1]) + "," +
          std::to_string(LI.Block->V[2]) + ") has " +
          std::to_string(LI.Block->count()) +
          " threads, more than the kernel's __launch_bounds__ of " +
          std::to_string(*Decl.MaxThreadsPerBlock) + ": the launch fails";
  if (Why.empty())
    return false;
  if (LI.Source == LaunchSource::Flag)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--launch for '" + Decl.Name + "': " + Why);
  LI.Unresolved = Why;
  LI.Grid.reset();
  LI.Block.reset();
  return true;
}

/// R.Params: only values that belong to the kernel's parameters; an error
/// for a value the parameter's type cannot hold.
static llvm::Error kernelParams(const KernelDecl &Decl,
                                std::map<std::string, int64_t> &KP,
                                KernelReport &R) {
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
            "value " + std::to_string(V) + " of '" + P +
                "' does not fit the " + std::to_string(Bits) + "-bit " +
                (Signed ? "signed" : "unsigned") + " parameter of kernel '" +
                Decl.Name + "'");
    }
    R.Params[P] = V;
  }
  return llvm::Error::success();
}

/// R's counts and accesses at launch LI of model Counted (or the limit's
/// unknowns), named as the user names the files.
static void countLaunch(const KernelContext &K, const KernelModel &Counted,
                        const LaunchInfo &LI,
                        const std::map<std::string, int64_t> &CountParams,
                        KernelReport &R) {
  const KernelDecl &Decl = K.Decl;
  if (K.Limited) {
    R.Counts = limitedCounts(LI, *K.Limited);
  } else {
    R.Counts = computeCounts(Counted, LI, CountParams);
    R.Accesses = analyzeAccesses(
        Counted, accessLaunch(Counted, LI, Decl.MaxThreadsPerBlock),
        CountParams);
    for (AccessInfo &A : R.Accesses) {
      // Without a debug location an access is the kernel's.
      if (A.File.empty())
        A.File = Decl.Loc.File;
      K.User(A.File);
      K.User(A.LoopFile);
      A.Expr = expressionAt(sourceText(K.Sources, A.File), A.Line, A.Column,
                            &A.Column, !A.IsStore, &A.Line);
    }
    if (LI.known()) {
      sectorUpper(R.Accesses, R.Counts);
      priceTiles(R.Accesses, K.Gpu, *LI.Block,
                 Counted.StaticSharedBytes +
                     uint64_t(std::max<int64_t>(LI.SharedBytes, 0)),
                 blockLoadFootprint(Counted, LI, CountParams));
    }
    estimateTraffic(Counted, LI, CountParams, K.Gpu, R.Counts);
    if (R.Counts.Estimate.Limit)
      R.Counts.Unknowns.push_back(*R.Counts.Estimate.Limit);
  }
  for (PathCount &P : R.Counts.Paths)
    K.User(P.File);
  for (UnknownReason &U : R.Counts.Unknowns) {
    if (U.File.empty())
      U.File = Decl.Loc.File;
    K.User(U.File);
    // A limit reached inside a condition or a whole-buffer footprint
    // has no statement of its own: it is the kernel's.
    if (U.Line == 0 &&
        llvm::StringRef(U.Reason).contains("analysis limit reached")) {
      U.Line = Decl.Loc.Line;
      U.Column = Decl.Loc.Column;
    }
  }
}

/// What the kernel-level checks need to know about launch LI's report R.
static KernelFacts kernelFacts(const KernelContext &K, const LaunchInfo &LI,
                               const KernelReport &R) {
  KernelFacts Facts;
  Facts.Name = K.Decl.Name;
  Facts.File = K.Decl.Loc.File;
  Facts.Line = K.Decl.Loc.Line;
  Facts.Column = K.Decl.Loc.Column;
  Facts.Metrics = &R.Metrics;
  Facts.Gpu = &K.Gpu;
  Facts.Unresolved = LI.Unresolved;
  // Kernel parameters whose missing value left something unknown (with
  // a launch; without one, the launch's reason says it all).
  if (LI.known()) {
    std::set<std::string> Missing;
    auto isParam = [&](const std::string &N) {
      return llvm::is_contained(K.Model.ParamNames, N);
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
  return Facts;
}

/// R's findings, each said once per kernel however many of its launches
/// find the same (the same missing sizes; an access whose verdict does
/// not depend on what differs between them). The summary heads each
/// launch's report: it stays.
static void launchFindings(const KernelContext &K, const KernelFacts &Facts,
                           const FindingOptions &Opts, const FileReport &FR,
                           KernelReport &R) {
  R.Findings = buildFindings(Facts, R.Accesses, Opts);
  llvm::erase_if(R.Findings, [&](const Finding &F) {
    return F.Check != checkId(CheckId::KernelSummary) &&
           llvm::any_of(FR.Kernels, [&](const KernelReport &Prev) {
             return Prev.Decl.MangledName == K.Decl.MangledName &&
                    llvm::any_of(Prev.Findings, [&](const Finding &P) {
                      return P.Check == F.Check && P.Line == F.Line &&
                             P.Column == F.Column && P.File == F.File &&
                             P.Message == F.Message;
                    });
           });
  });
  for (Finding &F : R.Findings)
    F.SourceLine = lineOf(sourceText(K.Sources, F.File), F.Line);
}

/// The report of one launch of a kernel.
static llvm::Expected<KernelReport>
launchReport(const KernelContext &K, KernelLaunch Launch,
             const FileSettings &S, const FileReport &FR) {
  auto &[LI, KP] = Launch;
  // The launch fails: no sizes would help.
  llvm::Expected<bool> Refused = refuseFailingLaunch(LI, K.Decl, K.Gpu);
  if (!Refused)
    return Refused.takeError();
  KernelReport R;
  R.Decl = K.Decl;
  R.Launch = LI;
  if (llvm::Error E = kernelParams(K.Decl, KP, R))
    return std::move(E);
  // Template arguments named in formulas get their values too.
  auto CountParams = R.Params;
  for (const KernelDecl::TemplateUse &U : K.Decl.TemplateUses)
    CountParams.emplace(U.Name, U.Value);
  // `if (bias)`: a value given for the pointer decides its null tests
  // (null is 0). Without one it is taken to be non-null -- what a
  // caller that passes the argument gets -- and the report says so,
  // so that the counts stay exact and the choice is visible.
  const KernelModel &Model = K.Model;
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
  countLaunch(K, Counted, LI, CountParams, R);
  R.Metrics = computeMetrics(R.Counts, K.Gpu, LI.known());
  KernelFacts Facts = kernelFacts(K, LI, R);
  // Without sizes, the verdict every size swept agrees on.
  if (!K.Limited && !*Refused &&
      (LI.known() ? !Facts.MissingParams.empty() : !K.AnySized))
    R.Sweep = sweepRoofline(Counted, K.Decl, LI, CountParams, K.Gpu,
                            R.SweepWhyNot);
  Facts.Sweep = R.Sweep ? &*R.Sweep : nullptr;
  Facts.SweepWhyNot = R.SweepWhyNot;
  R.MissingSizes = missingSizes(Facts);
  launchFindings(K, Facts, S.Findings, FR, R);
  return std::move(R);
}

/// One finding per place across instantiations, launches and kernels
/// that share a device function.
static void mergeKernelFindings(FileReport &FR) {
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
}

llvm::Expected<FileReport> Analyzer::analyzeUnit(const std::string &File,
                                                 const FileSettings &S,
                                                 CompiledUnit &CU) {
  if (!CU.Facts.Errors.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   CU.Facts.Errors.front());
  FileReport FR;
  SourceCache Sources;
  FR.File = File;
  FR.Gpu = S.Gpu;
  FR.ConfigChecks = S.Checks;
  FR.ConfigWarningsAsErrors = S.WarningsAsErrors;
  FR.ConfigOrigin = S.ConfigOrigin;
  UserNames User(File);
  fileFacts(FR, CU, User, Opts.KernelFilter);
  FR.Findings = buildNotAnalyzedFindings(FR.Lost);
  for (Finding &F : FR.Findings)
    F.SourceLine = lineOf(sourceText(Sources, F.File), F.Line);

  for (llvm::Function &F : *CU.Module) {
    if (F.isDeclaration() || F.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      continue;
    KernelDecl Decl;
    if (const KernelDecl *D = CU.Facts.findKernel(F.getName().str()))
      Decl = *D;
    else {
      Decl.MangledName = Decl.Name = Decl.ShortName = Decl.PlainName =
          Decl.QualifiedPlain = F.getName().str();
      Decl.Loc.File = File;
    }
    if (llvm::StringRef(Decl.MangledName).starts_with("__cuda_roofline"))
      continue;
    if (!Opts.KernelFilter.empty() && !Decl.isNamed(Opts.KernelFilter))
      continue;

    KernelLimits Limit(S.KernelSeconds, S.KernelMemoryMiB);
    // Past the file's limit a kernel is not modelled at all, and a model
    // whose building reached a limit is incomplete: either way each of its
    // launches is reported with the limit's reason instead of counts.
    KernelModel Model;
    if (!KernelLimits::expired())
      Model = buildKernelModel(F, &Decl);
    std::optional<UnknownReason> Limited;
    if (KernelLimits::expired()) {
      Limited.emplace();
      Limited->Reason = KernelLimits::reason();
      Limited->File = Decl.Loc.File;
      Limited->Line = Decl.Loc.Line;
      Limited->Column = Decl.Loc.Column;
    } else if (Opts.DumpModel) {
      dumpKernelModel(Model, llvm::errs());
    }

    std::vector<KernelLaunch> Launches = kernelLaunches(Decl, S, CU, FR);
    KernelContext K{Decl, Model, Limited, *FR.Gpu, User, Sources};
    K.AnySized = llvm::any_of(
        Launches, [](const KernelLaunch &L) { return L.first.known(); });
    for (KernelLaunch &L : Launches) {
      auto R = launchReport(K, std::move(L), S, FR);
      if (!R)
        return R.takeError();
      FR.Kernels.push_back(std::move(*R));
    }
  }
  std::stable_sort(FR.Kernels.begin(), FR.Kernels.end(),
                   [](const KernelReport &A, const KernelReport &B) {
                     return A.Decl.Loc.Line < B.Decl.Loc.Line;
                   });
  mergeKernelFindings(FR);
  return FR;
}
