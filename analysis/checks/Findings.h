//===- Findings.h - Lint findings from the analysis -------------*- C++ -*-===//
//
// Findings are what a reviewer would say about a line: built here, once,
// from the access analysis (each check in its own unit, CheckSupport.h),
// and only formatted by the emitters and the lint front-ends. Check ids are
// stable and registered in Checks.h.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_FINDINGS_H
#define CUDA_ROOFLINE_FINDINGS_H

#include "AccessAnalysis.h"
#include "ErrorIsolation.h"
#include "GpuDatabase.h"
#include "Metrics.h"
#include "OptionTable.h"
#include "Prediction.h"
#include "SourceLoc.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct SizeSweep;

/// Thresholds, starting from their defaults in core/Options.def (written
/// there once; docs/findings.md).
struct FindingOptions {
  /// roofline-uncoalesced-access fires when more than this fraction of the
  /// sectors a request fetches is beyond what its bytes need.
  double MinEfficiencyLoss = optionDefault(OptionId::MinEfficiencyLoss);
  /// roofline-bank-conflict fires from this many ways.
  unsigned MinConflictWays = unsigned(optionDefault(OptionId::MinConflictWays));
  /// roofline-global-reuse fires for loads whose elements the threads of a
  /// block read at least this many times each from global memory.
  double MinReuse = optionDefault(OptionId::MinReuse);
  /// ... and whose re-reads from L2 a tile would save take at least this
  /// fraction of the kernel's speed of light.
  double MinReuseCost = optionDefault(OptionId::MinReuseCost);
  /// roofline-memory-bound fires for memory-bound kernels whose best-case
  /// (compulsory-traffic) intensity is below this fraction of the ridge.
  double MemoryBoundRidgeFraction =
      optionDefault(OptionId::MemoryBoundFraction);
  /// roofline-kernel-summary: the per-kernel figures as a note (on in the
  /// command-line tool, off by default in lint front-ends).
  bool KernelSummary = optionDefault(OptionId::KernelSummary) != 0;
};

/// A note's place is its own: a loop in a header, an error in another file
/// than the finding's. File is named the way Finding::File is.
struct FindingNote {
  SourceLoc Loc;
  std::string Message;
};

struct Finding {
  std::string Check;
  std::string Level = "warning"; ///< "warning" or "note".
  SourceLoc Loc;
  std::string Message;
  std::vector<FindingNote> Notes;
  std::string SourceLine; ///< The line of source, for the caret display.
  /// What it costs at the launch, in seconds (FindingCost.h): reports list
  /// findings by it. None for notes and for findings without a launch.
  std::optional<double> Seconds;
};

/// What the kernel-level checks need to know about the kernel.
struct KernelFacts {
  std::string Name;
  SourceLoc Loc;
  const RooflineMetrics *Metrics = nullptr;
  /// The implementation's predicted time (Prediction.h), if any.
  const Prediction *Predicted = nullptr;
  const GpuSpec *Gpu = nullptr;
  std::string Unresolved; ///< Why the launch has no sizes, if it has none.
  /// With a launch: the kernel parameters with no value that left counts
  /// or accesses unknown.
  std::vector<std::string> MissingParams;
  /// Without sizes: the roofline over a sweep of them.
  const SizeSweep *Sweep = nullptr;
  /// Why there is no sweep when sizes are missing.
  std::string SweepWhyNot;
};

/// Why the kernel lacks sizes, as roofline-missing-size and the summary say
/// it ("'n' has no value (use --param n=VALUE)"), or empty if it does not.
std::string missingSizes(const KernelFacts &Kernel);

std::vector<Finding> buildFindings(const KernelFacts &Kernel,
                                   const std::vector<AccessInfo> &Accesses,
                                   const FindingOptions &Opts);

/// Whether L costs more than R: priced findings before unpriced ones, the
/// most costly first; the order both rankings below sort by.
bool costlier(const Finding &L, const Finding &R);

/// One report's findings in the order a reader takes them: the
/// kernel-level ones first, as built (the bound, the summary, missing
/// sizes), then the priced findings by cost, the most costly first, then
/// the rest in their order. Reports keep their findings as built (source
/// order, what JSON and the lint front-ends give); the text report lists
/// them ranked.
std::vector<const Finding *> rankFindings(const std::vector<Finding> &Findings);

/// The findings of one kernel report, and how a merged message names it
/// ("'tiled<64>'", "'scale' launched at line 40").
struct ReportFindings {
  std::string Label;
  std::vector<Finding> *Findings;
};

/// One finding per place (issue 16): the access findings that several
/// reports (instantiations of a template, launches of a kernel, kernels
/// sharing a device function) make at one location become one, in the
/// first report that has it. Identical messages are said once; different
/// ones are joined after their common beginning, each naming its report:
/// "... has a 32-way bank conflict: ... (in 'copy<32>'); 16-way bank
/// conflict: ... (in 'copy<16>')". Kernel-level findings stay per report.
void mergeAcrossReports(std::vector<ReportFindings> &Reports);

/// roofline-not-analyzed: one warning per kernel or function clang's errors
/// cost, at its declaration, with a note at the error.
std::vector<Finding>
buildNotAnalyzedFindings(const std::vector<NotAnalyzed> &Lost);

} // namespace roofline

#endif
