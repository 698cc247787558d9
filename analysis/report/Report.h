//===- Report.h - What the analysis of a file says --------------*- C++ -*-===//
//
// The data model every front-end and emitter shares: the options an analysis
// runs with, and what it returns per file and per kernel (the launch, the
// counts, the metrics, the accesses and the findings). The driver
// (Analyzer.h) fills it; emitters and lint policies only read it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_REPORT_H
#define CUDA_ROOFLINE_REPORT_H

#include "ErrorIsolation.h"
#include "Findings.h"
#include "GpuDatabase.h"
#include "HostLaunches.h"
#include "KernelCounts.h"
#include "LaunchSpec.h"
#include "Metrics.h"
#include "OptionTable.h"
#include "Prediction.h"
#include "SizeSweep.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {

struct AnalyzerOptions {
  std::optional<std::string> GpuId; ///< --gpu; else annotation/config/default.
  std::string Arch;                 ///< --arch; empty: the GPU's.
  std::map<std::string, int64_t> Params;
  std::vector<KernelLaunch> Launches;
  std::string KernelFilter;
  std::vector<std::string> ExtraArgs;
  std::string CudaPath; ///< --cuda-path; empty: the build's toolkit.
  /// Pre-include the nvcc-compatibility prelude (--no-prelude turns it off).
  bool Prelude = optionDefault(OptionId::Prelude) != 0;
  /// Exit 2 when clang rejects any part of a file (--strict-parse), instead
  /// of analyzing the kernels that do not depend on the rejected code.
  bool StrictParse = false;
  /// Wall-clock limit on counting one kernel (<= 0: none); past it, counts
  /// are "analysis limit reached" unknowns.
  double KernelSeconds = optionDefault(OptionId::MaxKernelSeconds);
  /// Limit on the process's resident memory (MiB) while a file is analyzed
  /// (host evaluation, every kernel, the cache model) (<= 0: none); past
  /// it, the same unknowns.
  double KernelMemoryMiB = optionDefault(OptionId::MaxKernelMemory);
  /// Wall-clock limit on one file's whole analysis, from its start (in
  /// analyzeFile, the parse included) (<= 0: none); past it, the launches
  /// not yet evaluated and the kernels not yet counted are "analysis limit
  /// reached" unknowns.
  double FileSeconds = optionDefault(OptionId::MaxFileSeconds);
  FindingOptions Findings;
  /// Threshold options given on the command line ("min-reuse", ...): a
  /// config file does not override them.
  std::set<std::string> FindingFlags;
  /// --config-file: this file instead of the .cuda-roofline.yaml found
  /// above each input.
  std::string ConfigFile;
  llvm::raw_ostream *Diagnostics = nullptr; ///< Clang's diagnostics (stderr).
  /// The analyzed file's text when it is not what is on disk: an editor's
  /// unsaved buffer (the language server). Annotations, the compile and the
  /// findings' source lines all read it.
  std::optional<std::string> Contents;
  /// The compile commands are the user's own (flags after `--`), not read
  /// from the repository: their flags are not checked (UnsafeFlags.h).
  bool CommandsFromUser = false;
  /// --allow-unsafe-flags: flags from the repository may load code.
  bool AllowUnsafeFlags = false;
  bool DumpModel = false; ///< Print each kernel model to stderr (debugging).
  bool DumpIR = false;    ///< Print the optimized device IR (debugging).
};

/// A loop of the kernel as a report shows it: where its header is and how
/// many times its body runs per entry (a formula in the kernel's names), or
/// why that is unknown.
struct LoopSummary {
  SourceLoc Loc;
  std::string Trips;
};

struct KernelReport {
  KernelDecl Decl;
  KernelLaunch Launch;
  std::map<std::string, int64_t> Params; ///< Kernel parameter values used.
  /// Pointer parameters the kernel compares with null that have no value
  /// (--param P=null, a call site's nullptr): counted as non-null.
  std::vector<std::string> AssumedNonNull;
  /// Why the kernel lacks sizes (missingSizes), or empty.
  std::string MissingSizes;
  /// The names whose values would size it (kernel or launcher parameters
  /// and locals a --param or an annotation can set), in order.
  std::vector<std::string> MissingParams;
  std::vector<LoopSummary> Loops;
  /// Without sizes: the roofline over a sweep of them, or why there is none.
  std::optional<SizeSweep> Sweep;
  std::string SweepWhyNot;
  KernelCounts Counts;
  RooflineMetrics Metrics;
  /// The implementation's time, resource by resource.
  Prediction Predicted;
  std::vector<AccessInfo> Accesses;
  std::vector<Finding> Findings;
};

struct FileReport {
  std::string File;
  const GpuSpec *Gpu = nullptr;
  std::vector<KernelReport> Kernels;
  /// Kernels and functions not analyzed because clang rejected code they
  /// contain or use (error isolation), in source order.
  std::vector<NotAnalyzed> Lost;
  /// Findings about the file rather than an analyzed kernel
  /// (roofline-not-analyzed, one per entry of Lost).
  std::vector<Finding> Findings;
  /// Kernels named by --launch/annotation/config launches that matched.
  std::set<std::string> MatchedLaunches;
  /// Kernel templates the file never instantiates (name, location).
  std::vector<std::pair<std::string, SourceLoc>> UninstantiatedTemplates;
  /// The config file's check globs, for the front-end's lint policy.
  std::optional<std::string> ConfigChecks, ConfigWarningsAsErrors;
  std::string ConfigOrigin;
};

/// Calls Fn on every finding of R: the file's own (roofline-not-analyzed)
/// first, then each kernel's.
template <typename Fn> void forEachFinding(const FileReport &R, Fn &&F) {
  for (const Finding &Fd : R.Findings)
    F(Fd);
  for (const KernelReport &K : R.Kernels)
    for (const Finding &Fd : K.Findings)
      F(Fd);
}

/// Every finding of Files in the order reviewers read them: what clang's
/// errors kept from being analyzed (roofline-not-analyzed), then the most
/// costly first (Finding::Seconds), then those without a cost in report
/// order.
std::vector<const Finding *>
findingsByCost(const std::vector<FileReport> &Files);

} // namespace roofline

#endif
